from elasticsearch import Elasticsearch


class ESClient(Elasticsearch):
    def __init__(self, conf):
        super(ESClient, self).__init__(host=conf["host"], timeout=conf["timeout"])

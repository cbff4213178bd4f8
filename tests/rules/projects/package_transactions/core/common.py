class Config(dict):
    def get_value(self, key):
        return self.get(key)


config = Config()

from app.core.psycopg import psycopg


def connect(instance):
    return psycopg.connect(host=instance.host, dbname=instance.database, user=instance.user)  # expect: RES101 "`psycopg2.connect` is called without a timeout", RES105 "`psycopg.connect` is called without a timeout: psycopg 3 waits up to 130 s"


def connect_with(instance, dsn):
    return psycopg.connect(dsn)  # the connection string may carry the timeout: no finding

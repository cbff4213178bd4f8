from app import psycopg


def superuser_connection(dsn, password):
    # the connection string the user gives may carry connect_timeout
    return psycopg.connect(dsn=dsn, password=password)


def leader_connection(connstring):
    return psycopg.connect(connstring)


def local_connection():
    return psycopg.connect(host="/var/run/postgresql", user="postgres")  # expect: RES101 "is called through `connect` without a timeout", RES105

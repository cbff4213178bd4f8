import mongoengine
import tooz.coordination

from wf import dbexc


def retry_on_connection_errors(exc):
    return isinstance(exc, tooz.coordination.ToozConnectionError) or isinstance(
        exc, mongoengine.connection.ConnectionFailure
    )


def retry_on_transient_db_errors(exc):
    return isinstance(exc, dbexc.WriteConflictError)

import logging

import mongoengine
import tooz.coordination

from wf import dbexc

LOG = logging.getLogger(__name__)


def retry_on_connection_errors(exc):
    LOG.warning("Determining if exception %s should be retried.", type(exc))

    retrying = isinstance(exc, tooz.coordination.ToozConnectionError) or isinstance(
        exc, mongoengine.connection.ConnectionFailure
    )

    if retrying:
        LOG.warning("Retrying operation due to connection error: %s", type(exc))

    return retrying


def retry_on_transient_db_errors(exc):
    return isinstance(exc, dbexc.WriteConflictError)

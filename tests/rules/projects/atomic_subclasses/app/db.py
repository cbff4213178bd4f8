from django.db import DEFAULT_DB_ALIAS, connection
from django.db.transaction import Atomic


class LockedAtomicTransaction(Atomic):
    """A transaction that also locks the model's table until it ends."""

    def __init__(self, model, using=None, savepoint=True, durable=False):
        super().__init__(using or DEFAULT_DB_ALIAS, savepoint, durable)
        self.model = model

    def __enter__(self):
        super().__enter__()
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {self.model._meta.db_table}")


class Timer:
    """A context manager that is no transaction."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

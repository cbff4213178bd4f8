from .client import SupplierClient, get_client  # noqa: F401

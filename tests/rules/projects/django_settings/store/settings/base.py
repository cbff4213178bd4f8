from datetime import timedelta

CATALOG_TIMEOUT = 10
REPORTS_TIMEOUT = timedelta(minutes=2).total_seconds()
SUPPLIER_TIMEOUT = (3.05, 12)
EXPORT_TIMEOUT = 20

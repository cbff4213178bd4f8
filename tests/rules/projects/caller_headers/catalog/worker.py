# select: RES201
import time
import uuid

from catalog.api import Catalog, CatalogError


def import_all(catalog: Catalog, records, retries=5):
    for record in records:
        key = str(uuid.uuid4())  # one key per record, the same on every attempt
        for attempt in range(retries):
            try:
                catalog.import_record(record)  # expect: RES201 "`import_record` sends a POST (`requests.request`) through `_request` without an `Idempotency-Key` header"
                catalog.import_inline(record)  # expect: RES201 "`import_inline` sends a POST (`requests.request`) through `_request` without an `Idempotency-Key` header"
                catalog.import_keyed(record, key)
                break
            except (OSError, CatalogError):
                time.sleep(2 ** attempt)

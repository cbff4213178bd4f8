import os

PAYMENTS_URL = os.environ.get("PAYMENTS_URL", "https://payments.internal")
INVENTORY_URL = os.environ.get("INVENTORY_URL", "https://inventory.internal")
DATABASE_HOST = os.environ.get("DATABASE_HOST", "db.internal")

import os

PAYMENTS_URL = os.environ.get("PAYMENTS_URL", "https://payments.internal")
INVENTORY_URL = os.environ.get("INVENTORY_URL", "https://inventory.internal")
DATABASE_HOST = os.environ.get("DATABASE_HOST", "db.internal")
CARRIER_URL = os.environ.get("CARRIER_URL", "https://carrier.example")
CARRIER_TIMEOUT = (float(os.environ.get("CARRIER_CONNECT_TIMEOUT", "1")), float(os.environ.get("CARRIER_READ_TIMEOUT", "4")))

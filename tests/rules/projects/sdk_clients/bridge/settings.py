import os

HTTP_TIMEOUT = (3.05, float(os.environ.get("HTTP_READ_TIMEOUT", "10")))
ERP_URL = os.environ["ERP_URL"]
ERP_TOKEN = os.environ["ERP_TOKEN"]
PARTNER_CLIENT_ID = os.environ["PARTNER_CLIENT_ID"]
PARTNER_API = os.environ["PARTNER_API"]
ORDERS_DSN = os.environ["ORDERS_DSN"]
PG_CONNECT_TIMEOUT = int(os.environ.get("PG_CONNECT_TIMEOUT", "5"))

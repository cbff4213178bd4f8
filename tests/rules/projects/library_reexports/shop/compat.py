# One place that decides which HTTP library the project uses, as compat modules do.
import os

try:
    from urllib.request import urlopen
except ImportError:  # Python 2
    from urllib2 import urlopen

if os.environ.get("SHOP_BLOCK_PRIVATE_ADDRESSES"):
    import advocate as http
else:
    import requests as http

from requests import Session
from smtplib import SMTP

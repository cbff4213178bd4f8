import requests
from django.conf import settings


class DnsService:
    def __init__(self):
        self.session = requests.Session()

    def records(self, ip):
        return self.session.get(f"https://dns.example/api/records?ip={ip}", timeout=settings.DNS_TIMEOUT).json()

from django.db import models

from inventory.dns import DnsService


class Network(models.Model):
    def first_free_ip(self):
        dns = DnsService()
        for ip in range(10):
            if not dns.records(ip):
                return ip
        return None


class Rack(models.Model):
    def label(self):
        return f"rack {self.pk}"

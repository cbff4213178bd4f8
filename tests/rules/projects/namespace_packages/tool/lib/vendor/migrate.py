from lib.vendor.api_client import VendorClient


def migrate():
    return VendorClient("https://api.example.com").get("users")

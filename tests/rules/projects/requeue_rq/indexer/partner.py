import requests


def push_to_partner(doc):
    return requests.post("https://partner.example/docs", json=doc, timeout=5)


def read_from_partner(doc_id):
    return requests.get(f"https://partner.example/docs/{doc_id}", timeout=5)

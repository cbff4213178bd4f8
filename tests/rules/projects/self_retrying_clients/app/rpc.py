import json
import random
import time

import grpc

from app.protos.audit_pb2_grpc import AuditStub
from app.protos.stock_pb2_grpc import StockStub

SERVICE_CONFIG = json.dumps({
    "methodConfig": [{
        "name": [{"service": "inventory.v1.Stock"}],
        "retryPolicy": {
            "maxAttempts": 4,
            "initialBackoff": "0.2s",
            "maxBackoff": "2s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        },
    }]
})
GREEDY = '{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 9, "retryableStatusCodes": ["UNAVAILABLE"]}}]}'


def stock_channel():
    return grpc.secure_channel(
        "stock:443", grpc.ssl_channel_credentials(), options=[("grpc.service_config", SERVICE_CONFIG), ("grpc.enable_retries", 1)],
    )


def reserve(sku, qty):
    stub = StockStub(stock_channel())
    for attempt in range(3):
        try:
            return stub.Reserve({"sku": sku, "qty": qty}, timeout=3)  # expect: RES204 "a hand-written retry loop 3 attempts (app/rpc.py:33) x gRPC retryPolicy maxAttempts=4 (app/rpc.py:26) = up to 12 calls"
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.UNAVAILABLE or attempt == 2:
                raise
            time.sleep(random.uniform(0, 0.5 * 2 ** attempt))


def record(event):
    stub = AuditStub(grpc.insecure_channel("audit:443", options=[("grpc.enable_retries", 0), ("grpc.service_config", GREEDY)]))
    for attempt in range(3):
        try:
            return stub.Record(event, timeout=3)
        except grpc.RpcError:
            time.sleep(random.uniform(0, 0.5 * 2 ** attempt))


def audit(event):
    stub = AuditStub(grpc.insecure_channel("audit:443", options=[("grpc.service_config", SERVICE_CONFIG)]))
    for attempt in range(3):
        try:
            return stub.Record(event, timeout=3)
        except grpc.RpcError:
            time.sleep(random.uniform(0, 0.5 * 2 ** attempt))


def audit_greedy(event):
    stub = AuditStub(grpc.insecure_channel("audit:443", options=[("grpc.service_config", GREEDY)]))
    for attempt in range(3):
        try:
            return stub.Record(event, timeout=3)  # expect: RES204 "x gRPC retryPolicy maxAttempts=9, counted as 5 (app/rpc.py:61) = up to 15 calls"
        except grpc.RpcError:
            time.sleep(random.uniform(0, 0.5 * 2 ** attempt))

"""RES1xx: timeouts on outbound calls."""

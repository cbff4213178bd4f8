"""RES3xx: resources held across outbound calls."""

"""The rules, one module each, grouped by family. Found by discovery (lint/registry.py)."""

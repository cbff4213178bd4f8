"""A small order service: payments, inventory, notifications."""

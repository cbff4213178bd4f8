class TaxError(Exception):
    """A tax service call that did not give an answer the shop can use."""

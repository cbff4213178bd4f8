from .api import PyMISP

__all__ = ['PyMISP']

# a package that re-exports the compat module's names
from ..compat import http, urlopen  # noqa: F401

import sys

if sys.version_info[0] == 2:
    from urllib2 import HTTPHandler, Request, build_opener
else:
    from urllib.request import HTTPHandler, Request, build_opener

# A Python 2 script nobody has ported yet: resilint cannot parse it, and says so (RES000)
# instead of skipping it silently.
import urllib2

print "syncing"
urllib2.urlopen("https://legacy.internal/sync")

# select: RES101
import smtplib
import urllib.request


def send(server, message):
    connection = smtplib.SMTP(server)  # expect: RES101 "global socket default"
    connection.sendmail("from@example.com", ["to@example.com"], message)


def ping(url):
    return urllib.request.urlopen(url).read()  # expect: RES101

# select: RES101
import smtplib
import urllib.request


def send(server, message):
    connection = smtplib.SMTP(server)
    connection.sendmail("from@example.com", ["to@example.com"], message)


def ping(url):
    return urllib.request.urlopen(url).read()

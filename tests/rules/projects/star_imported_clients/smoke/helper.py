import requests
import socket

SERVER = "https://wiki.example.org"

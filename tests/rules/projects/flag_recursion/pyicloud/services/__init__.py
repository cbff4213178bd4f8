from pyicloud.services.findmyiphone import AppleDevice

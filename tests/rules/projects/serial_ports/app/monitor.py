# select: RES202, RES203
# A serial port of this machine opened again after the device went away: no other service.
import time

import requests
import serial

from app import platformio_api


def run_monitor(elf, port, baud_rate):
    backtrace_state = False
    ser = serial.Serial()
    ser.baudrate = baud_rate
    ser.port = port
    tries = 0
    while tries < 5:
        try:
            with ser:
                while True:
                    try:
                        raw = ser.readline()
                    except serial.SerialException:
                        return 0
                    line = raw.decode("utf8", "backslashreplace")
                    print(line)
                    backtrace_state = platformio_api.process_stacktrace(
                        elf, line, backtrace_state=backtrace_state
                    )
        except serial.SerialException:
            tries += 1
            time.sleep(1)
    return 1


def upload_log(url, lines):
    for attempt in range(3):
        try:
            return requests.post(url, json=lines, timeout=(3, 10))
        except (serial.SerialException, requests.ConnectionError):
            time.sleep(1)  # expect: RES202

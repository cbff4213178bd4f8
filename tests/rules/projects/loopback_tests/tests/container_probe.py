# A fixture probes the container it started, published on 0.0.0.0 (gcsfs's docker_gcs):
# this machine, so neither RES101 nor RES205.
import shlex
import subprocess
import time

import pytest
import requests


@pytest.fixture(scope="session")
def docker_gcs():
    cmd = "docker run -d -p 4443:4443 --name gcsfs_test fsouza/fake-gcs-server:latest"
    subprocess.check_output(shlex.split(cmd))
    url = "http://0.0.0.0:4443"
    timeout = 10
    while True:
        try:
            r = requests.get(url + "/storage/v1/b")
            if r.ok:
                yield url
                break
        except Exception as e:  # noqa: E722
            timeout -= 1
            if timeout < 0:
                raise SystemError from e
            time.sleep(1)
    subprocess.call(["docker", "rm", "-f", "gcsfs_test"])

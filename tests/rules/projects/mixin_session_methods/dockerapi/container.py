# select: RES101, RES102, RES105
class ContainerApiMixin:
    def attach_socket(self, container):
        url = self._url(f"/containers/{container}/attach")
        return self.post(url, None, stream=True)  # expect: RES101 "`self` is a `APIClient`, which mixes in `ContainerApiMixin`"

    def logs(self, container):
        return self._get(self._url(f"/containers/{container}/logs"))

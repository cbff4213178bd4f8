# select: RES101, RES102, RES105
class ImageApiMixin:
    def import_image_from_data(self, data):
        url = self._url("/images/create")
        return self._post(url, data=data, timeout=None)  # expect: RES102 "passed through `APIClient._post`"

    def push(self, name):
        return self._post(self._url(f"/images/{name}/push"), timeout=300)  # expect: RES105 "may wait 300 s"

    def inspect(self, name):
        return self._get(self._url(f"/images/{name}/json"))

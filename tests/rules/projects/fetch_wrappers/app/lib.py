import requests


class SpiderFoot:
    def session(self):
        return requests.session()

    def fetch_url(self, url, timeout=30, headers=None, post_data=None):
        """GET, or POST when there is data to send."""
        try:
            if post_data:
                response = self.session().post(url, data=post_data, headers=headers, timeout=timeout)
            else:
                response = self.session().get(url, headers=headers, timeout=timeout)
        except requests.exceptions.RequestException:
            return None
        return response.text

from catalog.connector import Connector, fetch


class OpenLibrary(Connector):
    def authors_of(self, data):
        return [fetch(f"https://openlibrary.org{key}.json")["name"] for key in data["authors"]]

    def tags_of(self, data):
        return fetch(f"https://openlibrary.org{data['key']}/subjects.json")["subjects"]

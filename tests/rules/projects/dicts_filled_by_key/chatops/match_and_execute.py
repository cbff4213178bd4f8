# select: RES101
import os

from st2client.client import Client


class ExecuteActionAliasAction(object):
    def __init__(self):
        api_url = os.environ.get("ST2_ACTION_API_URL", None)
        token = os.environ.get("ST2_ACTION_AUTH_TOKEN", None)
        self.client = Client(api_url=api_url, token=token)

    def run(self, text):
        match = self.client.managers["ActionAlias"].match(text)  # expect: RES101 "through `ActionAliasResourceManager.match`"
        action_exec_mgr = self.client.managers["ActionAliasExecution"]
        execution = action_exec_mgr.create(match)  # expect: RES101 "through `ResourceManager.create`"
        return action_exec_mgr.get_by_id(execution.json()["id"])  # expect: RES101

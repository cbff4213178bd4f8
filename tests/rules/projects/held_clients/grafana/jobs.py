from grafana.sync import GrafanaAPIClient


def sync_users(client: GrafanaAPIClient, **kwargs):
    return client.list_users(**kwargs)

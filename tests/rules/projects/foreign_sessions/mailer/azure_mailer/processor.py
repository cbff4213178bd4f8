from c7n_azure.session import Session

from mailer.utils import decrypt


def start(config):
    # Azure entry point: the queue_url is asq://..., decrypt() takes the azure branch
    return decrypt(config, Session(), "sendgrid_api_key")

import base64


def get_provider(config):
    if config.get("queue_url", "").startswith("asq://"):
        return "azure"
    return "aws"


def kms_decrypt(config, session, field):
    kms = session.client("kms")  # expect: RES105 "callers of `kms_decrypt` pass as `session`"
    return kms.decrypt(CiphertextBlob=base64.b64decode(config[field]))["Plaintext"]


def decrypt(config, session, field):
    if get_provider(config) == "azure":
        from mailer.azure_mailer.utils import azure_decrypt
        return azure_decrypt(config, session, field)
    return kms_decrypt(config, session, field)

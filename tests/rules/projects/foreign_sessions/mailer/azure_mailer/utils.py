from azure.keyvault.secrets import SecretProperties


def azure_decrypt(config, session, field):
    data = config[field]
    if isinstance(data, dict):
        secret_id = SecretProperties(attributes=None, vault_id=data["secret"])
        # `session` is c7n_azure's Session here: client() builds an Azure SDK client
        kv_client = session.client(
            "azure.keyvault.secrets.SecretClient", vault_url=secret_id.vault_url
        )
        return kv_client.get_secret(secret_id.name, secret_id.version).value
    return data

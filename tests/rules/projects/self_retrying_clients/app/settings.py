import stripe

stripe.api_key = "sk_test"
stripe.max_network_retries = 2
SLACK_TOKEN = "xoxb-test"
BACKUP_URL = "https://backups.example/"
BACKUP_READ_TIMEOUT = 10
CLUSTER_URL = "https://cluster.internal/"

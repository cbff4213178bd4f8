import stripe

stripe.api_key = "sk_test"
stripe.max_network_retries = 2
SLACK_TOKEN = "xoxb-test"

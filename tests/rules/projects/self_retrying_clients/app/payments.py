import stripe
import tenacity

retry = tenacity.retry(
    stop=tenacity.stop_after_attempt(3),
    wait=tenacity.wait_random_exponential(max=4),
    retry=tenacity.retry_if_exception_type(stripe.error.APIConnectionError),
    reraise=True,
)

client = stripe.StripeClient("sk_test", max_network_retries=3)
quiet = stripe.StripeClient("sk_test")


@retry
def create_intent(amount, key):
    return stripe.PaymentIntent.create(amount=amount, currency="eur", idempotency_key=key)  # expect: RES204 "tenacity 3 attempts (app/payments.py:15) x stripe.max_network_retries = 2 (app/settings.py:4) = up to 9 calls"


@retry
def check_signature(payload, header):
    return stripe.Webhook.construct_event(payload, header, "whsec")


@retry
def refund(charge, key):
    return client.refunds.create(params={"charge": charge}, options={"idempotency_key": key})  # expect: RES204 "x StripeClient max_network_retries=3 (app/payments.py:11) = up to 12 calls"


@retry
def customer(customer_id):
    return quiet.customers.retrieve(customer_id)

from openai import OpenAI

DEFAULT = OpenAI(timeout=10)
RAW = OpenAI(timeout=10, max_retries=0)
PATIENT = OpenAI(timeout=10, max_retries=5)


class Assistant:
    def __init__(self, client=None):
        self.client = client or OpenAI(timeout=10)

    def complete(self, prompt):
        response = self.client.chat.completions.create(model="m", messages=[{"role": "user", "content": prompt}])
        return response.choices[0].message.content


def raw_client():
    """For callers that own their retries."""
    return OpenAI(timeout=10, max_retries=0)

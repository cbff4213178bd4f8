import functools

from openai import OpenAI


@functools.lru_cache(maxsize=1)
def llm():
    return OpenAI(max_retries=0, timeout=20)

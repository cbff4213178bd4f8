from shop.db import engine
from shop.llm import llm


def classify(text):
    # a part of the client another module's cached factory makes: a request to the LLM API
    return llm().chat.completions.create(model="small", messages=[{"role": "user", "content": text}])


def tag_products(rows):
    with engine.begin() as conn:
        for product_id, description in rows:
            sector = classify(description)  # expect: RES301 "openai.OpenAI.chat.completions.create"
            conn.execute("UPDATE products SET sector = %s WHERE id = %s", (sector, product_id))

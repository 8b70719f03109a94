"""What the loopback LLM answers when asked for a page's likely questions
(`answers/channels/generated.py`): questions about the page's title, one of them twice in other
case (a model repeats itself) and one that is not a question. Deterministic: a function of the
prompt."""

import re
from typing import Any

_PAGE_TITLE = re.compile(r'<page title="([^"]*)">')


def is_question_call(body: dict[str, Any]) -> bool:
    response_format = body.get("response_format") or {}
    return (response_format.get("json_schema") or {}).get("name") == "generated_questions"


def questions_for(prompt: str) -> dict[str, list[str]]:
    match = _PAGE_TITLE.search(prompt)
    topic = (match.group(1) if match else "this page").lower()
    return {
        "questions": [
            f"How do I use {topic} in a project?",
            f"how do I use {topic} in a project?",
            f"Notes on {topic}",
            f"When should I reach for {topic}?",
        ]
    }

"""Suggested next questions for an answer (the widget shows them under it): one structured
LLM call per answer, kept on the question; none without an LLM."""

import logging

from asgiref.sync import async_to_sync

from openguru.answers.engine.prompts import FOLLOW_UP_SCHEMA, follow_up_messages
from openguru.answers.models import Question
from openguru.answers.services import question_follow_ups_save
from openguru.core.errors import DomainError
from openguru.providers.llm.base import LLM

logger = logging.getLogger(__name__)

MAX_FOLLOW_UPS = 3
MAX_FOLLOW_UP_CHARS = 200


def question_follow_ups(*, question: Question, llm: LLM | None) -> list[str]:
    """Blocking. Made once and kept; a failed call (or no LLM) gives none and keeps nothing,
    so the next request tries again."""
    if question.follow_up_examples is not None:
        return list(question.follow_up_examples)
    if llm is None or not question.content:
        return []
    messages = follow_up_messages(
        guru=question.guru,
        question=question.question,
        answer=question.content,
        count=MAX_FOLLOW_UPS,
    )
    try:
        result = async_to_sync(llm.complete_json)(
            messages, schema=FOLLOW_UP_SCHEMA, name="follow_ups"
        )
    except DomainError as exc:
        logger.warning("follow-up questions failed: %s", exc)
        return []
    examples = _clean(
        result.data.get("questions"), asked=(question.question, question.user_question)
    )
    question_follow_ups_save(question=question, examples=examples)
    return examples


def _clean(raw: object, *, asked: tuple[str, ...]) -> list[str]:
    """Distinct non-empty strings, not the question itself, at most MAX_FOLLOW_UPS."""
    if not isinstance(raw, list):
        return []
    seen = {" ".join(text.split()).lower() for text in asked}
    examples = []
    for item in raw:
        text = " ".join(str(item).split())[:MAX_FOLLOW_UP_CHARS] if isinstance(item, str) else ""
        if text and text.lower() not in seen:
            seen.add(text.lower())
            examples.append(text)
    return examples[:MAX_FOLLOW_UPS]

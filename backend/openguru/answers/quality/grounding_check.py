"""The grounding check of one saved answer (a worker's `question_grounding_task`, or the eval's
own process): its claims against the contexts it read, the result stored once per answer text."""

import logging
from typing import Any

from asgiref.sync import async_to_sync
from django.db import transaction

from openguru.answers.engine.providers import ProvidersFor
from openguru.answers.models import Question
from openguru.answers.quality.grounding import (
    answer_grounding,
    content_digest,
    grounded_trust,
    stored_contexts,
)
from openguru.answers.selectors import question_pages_showing
from openguru.core.site_pages import site_pages_revalidate

logger = logging.getLogger(__name__)


def question_grounding_check(
    *, question_id: int, providers_for: ProvidersFor
) -> dict[str, Any] | None:
    """Blocking (a worker's). Check a saved answer's claims against the contexts it read, store
    the result and lower its trust score for unsupported claims (`grounding.grounded_trust`).
    None when the question is gone."""
    question = Question.objects.select_related("guru").filter(pk=question_id).first()
    if question is None:
        return None
    if question.grounding is not None:  # a redelivered task: the trust score fell once already
        return dict(question.grounding)
    providers = providers_for(question.guru)
    llm = None if question.extractive else providers.llm
    try:
        contexts = stored_contexts(question, providers.store) if llm is not None else []
    except Exception as exc:  # the store is down: the answer stands, unchecked
        logger.warning("question %s: contexts unreadable: %s", question_id, exc)
        contexts = []
    result = async_to_sync(answer_grounding)(content=question.content, contexts=contexts, llm=llm)
    return question_grounding_save(question_id=question_id, result=result)


def question_grounding_save(*, question_id: int, result: dict[str, Any]) -> dict[str, Any] | None:
    """Store a grounding result and the trust score it leads to, once per answer text: an
    answer regenerated meanwhile keeps its own (coming) check."""
    with transaction.atomic():
        question = Question.objects.select_for_update().filter(pk=question_id).first()
        if question is None or content_digest(question.content) != result["content_digest"]:
            return None
        if question.grounding is not None:
            return dict(question.grounding)
        result = result | {"trust_before": question.trust_score}
        question.trust_score = grounded_trust(question.trust_score, result)
        question.grounding = result
        question.save(update_fields=["grounding", "trust_score"])
        site_pages_revalidate(paths=question_pages_showing(question=question))  # its trust score
    return result

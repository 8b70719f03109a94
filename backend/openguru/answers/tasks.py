"""Celery tasks of the answers app: take ids, call the services. The grounding check is sent to
the `light` queue (`services._send_grounding`): one LLM call, after the answer reached its
reader."""

from typing import Any

from celery import shared_task

from openguru.answers.services import question_grounding_check


@shared_task(soft_time_limit=300, time_limit=330)
def question_grounding_task(question_id: int) -> dict[str, Any]:
    """Check a saved answer's claims against its sources (once per answer text)."""
    result = question_grounding_check(question_id=question_id)
    if result is None:
        return {"question_id": question_id, "status": "gone"}
    return {
        "question_id": question_id,
        "status": result["status"],
        "unsupported": result["unsupported"],
        "partly": result["partly"],
    }

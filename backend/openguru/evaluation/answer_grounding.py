"""The grounding check over an `--engine-answers` run: each saved LLM answer's claims checked
against its contexts (`answers/quality/grounding.py`), here in the eval's own process, as a worker
would after the answer (nothing waits for a worker), and the answers flagged counted."""

from typing import Any

from django.conf import settings

from openguru.answers.engine.providers import Providers
from openguru.answers.models import Question
from openguru.answers.quality.grounding_check import question_grounding_check
from openguru.evaluation.concurrency import ordered_map
from openguru.gurus.models import Guru


def guru_answers_ground(*, guru: Guru, workers: int, providers: Providers) -> None:
    """Check the guru's LLM answers that no worker checked yet (none without the check on)."""
    if not settings.ANSWER_GROUNDING:
        return
    unchecked = Question.objects.filter(guru=guru, extractive=False, grounding__isnull=True)
    ids = list(unchecked.values_list("pk", flat=True))

    def check(pk: int) -> None:
        question_grounding_check(question_id=pk, providers_for=lambda _guru: providers)

    ordered_map(check, ids, workers=workers)


def grounding_summary(*, guru: Guru) -> dict[str, Any]:
    """{} when no answer was checked; else how many answers were checked, flagged (at least
    one unsupported claim) and left unchecked, and the claims found unsupported or partly."""
    results = [
        g
        for g in Question.objects.filter(guru=guru).values_list("grounding", flat=True)
        if isinstance(g, dict) and g.get("status") in ("checked", "unchecked")
    ]
    if not results:
        return {}
    checked = [g for g in results if g["status"] == "checked"]
    return {
        "checked": len(checked),
        "flagged": sum(g["unsupported"] > 0 for g in checked),
        "unchecked": len(results) - len(checked),
        "claims": sum(len(g["claims"]) for g in checked),
        "unsupported_claims": sum(g["unsupported"] for g in checked),
        "partly_claims": sum(g["partly"] for g in checked),
    }

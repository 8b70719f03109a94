"""Celery tasks of the evaluation app: take ids, call the services in `golden.py`. They go to
the `light` queue, the default one (a run takes seconds, like the summaries)."""

from celery import shared_task

from openguru.answers.engine.providers import providers_for
from openguru.evaluation.golden import golden_run_execute


@shared_task(soft_time_limit=600, time_limit=660)
def golden_run_task(guru_id: int) -> dict:
    """Measure the guru's golden set (its queued run; nothing when there is none)."""
    run = golden_run_execute(guru_id=guru_id, providers_for=providers_for)
    if run is None:
        return {"guru_id": guru_id, "ran": False}
    return {
        "guru_id": guru_id,
        "ran": True,
        "run_id": run.pk,
        "recall_at_5": run.recall_at_5,
        "refusal_rate": run.refusal_rate,
        "flagged": run.flagged,
    }

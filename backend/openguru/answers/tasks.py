"""Celery tasks of the answers app: take ids, call the services. The grounding check is sent to
the `light` queue (`services._send_grounding`): one LLM call, after the answer reached its
reader. The trust calibration follows every ingestion that changed a guru's chunks."""

from typing import Any

from celery import shared_task

from openguru.answers.channels.generated import source_questions_generate
from openguru.answers.engine.providers import providers_for
from openguru.answers.quality.calibration import guru_trust_calibrate
from openguru.answers.quality.grounding_check import question_grounding_check
from openguru.answers.services import traces_prune
from openguru.gurus.selectors import guru_by_id
from openguru.sources.selectors import source_by_id


@shared_task(soft_time_limit=300, time_limit=330)
def question_grounding_task(question_id: int) -> dict[str, Any]:
    """Check a saved answer's claims against its sources (once per answer text)."""
    result = question_grounding_check(question_id=question_id, providers_for=providers_for)
    if result is None:
        return {"question_id": question_id, "status": "gone"}
    return {
        "question_id": question_id,
        "status": result["status"],
        "unsupported": result["unsupported"],
        "partly": result["partly"],
    }


@shared_task(soft_time_limit=300, time_limit=330)
def guru_calibrate_task(guru_id: int) -> dict[str, Any]:
    """Calibrate a guru's trust threshold from its corpus (a few hundred searches, no LLM)."""
    guru = guru_by_id(guru_id=guru_id)
    if guru is None:
        return {"guru_id": guru_id, "status": "gone"}
    providers = providers_for(guru)
    threshold = guru_trust_calibrate(
        guru=guru, embedder=providers.embedder, store=providers.store, reranker=providers.reranker
    )
    return {"guru_id": guru_id, "status": "calibrated", "threshold": threshold}


@shared_task(soft_time_limit=900, time_limit=960)
def source_questions_generate_task(source_id: int) -> dict[str, Any]:
    """Make and answer the likely questions of a source that was just indexed (with an LLM)."""
    source = source_by_id(source_id=source_id)
    if source is None:
        return {"source_id": source_id, "status": "gone"}
    questions = source_questions_generate(source=source, providers=providers_for(source.guru))
    return {"source_id": source_id, "status": "done", "questions": len(questions)}


@shared_task
def traces_prune_task() -> int:
    """Beat's daily prune of decision traces past the retention setting."""
    return traces_prune()

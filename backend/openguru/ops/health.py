"""Health of every component the platform depends on. Each check returns "ok", "not configured",
or "error: <reason>"; a check never raises."""

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import connection

from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.llm.factory import get_llm
from openguru.providers.vectorstore.factory import get_vector_store

logger = logging.getLogger(__name__)

OK = "ok"
NOT_CONFIGURED = "not configured"


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return OK


def _broker() -> str:
    from celery import current_app as app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=3)
    return OK


def _vector_store() -> str:
    get_vector_store().ping()
    return OK


def _embedder() -> str:
    embedder = get_embedder()
    if len(embedder.embed_query("health")) != embedder.dimension:
        return "error: unexpected embedding size"
    return OK


def _llm() -> str:
    # Built, not called: the readiness check that warms a worker's embedder also imports the
    # LLM's SDK (seconds of CPU), which its first answer would otherwise pay.
    return OK if get_llm() is not None else NOT_CONFIGURED


def _reranker() -> str:
    return OK if settings.RERANK_API_URL else NOT_CONFIGURED


CHECKS: dict[str, Callable[[], str]] = {
    "database": _database,
    "broker": _broker,
    "vector_store": _vector_store,
    "embedder": _embedder,
    "llm": _llm,
    "reranker": _reranker,
}


def health_report() -> dict[str, str]:
    report: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            report[name] = check()
        except Exception as exc:  # a health check reports failures instead of raising them
            logger.warning("health check %s failed: %s", name, exc)
            report[name] = f"error: {type(exc).__name__}"
    return report


def is_healthy(report: dict[str, str]) -> bool:
    return all(value in (OK, NOT_CONFIGURED) for value in report.values())

"""What the deployment runs on: providers and models, fixed by the environment, shown read-only
beside the platform settings."""

from typing import Any

from django.conf import settings

from openguru.providers.llm.base import LLM
from openguru.providers.llm.factory import llm_configured


def _llm_provider() -> str:
    if not llm_configured():
        return "none"
    if settings.LLM_PROVIDER != "auto":
        return str(settings.LLM_PROVIDER)
    # "auto" picks OpenAI-compatible when it is configured, else Gemini (providers/llm/factory).
    return "openai" if settings.OPENAI_API_KEY or settings.OPENAI_BASE_URL else "gemini"


def deployment_providers(*, llm: LLM | None) -> dict[str, Any]:
    """The providers this deployment runs on, as the environment configures them (no secrets)."""
    return {
        "providers": {
            "llm": _llm_provider(),
            "embedding": settings.EMBEDDING_PROVIDER,
            "reranker": "tei" if settings.RERANK_API_URL else "none",
            "vector_store": settings.VECTOR_STORE,
        },
        "llm_model": llm.model if llm is not None else "",
        "embedding_model": settings.EMBEDDING_MODEL,
        "answer_mode": settings.ANSWER_MODE,
    }

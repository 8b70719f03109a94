"""The platform settings row (one per deployment): read it, change it, and what the deployment
runs on (providers and models, fixed by the environment, shown read-only)."""

from typing import Any

from django.conf import settings
from django.db import transaction

from openguru.core.models import PlatformSettings
from openguru.providers.llm.factory import get_llm, llm_configured

# What an admin may change at run time; every other column is bookkeeping.
EDITABLE_FIELDS = (
    "rerank_threshold",
    "trust_score_threshold",
    "trust_score_margin",
    "similar_question_threshold",
    "low_trust_threshold",
    "widget_answer_max_length",
    "answer_cache_enabled",
)


def platform_settings_get() -> PlatformSettings:
    return PlatformSettings.objects.get_or_create(pk=1)[0]


@transaction.atomic
def platform_settings_update(*, data: dict[str, Any]) -> PlatformSettings:
    row = PlatformSettings.objects.select_for_update().get_or_create(pk=1)[0]
    changed = [name for name in EDITABLE_FIELDS if name in data]
    for name in changed:
        setattr(row, name, data[name])
    row.save(update_fields=[*changed, "updated_at"])
    return row


def _llm_provider() -> str:
    if not llm_configured():
        return "none"
    if settings.LLM_PROVIDER != "auto":
        return str(settings.LLM_PROVIDER)
    # "auto" picks OpenAI-compatible when it is configured, else Gemini (providers/llm/factory).
    return "openai" if settings.OPENAI_API_KEY or settings.OPENAI_BASE_URL else "gemini"


def deployment_providers() -> dict[str, Any]:
    """The providers this deployment runs on, as the environment configures them (no secrets)."""
    llm = get_llm()
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

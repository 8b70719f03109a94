"""Choose the LLM from settings. `None` means no LLM: the answer engine answers extractively."""

from functools import lru_cache

from django.conf import settings

from openguru.providers.llm.base import LLM
from openguru.providers.llm.instrumented import InstrumentedLLM

LLM_PROVIDERS = ("auto", "openai", "gemini", "fake", "none")
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
DEFAULT_GEMINI_MODEL = "gemini-2.5-flash"


def _provider_name() -> str:
    name = settings.LLM_PROVIDER
    if name != "auto":
        return name
    if settings.OPENAI_API_KEY or settings.OPENAI_BASE_URL:
        return "openai"
    if settings.GEMINI_API_KEY:
        return "gemini"
    return "none"


def llm_configured() -> bool:
    return _provider_name() != "none"


def _build(name: str, model: str) -> LLM:
    if name == "openai":
        from openguru.providers.llm.openai_compatible import OpenAICompatibleLLM

        return OpenAICompatibleLLM(
            api_key=settings.OPENAI_API_KEY or "not-needed",
            base_url=settings.OPENAI_BASE_URL or None,
            model=model or DEFAULT_OPENAI_MODEL,
            timeout=settings.LLM_TIMEOUT_SECONDS,
            max_retries=settings.LLM_MAX_RETRIES,
        )
    if name == "gemini":
        from openguru.providers.llm.gemini import GeminiLLM

        return GeminiLLM(
            api_key=settings.GEMINI_API_KEY,
            base_url=settings.GEMINI_BASE_URL or None,
            model=model or DEFAULT_GEMINI_MODEL,
            timeout=settings.LLM_TIMEOUT_SECONDS,
        )
    if name == "fake":
        from openguru.providers.llm.fake import FakeLLM

        return FakeLLM(model=model or "fake-llm")
    raise ValueError(f"Unknown LLM_PROVIDER {name!r}")


@lru_cache(maxsize=1)
def get_llm() -> LLM | None:
    name = _provider_name()
    if name == "none":
        return None
    # Each model measured on its own: latency and tokens of the fallback are not the primary's.
    primary = InstrumentedLLM(_build(name, settings.LLM_MODEL))
    if not settings.LLM_FALLBACK_MODEL:
        return primary
    from openguru.providers.llm.fallback import FallbackLLM

    fallback = InstrumentedLLM(_build(name, settings.LLM_FALLBACK_MODEL))
    return FallbackLLM(primary=primary, fallback=fallback)

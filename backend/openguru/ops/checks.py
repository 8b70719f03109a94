"""Startup checks of the settings that are otherwise read only when first used, so a typo in
`.env` (ANSWER_MODE=Fast, RETRIEVAL_FUSION=rff) stops `migrate`/`runserver` with a message
naming the variable instead of surfacing in the first answer, or silently meaning "default"."""

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, register

from openguru.accounts.models import Role
from openguru.answers.engine.fusion import FUSIONS, parse_bm25_weight
from openguru.answers.engine.groundwork import ANSWER_MODES
from openguru.core.client_address import trusted_proxy_networks
from openguru.providers.embeddings.factory import EMBEDDING_PROVIDERS
from openguru.providers.embeddings.local import PRECISIONS, QUERY_BACKENDS
from openguru.providers.llm.factory import LLM_PROVIDERS
from openguru.providers.vectorstore.bm25_analyzers import BM25_ANALYZERS
from openguru.providers.vectorstore.factory import VECTOR_LAYOUTS, VECTOR_STORES

CHOICES: dict[str, Sequence[str]] = {
    "ANSWER_MODE": ANSWER_MODES,
    "RETRIEVAL_FUSION": FUSIONS,
    "LLM_PROVIDER": LLM_PROVIDERS,
    "EMBEDDING_PROVIDER": EMBEDDING_PROVIDERS,
    "EMBEDDING_LOCAL_PRECISION": PRECISIONS,
    "EMBEDDING_LOCAL_QUERY_BACKEND": QUERY_BACKENDS,
    "MILVUS_BM25_ANALYZER": tuple(BM25_ANALYZERS),
    "VECTOR_STORE": VECTOR_STORES,
    "VECTOR_LAYOUT": VECTOR_LAYOUTS,
}
FRACTIONS = ("RETRIEVAL_DENSE_WEIGHT",)  # a share: in [0, 1]
NON_NEGATIVE = (
    "RETRIEVAL_TOP_CODE",
    "LLM_MAX_RETRIES",
    "ASK_RATE_LIMIT_PER_MINUTE",  # 0: no limit
    "ANONYMOUS_ASKS_PER_HOUR",
    "ANONYMOUS_ASKS_PER_DAY",
)
POSITIVE = (
    "RETRIEVAL_CANDIDATES",
    "RETRIEVAL_TOP_TEXT",
    "EMBEDDING_BATCH_SIZE",
    "LLM_TIMEOUT_SECONDS",
)


def _error(name: str, value: Any, expected: str) -> Error:
    return Error(
        f"{name}={value!r} is not valid: expected {expected}.",
        hint=f"Fix {name} in the environment or .env (every variable is in .env.example).",
        id=f"openguru.E_{name}",
    )


def _settings_errors() -> list[CheckMessage]:
    errors: list[CheckMessage] = []
    for name, choices in CHOICES.items():
        value = getattr(settings, name)
        if value not in choices:
            errors.append(_error(name, value, "one of " + " | ".join(choices)))
    for name in FRACTIONS:
        if not 0.0 <= getattr(settings, name) <= 1.0:
            errors.append(_error(name, getattr(settings, name), "a number from 0 to 1"))
    for name in NON_NEGATIVE:
        if getattr(settings, name) < 0:
            errors.append(_error(name, getattr(settings, name), "0 or more"))
    for name in POSITIVE:
        if getattr(settings, name) <= 0:
            errors.append(_error(name, getattr(settings, name), "more than 0"))
    try:
        trusted_proxy_networks(settings.TRUSTED_PROXIES)
    except ValueError:
        errors.append(
            _error("TRUSTED_PROXIES", settings.TRUSTED_PROXIES, "IP addresses or networks")
        )
    try:
        parse_bm25_weight(settings.RETRIEVAL_BM25_WEIGHT)
    except ValueError:
        errors.append(
            _error("RETRIEVAL_BM25_WEIGHT", settings.RETRIEVAL_BM25_WEIGHT, "auto or 0 or more")
        )
    return errors


SSO_ENDPOINTS = ("OIDC_OP_TOKEN_ENDPOINT", "OIDC_OP_USER_ENDPOINT", "OIDC_OP_JWKS_ENDPOINT")


def _sso_errors() -> list[CheckMessage]:
    """Single sign-on half configured, a claim mapped to no role, or nobody able to sign in."""
    errors: list[CheckMessage] = []
    roles = [role.value for role in Role]
    wrong = {value: role for value, role in settings.OIDC_ROLE_MAP.items() if role not in roles}
    if wrong:
        errors.append(_error("OIDC_ROLE_MAP", wrong, "claim=role with roles " + " | ".join(roles)))
    if settings.SSO_ENABLED:
        for name in SSO_ENDPOINTS:
            if not getattr(settings, name):
                errors.append(_error(name, "", "the provider's URL (SSO is configured)"))
    if not settings.PASSWORD_SIGN_IN and not settings.SSO_ENABLED:
        errors.append(_error("PASSWORD_SIGN_IN", False, "true unless single sign-on is set up"))
    return errors


@register()
def settings_check(app_configs: Any, **kwargs: Any) -> list[CheckMessage]:
    return _settings_errors() + _sso_errors()

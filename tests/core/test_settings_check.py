"""A mistyped setting stops startup (`migrate`, `runserver`) with a message naming it."""

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError


def setting_errors() -> list[str]:
    return [message.id for message in run_checks() if message.id.startswith("openguru.")]


def test_the_defaults_pass():
    assert setting_errors() == []


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ANSWER_MODE", "Fast"),
        ("RETRIEVAL_FUSION", "rff"),
        ("LLM_PROVIDER", "openia"),
        ("EMBEDDING_PROVIDER", "sentence-transformers"),
        ("EMBEDDING_LOCAL_PRECISION", "fp16"),
        ("MILVUS_BM25_ANALYZER", "french"),
        ("RETRIEVAL_DENSE_WEIGHT", 1.5),
        ("RETRIEVAL_BM25_WEIGHT", -0.1),
        ("RETRIEVAL_BM25_WEIGHT", "atuo"),
        ("ASK_RATE_LIMIT_PER_MINUTE", -1),
        ("RETRIEVAL_CANDIDATES", 0),
        ("LLM_TIMEOUT_SECONDS", 0.0),
        ("TRUSTED_PROXIES", ["10.0.0.0/8", "nginx"]),
    ],
)
def test_a_bad_value_is_named(settings, name, value):
    setattr(settings, name, value)
    assert setting_errors() == [f"openguru.E_{name}"]


def test_sso_half_set_up_or_nobody_able_to_sign_in_is_named(settings):
    settings.OIDC_ROLE_MAP = {"og-admins": "owner", "staff": "member"}
    assert setting_errors() == ["openguru.E_OIDC_ROLE_MAP"]
    settings.OIDC_ROLE_MAP, settings.PASSWORD_SIGN_IN = {}, False
    assert setting_errors() == ["openguru.E_PASSWORD_SIGN_IN"]
    settings.SSO_ENABLED, settings.OIDC_OP_TOKEN_ENDPOINT = True, "https://id.example.com/token"
    assert setting_errors() == [
        "openguru.E_OIDC_OP_USER_ENDPOINT",
        "openguru.E_OIDC_OP_JWKS_ENDPOINT",
    ]


def test_the_check_command_refuses_to_start(settings):
    settings.ANSWER_MODE = "quick"
    with pytest.raises(SystemCheckError, match=r"ANSWER_MODE='quick'.*default \| fast"):
        call_command("check")

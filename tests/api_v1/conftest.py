"""Fixtures for the public API v1: a key as a user would create it, and the ASGI app served by
uvicorn on loopback (the server `make run` uses)."""

import pytest
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create

from tests.answers.conftest import python_guru  # noqa: F401  (a guru with three indexed pages)
from tests.answers.test_streaming_http import live_asgi  # noqa: F401


@pytest.fixture
def api_key(transactional_db) -> str:
    """A personal key of the first admin, as `POST /api/api-keys/` would hand it out."""
    _, raw = api_key_create(user=admin_token_owner(), name="tests")
    return raw


@pytest.fixture
def key_headers(api_key: str) -> dict[str, str]:
    return {"X-API-KEY": api_key}


@pytest.fixture
def fresh_minute() -> None:
    """Rate limits count per clock minute: a test that needs several requests in one window
    starts early enough in a minute that they cannot straddle two."""
    import time

    into_minute = time.time() % 60
    if into_minute > 45:
        time.sleep(60 - into_minute + 0.1)

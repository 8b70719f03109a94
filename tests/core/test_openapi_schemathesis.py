"""The API does what its OpenAPI document says. schemathesis sends the document's examples and
generated requests to every operation of the app served by uvicorn (the ASGI app of `make run`
and production: the answer streams behave as they do there), and every response must be no
5xx and documented: its status code, its content type and its body (each event of a stream).

Each operation runs as its own test on a fresh guru with indexed pages, an answered question
and its session, a crawl and a spare API key, and the requests name them: path parameters, and
the ids a body carries where the generated one is of the right kind (made-up names would make
nearly every call a 404). So an operation that deletes the guru leaves nothing behind for the
next one.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import schemathesis
from django.test import Client
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from openguru.answers.models import Question
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.integrations.widget.services import widget_id_create
from openguru.sources.models import DataSource
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.answers.conftest import python_guru  # noqa: F401  (a guru with three indexed pages)
from tests.answers.test_answer_engine import IN_SCOPE
from tests.fakes.youtube_data_api import DATA_API_KEY, FakeChannel, FakeEntry, FakeYouTubeDataApi
from tests.live_servers import serve_asgi

pytestmark = pytest.mark.django_db(transaction=True)

CONFIG = SchemathesisConfig.from_dict(
    {
        "seed": 20250101,  # the same requests every run: a failure can be replayed
        "generation": {
            "mode": "all",  # valid requests, and invalid ones that must be refused as documented
            "max-examples": 8,
            "database": "none",
            "with-security-parameters": False,  # the real credentials are sent instead
        },
        "phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}},
    }
)
# The document as /api/schema/ serves it (no database needed): loaded at collection, so each
# operation becomes a test of its own.
SCHEMA = schemathesis.openapi.from_dict(
    Client().get("/api/schema/", HTTP_ACCEPT="application/json").json(), config=CONFIG
)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def live_api() -> Iterator[str]:
    """The ASGI app under uvicorn on loopback, as `make run` serves it."""
    from config.asgi import application

    with serve_asgi(application, proxy_headers=True) as url:
        yield url


@dataclass(frozen=True)
class World:
    headers: dict[str, str]
    path_parameters: dict[str, str]
    body_fields: dict[str, Any]
    widget_headers: dict[str, str]
    query_parameters: dict[str, str]

    def headers_for(self, case: Any) -> dict[str, str]:
        """The widget's endpoints take a widget id in Authorization, from an allowed page."""
        security = case.operation.definition.raw.get("security") or []
        return self.widget_headers if {"WidgetId": []} in security else self.headers

    def name_real_things(self, case: Any) -> None:
        known = {k: v for k, v in self.path_parameters.items() if k in case.path_parameters}
        case.path_parameters = {**case.path_parameters, **known}
        if isinstance(case.query, dict):
            for name, value in self.query_parameters.items():
                if isinstance(case.query.get(name), str):
                    case.query[name] = value
        if isinstance(case.body, dict):
            for field, value in self.body_fields.items():
                if _same_kind(case.body.get(field), value):
                    case.body[field] = value


def _same_kind(generated: Any, real: Any) -> bool:
    if isinstance(real, list):
        return isinstance(generated, list) and all(type(g) is type(real[0]) for g in generated)
    return type(generated) is type(real)


@pytest.fixture
def youtube_listings(settings) -> Iterator[None]:
    """The YouTube Data API the listing examples name (a playlist, a channel): with a key and
    these, the examples are answers, not a 503 for a server without YOUTUBE_API_KEY."""
    entries = [FakeEntry("rfscVS0vtbw", "Learn Python")]
    playlists = {"PLWKjhJtqVAbnqBxcdjVGgT3uVR10bzTEB": entries, "UU8butISFwT-Wl7EV0hUK0BQ": entries}
    channel = FakeChannel("UC8butISFwT-Wl7EV0hUK0BQ", "@freecodecamp", "UU8butISFwT-Wl7EV0hUK0BQ")
    with FakeYouTubeDataApi(playlists, channels=[channel]) as api:
        settings.YOUTUBE_DATA_API_URL, settings.YOUTUBE_API_KEY = api.api_url, DATA_API_KEY
        yield


@pytest.fixture
def world(live_api, python_guru, settings, youtube_listings) -> World:  # noqa: F811
    settings.API_RATE_LIMIT_PER_MINUTE = 0  # hundreds of calls with one key
    # A Slack app for "Add to Slack": its install link is then an answer, not a 503.
    settings.SLACK_CLIENT_ID, settings.SLACK_CLIENT_SECRET = "1234.5678", "client-secret"
    settings.SLACK_SIGNING_SECRET = "signing-secret"
    _, raw = api_key_create(user=admin_token_owner(), name="schemathesis")
    revocable, _ = api_key_create(user=admin_token_owner(), name="to revoke")
    # A staff user's key for /api/v1/, the admin token for the admin endpoints: both always.
    headers = {"X-API-KEY": raw, "Authorization": "Bearer test-admin-token"}
    answer = httpx.post(
        f"{live_api}/api/v1/python/answer/", json={"question": IN_SCOPE}, headers=headers
    )
    assert answer.status_code == 200, answer.text
    session_id = answer.json()["session_id"]
    question = Question.objects.get(guru=python_guru, slug=answer.json()["slug"])
    # Fails at once (the host never resolves) but exists: its status and stop are found.
    crawl = httpx.post(
        f"{live_api}/api/v1/python/crawl/start/",
        json={"url": "https://docs.example.invalid/"},
        headers=headers,
    )
    assert crawl.status_code == 200, crawl.text
    source_ids = list(DataSource.objects.filter(guru=python_guru).values_list("pk", flat=True))
    widget = widget_id_create(guru=python_guru, domain_pattern="https://docs.example.com")
    spare_widget = widget_id_create(guru=python_guru, domain_pattern="*")
    return World(
        headers=headers,
        path_parameters={
            "slug": python_guru.slug,
            "guru_slug": python_guru.slug,
            "source_id": str(source_ids[0]),
            "question_slug": question.slug,
            "binge_id": session_id,
            "session_id": session_id,
            "key_id": str(revocable.pk),
            "crawl_id": str(crawl.json()["id"]),
            "widget_id": str(spare_widget.pk),
        },
        body_fields={
            "ids": source_ids[1:],
            "root_slug": question.slug,
            "id": revocable.pk,
            "question_slug": question.slug,
            "content_slug": question.slug,
        },
        widget_headers={"Authorization": widget.key, "Origin": "https://docs.example.com"},
        query_parameters={"binge": session_id},  # the answer's session (it is the root)
    )


@SCHEMA.parametrize()
@hypothesis_settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_every_response_is_as_documented(case, live_api, world):
    world.name_real_things(case)
    case.call_and_validate(
        base_url=live_api, headers=world.headers_for(case), checks=CHECKS, timeout=60
    )

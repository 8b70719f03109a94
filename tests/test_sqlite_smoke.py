"""The embedded default: the same path a bare `make run` takes, on SQLite."""

import pytest
from django.db import connection

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

DOC = """# Frobnicator

The frobnicator toolkit frobs widgets. Install it with pip install frobnicator.

## Levels

FROB_LEVEL selects the frob strength; the default level is three.
"""


def test_health_guru_source_and_an_extractive_answer_on_sqlite(admin_client, anon_client):
    assert connection.vendor == "sqlite"
    health = anon_client.get("/api/health/").json()
    assert health["status"] == "ok", health

    assert (
        admin_client.post(
            "/api/gurus/", {"slug": "frob", "name": "Frob"}, format="json"
        ).status_code
        == 201
    )
    source = admin_client.post(
        "/api/gurus/frob/sources/",
        {"type": "text", "title": "Guide", "content": DOC},
        format="json",
    ).json()
    assert (
        admin_client.get(f"/api/gurus/frob/sources/{source['id']}/").json()["status"] == "SUCCESS"
    )

    answer = anon_client.post(
        "/api/gurus/frob/answer/",
        {"question": "What is the default frob level?"},
        format="json",
    )
    body = answer.json()
    assert answer.status_code == 200, body
    assert body["refused"] is False
    assert body["extractive"] is True
    assert "three" in body["content"]
    assert body["references"]


def test_the_public_api_with_a_key_on_sqlite(admin_client, anon_client):
    """API keys and sessions read through raw SQL on their hot path: SQLite speaks it too."""
    assert connection.vendor == "sqlite"
    raw = admin_client.post("/api/api-keys/", {"name": "smoke"}, format="json").json()["key"]
    admin_client.post("/api/gurus/", {"slug": "frob", "name": "Frob"}, format="json")
    added = anon_client.post(
        "/api/v1/frob/data-sources/",
        {"text_sources": [{"name": "Guide", "content": DOC}]},
        format="json",
        HTTP_X_API_KEY=raw,
    ).json()
    assert added[0]["status"] == "success", added
    ask = {"question": "What is the default frob level?"}
    sessions = [
        anon_client.post("/api/v1/frob/answer/", ask, format="json", HTTP_X_API_KEY=raw).json()
        for _ in range(2)
    ]
    assert "three" in sessions[0]["content"]
    assert sessions[0]["session_id"] == sessions[1]["session_id"]
    refused = anon_client.post("/api/v1/frob/search/", {"query": "x"}, format="json")
    assert refused.status_code == 401

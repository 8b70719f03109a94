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

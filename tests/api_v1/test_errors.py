"""Bad input to the public API: each a clear JSON error with a stable code, and nothing lost or
added — the database and the guru's index are as they were."""

import json
import logging

import pytest
from django.db import connection
from django.test import Client
from openguru.answers.models import Binge, OutOfContextQuestion, Question
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.integrations.models import APIKey
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

from tests.answers.test_answer_engine import IN_SCOPE, OUT_OF_SCOPE
from tests.sources.ingestion_helpers import guide_pdf

pytestmark = pytest.mark.django_db(transaction=True)


def _state(guru) -> tuple:
    """Everything a bad request could have changed."""
    return (
        list(DataSource.objects.order_by("pk").values_list("pk", "status", "url")),
        Question.objects.count(),
        OutOfContextQuestion.objects.count(),
        Binge.objects.count(),
        APIKey.objects.count(),
        get_vector_store().count(guru.collection_name),
    )


@pytest.fixture
def unchanged(python_guru):
    before = _state(python_guru)
    yield
    assert _state(python_guru) == before


def _post(client: Client, path: str, body: object, key: str | None, **extra) -> dict:
    headers = {"HTTP_X_API_KEY": key} if key is not None else {}
    raw = body if isinstance(body, str | bytes) else json.dumps(body)
    response = client.post(path, raw, content_type="application/json", **headers, **extra)
    return {"status": response.status_code, **response.json()}


@pytest.mark.parametrize("path", ["answer/", "data-sources/", "search/"])
def test_keys_missing_malformed_or_unknown_are_401(api_key, python_guru, unchanged, path):
    client = Client()
    for key in (None, "", "not-a-key", "og_" + "x" * 43, api_key + "x"):
        body = _post(client, f"/api/v1/python/{path}", {"question": IN_SCOPE}, key)
        assert body["status"] == 401, (key, body)
        assert body["code"] == "not_authenticated" and body["msg"]


def test_a_revoked_key_is_refused_on_the_next_request(python_guru):
    client = Client()
    admin = {"HTTP_AUTHORIZATION": "Bearer test-admin-token"}
    created = client.post(
        "/api/api-keys/", {"name": "short-lived"}, content_type="application/json", **admin
    ).json()
    search = {"query": "virtual environment"}
    assert _post(client, "/api/v1/python/search/", search, created["key"])["status"] == 200
    assert client.delete(f"/api/api-keys/{created['id']}/", **admin).status_code == 204
    refused = _post(client, "/api/v1/python/search/", search, created["key"])
    assert (refused["status"], refused["code"]) == (401, "not_authenticated")


def test_unknown_guru_is_404(api_key, python_guru, unchanged):
    for path in ("answer/", "search/"):
        body = _post(Client(), f"/api/v1/nope/{path}", {"question": "x", "query": "x"}, api_key)
        assert (body["status"], body["code"]) == (404, "guru_not_found")


def test_a_20000_character_question_is_400(api_key, python_guru, unchanged):
    body = _post(Client(), "/api/v1/python/answer/", {"question": "why " * 5000}, api_key)
    assert (body["status"], body["code"]) == (400, "invalid_input")
    assert body["msg"].startswith("question:")


@pytest.mark.parametrize(
    ("path", "payload", "code", "field"),
    [
        ("answer/", "{not json", "malformed_json", None),
        ("answer/", {"question": ["a", "list"]}, "invalid_input", "question"),
        ("answer/", {"question": "ok?", "stream": "sometimes"}, "invalid_input", "stream"),
        ("answer/", {"question": "ok?", "session_id": "nope"}, "invalid_input", "session_id"),
        ("data-sources/", "[1, 2", "malformed_json", None),
        ("data-sources/", {"website_urls": "https://a.org"}, "invalid_input", "website_urls"),
        ("data-sources/", {"slack_urls": ["https://a.org"]}, "invalid_input", "slack_urls"),
        ("data-sources/", {"text_sources": [{"name": "x"}]}, "invalid_input", "text_sources"),
        ("data-sources/reindex/", {"ids": ["one"]}, "invalid_input", "ids"),
        ("search/", {"query": 7, "limit": "many"}, "invalid_input", "limit"),
    ],
)
def test_malformed_bodies_are_400_naming_the_field(
    api_key, python_guru, unchanged, path, payload, code, field
):
    body = _post(Client(), f"/api/v1/python/{path}", payload, api_key)
    assert (body["status"], body["code"]) == (400, code), body
    if field:
        assert field in body["msg"]


def test_a_refusal_is_400_in_the_gurus_own_words(api_key, python_guru):
    for stream in (False, True):
        body = _post(
            Client(),
            "/api/v1/python/answer/",
            {"question": OUT_OF_SCOPE, "stream": stream},
            api_key,
        )
        assert (body["status"], body["code"]) == (400, "no_answer")
        assert "don't know" in body["msg"].lower() or "sources" in body["msg"].lower()


def test_uploads_over_the_limit_or_not_pdf_are_refused_whole(
    api_key, python_guru, unchanged, settings
):
    client = Client()
    headers = {"HTTP_X_API_KEY": api_key}
    settings.PDF_MAX_BYTES = 2000
    big = client.post(
        "/api/v1/python/data-sources/", {"pdf_files": _upload("big.pdf", guide_pdf())}, **headers
    )
    assert (big.status_code, big.json()["code"]) == (413, "file_too_large")
    settings.PDF_MAX_BYTES = 50 * 1024 * 1024
    not_pdf = client.post(
        "/api/v1/python/data-sources/",
        {"pdf_files": [_upload("fine.pdf", guide_pdf()), _upload("notes.txt", b"plain text")]},
        **headers,
    )
    assert (not_pdf.status_code, not_pdf.json()["code"]) == (400, "invalid_file")


def _upload(name: str, data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="application/pdf")


def test_a_sixth_personal_key_is_400(python_guru):
    client = Client()
    admin = {"HTTP_AUTHORIZATION": "Bearer test-admin-token"}
    for n in range(5):
        created = client.post(
            "/api/api-keys/", {"name": f"k{n}"}, content_type="application/json", **admin
        )
        assert created.status_code == 201
    sixth = client.post("/api/api-keys/", {"name": "k5"}, content_type="application/json", **admin)
    assert (sixth.status_code, sixth.json()["code"]) == (400, "api_key_limit")
    assert len(client.get("/api/api-keys/", **admin).json()) == 5


def test_a_private_or_loopback_site_is_a_per_item_error(api_key, python_guru, settings):
    settings.CRAWLER_ALLOW_LOOPBACK = False
    before = DataSource.objects.count()
    body = Client().post(
        "/api/v1/python/data-sources/",
        {
            "website_urls": ["http://127.0.0.1:8000/admin/", "http://10.0.0.8/"],
            "text_sources": [{"name": "Fine", "content": "A text source is still added."}],
        },
        content_type="application/json",
        HTTP_X_API_KEY=api_key,
    )
    assert body.status_code == 200
    results = body.json()
    assert [r["status"] for r in results] == ["error", "error", "success"]
    assert "loopback" in results[0]["message"] and "private" in results[1]["message"]
    assert DataSource.objects.count() == before + 1


def test_keys_are_rate_limited_with_retry_after(api_key, python_guru, settings, fresh_minute):
    settings.API_RATE_LIMIT_PER_MINUTE = 2
    client = Client()
    codes = [
        _post(client, "/api/v1/python/search/", {"query": "venv"}, api_key)["status"]
        for _ in range(3)
    ]
    assert codes == [200, 200, 429]
    limited = client.post(
        "/api/v1/python/answer/",
        {"question": IN_SCOPE},
        content_type="application/json",
        HTTP_X_API_KEY=api_key,
    )
    assert limited.status_code == 429
    assert limited.json()["code"] == "rate_limited"
    assert 1 <= int(limited["Retry-After"]) <= 60


def test_a_key_is_never_stored_logged_or_shown_again(python_guru, caplog):
    caplog.set_level(logging.DEBUG)
    client = Client()
    admin = {"HTTP_AUTHORIZATION": "Bearer test-admin-token"}
    raw = client.post(
        "/api/api-keys/", {"name": "secret"}, content_type="application/json", **admin
    ).json()["key"]
    key = {"HTTP_X_API_KEY": raw}
    seen = [
        client.get("/api/api-keys/", **admin).content,
        client.post(
            "/api/v1/python/answer/", {"question": IN_SCOPE}, content_type="application/json", **key
        ).content,
        client.get("/api/v1/python/data-sources/", **key).content,
        client.get("/api/v1/python/sessions/", **key).content,
        _post(client, "/api/v1/python/search/", {"query": "x"}, raw[:-1] + "?").__repr__().encode(),
    ]
    assert all(raw.encode() not in body for body in seen)
    assert raw not in caplog.text
    assert raw not in _every_stored_value()
    assert APIKey.objects.filter(prefix=raw[:10]).exists()  # found by its visible prefix only


def _every_stored_value() -> str:
    """Every row of every table, as text."""
    dump = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{table}"')
            dump.extend(repr(row) for row in cursor.fetchall())
    return "\n".join(dump)


def test_create_api_key_command_prints_a_working_key(python_guru, capsys):
    from django.core.management import call_command

    call_command("create_api_key", "--name", "ci")
    raw = capsys.readouterr().out.strip()
    assert raw.startswith("og_")
    assert _post(Client(), "/api/v1/python/search/", {"query": "venv"}, raw)["status"] == 200


def test_a_key_of_a_non_staff_user_cannot_change_sources(python_guru, django_user_model):
    user = django_user_model.objects.create_user("reader")
    _, raw = api_key_create(user=user, name="read only")
    body = _post(
        Client(), "/api/v1/python/data-sources/", {"website_urls": ["https://a.org/"]}, raw
    )
    assert (body["status"], body["code"]) == (403, "permission_denied")
    assert _post(Client(), "/api/v1/python/search/", {"query": "venv"}, raw)["status"] == 200
    assert admin_token_owner().is_staff

"""Who may reach a public and a private guru, on every operation of the OpenAPI schema: each
row (`privacy_rows.py`) is called by every kind of caller with a real credential, and what
they get must follow from their role alone. An operation without a row fails
`test_every_operation_of_the_schema_has_a_row`."""

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from openguru.core.audit.models import AuditEvent
from openguru.gurus.models import Visibility
from rest_framework.response import Response

from tests.accounts.privacy import (
    ACTORS,
    Stage,
    client_of,
    identity,
    may_manage,
    may_read,
)
from tests.accounts.privacy_rows import ASYNC, NOT_CHANGES, ROWS

SNAPSHOT = Path(__file__).parents[1] / "core" / "openapi_snapshot.json"
DENIED = {401, 403, 404}


def _allowed(kind: str, who: str, stage: Stage) -> bool | None:
    """Whether `who` may; None where the row's answer is checked on its own."""
    if kind == "read":
        return may_read(who, stage.guru)
    if kind == "manage":
        return may_manage(who)
    if kind in ("admin", "admin guru"):
        return who == "admin"
    return None


def _needs_key(door: str, actor: str) -> bool:
    """A door that reads a key refuses a revoked one outright; API v1 wants one."""
    if door == "v1":
        return actor in ("anonymous", "revoked")
    return door == "api" and actor == "revoked"


def _fill(value: Any, stage: Stage) -> Any:
    text = json.dumps(value) if value is not None else None
    if text is None:
        return None
    text = text.replace("{question}", stage.question.slug).replace("{binge}", str(stage.binge.pk))
    return json.loads(text)


def _call(stage: Stage, actor: str, method: str, path: str, body: Any, door: str) -> Response:
    client = client_of(stage, actor)
    if door == "widget":
        client.credentials(HTTP_AUTHORIZATION=stage.widget.key, HTTP_ORIGIN="https://a.example")
    path = _fill(path, stage)
    return getattr(client, method)(path, _fill(body, stage), format="json")


def _assert_allowed(response: Response) -> None:
    status = response.status_code
    assert status < 500 and status not in (401, 403), (status, response.content[:300])
    if status == 404:
        assert response.json()["code"] != "guru_not_found", response.content[:300]


def _assert_denied(response: Response, *, readable: bool) -> None:
    status = response.status_code
    assert status in DENIED, (status, response.content[:300])
    if status == 404:
        assert response.json()["code"] == "guru_not_found"
    if not readable:  # a guru one may not see is not confirmed to exist
        assert status != 403 or response.json()["code"] == "permission_denied"


SYNC_ROWS = [row for row in ROWS if row[1] not in ASYNC]
ASYNC_ROWS = [row for row in ROWS if row[1] in ASYNC]
FIELDS = ("method", "operation", "path", "body", "kind", "door")


def _ids(rows: list[tuple[Any, ...]]) -> list[str]:
    return [f"{method.upper()} {operation}" for method, operation, *_ in rows]


@pytest.mark.parametrize(FIELDS, SYNC_ROWS, ids=_ids(SYNC_ROWS))
def test_who_reaches_a_public_and_a_private_guru(
    stage: Stage, method, operation, path, body, kind, door
):
    _every_caller(stage, method, path, body, kind, door)


@pytest.mark.parametrize(FIELDS, ASYNC_ROWS, ids=_ids(ASYNC_ROWS))
def test_who_may_ask_a_public_and_a_private_guru(
    committed_stage: Stage, method, operation, path, body, kind, door
):
    _every_caller(committed_stage, method, path, body, kind, door)


def _every_caller(stage: Stage, method: str, path: str, body: Any, kind: str, door: str) -> None:
    failures = []
    for actor in ACTORS:  # one stage for all of them: building it costs more than the calls
        cache.clear()  # each caller starts with fresh rate-limit windows
        events = AuditEvent.objects.count()
        response = _call(stage, actor, method, path, body, door)
        try:
            _check(response, actor, kind, door, stage)
            _check_audited(response, method, path, kind, events)
        except AssertionError as failure:
            failures.append(f"{actor}: {failure}")
    assert failures == []


def _check_audited(response: Response, method: str, path: str, kind: str, before: int) -> None:
    """A change a manager or an admin made is in the audit log."""
    changed = method != "get" and 200 <= response.status_code < 300
    if changed and kind in ("manage", "admin", "admin guru") and path not in NOT_CHANGES:
        assert AuditEvent.objects.count() > before, f"{method} {path} left no audit row"


def _check(response: Response, actor: str, kind: str, door: str, stage: Stage) -> None:
    who = identity(actor, door)
    status = response.status_code
    if _needs_key(door, actor) and kind not in ("open", "signed"):
        assert status == 401, response.content[:300]
        return
    allowed = _allowed(kind, who, stage)
    if allowed is True:
        _assert_allowed(response)
    elif allowed is False:
        _assert_denied(response, readable=may_read(who, stage.guru))
        if kind == "read":
            assert status in (401, 404), "a guru one may not read must look missing"
    else:
        _assert_the_rest(response, kind, who, stage)


def _assert_the_rest(response: Response, kind: str, who: str, stage: Stage) -> None:
    status = response.status_code
    public = stage.guru.visibility == Visibility.PUBLIC
    if kind == "list":
        assert status == 200
        assert ("python" in {g["slug"] for g in response.json()}) == may_read(who, stage.guru)
    elif kind == "sitemap":
        assert status == 200
        body = response.json()  # the index names gurus; a page, each answer's guru
        listed = set(body["gurus"]) if isinstance(body, dict) else {q["guru_slug"] for q in body}
        assert ("python" in listed) == public
    elif kind == "widget":
        if public:
            _assert_allowed(response)
        else:
            assert status == 401, response.content[:300]
            assert response.json()["code"] == "widget_token_required"
    elif kind == "signed":
        assert 400 <= status < 500, response.content[:300]  # no signature: never reached
    else:
        assert kind == "open" and status < 500, (status, response.content[:300])


def test_every_operation_of_the_schema_has_a_row():
    schema = json.loads(SNAPSHOT.read_text())
    operations = {
        (method, path)
        for path, item in schema["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }
    in_table = {(method, operation) for method, operation, *_ in ROWS}
    assert operations - in_table == set(), "operations without a row in privacy_rows.ROWS"
    assert in_table - operations == set(), "rows for operations the schema does not have"

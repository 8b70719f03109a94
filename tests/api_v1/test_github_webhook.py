"""/api/v1/<guru>/webhooks/github/: a real git repository served over file://, indexed as a
GITHUB_REPO source, and push events signed the way GitHub signs them."""

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from uuid import uuid4

import pytest
from git import Repo
from openguru.answers.engine.providers import providers_for
from openguru.answers.engine.search import passages_search
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from openguru.sources.services import source_create
from rest_framework.test import APIClient

from tests.gurus.helpers import guru_make
from tests.sources.ingestion_helpers import AUTHOR, make_repo

SECRET = "webhook-secret"
URL = "/api/v1/widgets/webhooks/github/"


@pytest.fixture
def guru(transactional_db: None) -> Guru:
    return guru_make(slug="widgets", name="Widgets", github_webhook_secret=SECRET)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    readme = "# Widgets\n\nSmall dashboard components for savanna rangers.\n"
    return make_repo(tmp_path / "widgets", {"README.md": readme})


@pytest.fixture
def source(guru: Guru, repo: Repo) -> DataSource:
    source = source_create(guru=guru, type="github_repo", url=repo_url(repo))
    source.refresh_from_db()
    assert source.status == DataSource.Status.SUCCESS, source.user_error
    return source


def repo_url(repo: Repo) -> str:
    return Path(repo.working_tree_dir or "").as_uri()


def add_zebra_page(repo: Repo) -> None:
    (Path(repo.working_tree_dir or "") / "zebra.md").write_text(
        "# Zebras\n\nZebra stripes confuse biting flies on the savanna.\n"
    )
    repo.index.add(["zebra.md"])
    repo.index.commit("Zebras", author=AUTHOR, committer=AUTHOR)


def push_payload(url: str, *, branch: str = "trunk") -> dict[str, Any]:
    return {
        "ref": f"refs/heads/{branch}",
        "repository": {
            "full_name": "acme/widgets",
            "html_url": "https://github.com/acme/widgets",
            "clone_url": url.upper() + ".git/",  # compared without case or suffix
            "default_branch": "trunk",
        },
    }


def sign(body: bytes, secret: str = SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def deliver(
    body: bytes | dict[str, Any],
    *,
    event: str = "push",
    signature: str | None = None,
    content_type: str = "application/json",
    delivery: str | None = None,
) -> Any:
    """A delivery as GitHub makes it: each with an id of its own unless `delivery` is given."""
    raw = json.dumps(body).encode() if isinstance(body, dict) else body
    headers = {"HTTP_X_GITHUB_EVENT": event, "HTTP_X_GITHUB_DELIVERY": delivery or str(uuid4())}
    if signature != "":
        headers["HTTP_X_HUB_SIGNATURE_256"] = signature or sign(raw)
    return APIClient().post(URL, raw, content_type=content_type, **headers)


def zebra_found(guru: Guru) -> bool:
    passages = passages_search(
        guru=guru, query="zebra stripes biting flies", limit=5, providers=providers_for(guru)
    )
    return any("Zebra stripes" in passage.text for passage in passages)


def test_a_signed_push_reindexes_the_repository_at_once(
    guru: Guru, repo: Repo, source: DataSource
) -> None:
    chunks_before = source.chunk_count
    add_zebra_page(repo)
    assert not zebra_found(guru)

    response = deliver(push_payload(repo_url(repo)))

    assert response.status_code == 200, response.json()
    assert response.json()["ids"] == [source.pk]
    assert "Re-indexing 1 source" in response.json()["msg"]
    source.refresh_from_db()
    assert source.status == DataSource.Status.SUCCESS, source.user_error
    assert source.reindex_count == 1
    assert source.chunk_count > chunks_before
    assert zebra_found(guru)


def test_a_wrong_or_missing_signature_is_refused_and_reindexes_nothing(
    guru: Guru, repo: Repo, source: DataSource
) -> None:
    add_zebra_page(repo)
    raw = json.dumps(push_payload(repo_url(repo))).encode()

    for signature in (sign(raw, "another-secret"), "", sign(raw + b" ")):
        response = deliver(raw, signature=signature)
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"
        assert response.json()["msg"]

    source.refresh_from_db()
    assert source.reindex_count == 0
    assert not zebra_found(guru)


def test_a_guru_without_a_secret_takes_no_webhooks(transactional_db: None) -> None:
    guru_make(slug="widgets", name="Widgets")

    response = deliver({"zen": "Keep it logically awesome."}, event="ping")

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


def test_ping_answers_pong(guru: Guru) -> None:
    response = deliver({"zen": "Keep it logically awesome.", "hook_id": 1}, event="ping")

    assert response.status_code == 200
    assert response.json()["msg"] == "pong"


def test_a_push_to_another_repository_or_branch_reindexes_nothing(
    guru: Guru, repo: Repo, source: DataSource
) -> None:
    other = push_payload("https://github.com/acme/gadgets")
    other["repository"].update(full_name="acme/gadgets", html_url="https://github.com/acme/gadgets")
    form = urlencode({"payload": json.dumps(other)}).encode()  # GitHub's form content type

    response = deliver(form, content_type="application/x-www-form-urlencoded")

    assert response.status_code == 200, response.json()
    assert response.json()["ids"] == []
    assert "No source of this guru follows acme/gadgets" in response.json()["msg"]

    feature = deliver(push_payload(repo_url(repo), branch="feature/x"))
    assert feature.status_code == 200
    assert feature.json()["ids"] == []
    source.refresh_from_db()
    assert source.reindex_count == 0


def test_other_events_are_ignored(guru: Guru, source: DataSource) -> None:
    response = deliver({"action": "opened"}, event="issues")

    assert response.status_code == 200
    assert response.json()["ids"] == []
    assert "Ignored" in response.json()["msg"]


def test_malformed_json_with_a_valid_signature_is_a_400(guru: Guru) -> None:
    response = deliver(b"{not json")

    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def test_an_unknown_guru_is_a_json_404(transactional_db: None) -> None:
    response = deliver({"zen": "hi"}, event="ping")

    assert response.status_code == 404
    assert response.json()["code"] == "guru_not_found"


def test_the_secret_is_set_through_the_guru_api_and_never_shown(admin_client: APIClient) -> None:
    created = admin_client.post(
        "/api/gurus/",
        {"slug": "widgets", "name": "Widgets", "github_webhook_secret": "first"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert Guru.objects.get(slug="widgets").github_webhook_secret == "first"

    patched = admin_client.patch(
        "/api/gurus/widgets/", {"github_webhook_secret": SECRET}, format="json"
    )

    assert patched.status_code == 200, patched.json()
    for shown in (created.json(), patched.json(), admin_client.get("/api/gurus/widgets/").json()):
        assert "github_webhook_secret" not in shown
        assert SECRET not in json.dumps(shown) and "first" not in json.dumps(shown)
    assert deliver({"zen": "hi"}, event="ping").status_code == 200

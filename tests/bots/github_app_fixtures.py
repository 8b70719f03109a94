"""The GitHub App bot's test setup: an app key pair, the loopback GitHub API, the guru's
GitHub integration, and webhook deliveries in GitHub's documented shapes, signed as GitHub
signs them (X-Hub-Signature-256 of the raw body)."""

import functools
import hashlib
import hmac
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.core.cache import cache
from django.test import Client
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.github_app_services import GitHubAppSetup, github_app_create
from openguru.integrations.models import Integration

from tests.fakes.github_app_server import FakeGitHubApp

APP_ID, SLUG, INSTALLATION = "1234", "python-guru", 42
WEBHOOK_SECRET = "gh-webhook-secret"
REPO = "octo/guide"
DISCUSSION_NODE = "D_kwDOguide1"


@functools.cache
def key_pair() -> tuple[str, str]:
    """(private PEM, public PEM) of the app, made once per run."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


@pytest.fixture
def github_api(settings) -> Iterator[FakeGitHubApp]:
    cache.clear()  # installation tokens another test's stand-in minted
    with FakeGitHubApp(
        app_id=APP_ID, slug=SLUG, public_key=key_pair()[1], installation_id=INSTALLATION
    ) as server:
        settings.GITHUB_API_URL = server.url
        yield server


@pytest.fixture
def github_bot(python_guru: Guru, github_api: FakeGitHubApp) -> Integration:
    return github_app_create(
        guru=python_guru,
        setup=GitHubAppSetup(
            installation_id=str(INSTALLATION),
            app_id=APP_ID,
            private_key=key_pair()[0],
            webhook_secret=WEBHOOK_SECRET,
        ),
        owner=admin_token_owner(),
    )


def _user(login: str, kind: str = "User") -> dict[str, Any]:
    return {"login": login, "id": abs(hash(login)) % 10_000_000, "node_id": f"U_{login}",
            "type": kind, "site_admin": False, "html_url": f"https://github.com/{login}"}  # fmt: skip


def _repository() -> dict[str, Any]:
    owner, name = REPO.split("/")
    return {"id": 1, "node_id": "R_kgDOguide", "name": name, "full_name": REPO, "private": False,
            "owner": _user(owner, "Organization"), "html_url": f"https://github.com/{REPO}",
            "default_branch": "main"}  # fmt: skip


def _envelope(action: str, sender: str, **parts: Any) -> dict[str, Any]:
    return {"action": action, **parts, "repository": _repository(), "sender": _user(sender),
            "installation": {"id": INSTALLATION, "node_id": "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI="}}  # fmt: skip


def issue(number: int, title: str, body: str = "", labels: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "id": 9000 + number, "node_id": f"I_kwDO{number}", "number": number, "title": title,
        "body": body, "user": _user("alice"), "state": "open", "locked": False, "comments": 0,
        "labels": [{"id": i, "name": name, "color": "ededed"} for i, name in enumerate(labels)],
        "html_url": f"https://github.com/{REPO}/issues/{number}", "author_association": "NONE",
        "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
    }  # fmt: skip


def issue_opened(number: int, title: str, body: str = "", **kw: Any) -> dict[str, Any]:
    return _envelope("opened", "alice", issue=issue(number, title, body, **kw))


def issue_comment(
    number: int, body: str, *, sender: str = "alice", kind: str = "User"
) -> dict[str, Any]:
    comment = {"id": 7000 + number, "node_id": f"IC_kw{number}", "body": body,
               "user": _user(sender, kind), "author_association": "NONE",
               "html_url": f"https://github.com/{REPO}/issues/{number}#issuecomment-{7000 + number}",
               "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"}  # fmt: skip
    payload = _envelope(
        "created", sender, issue=issue(number, "Installing packages"), comment=comment
    )
    payload["sender"] = _user(sender, kind)
    return payload


def discussion_comment(body: str, *, parent_id: int | None = None) -> dict[str, Any]:
    discussion = {"id": 501, "node_id": DISCUSSION_NODE, "number": 1, "title": "Environments",
                  "body": "", "user": _user("bob"), "state": "open", "category": {"name": "Q&A", "is_answerable": True},
                  "html_url": f"https://github.com/{REPO}/discussions/1", "answer_html_url": None}  # fmt: skip
    comment = {"id": 601, "node_id": "DC_kwDOc601", "body": body, "parent_id": parent_id,
               "child_comment_count": 0, "user": _user("bob"), "discussion_id": 501,
               "html_url": f"https://github.com/{REPO}/discussions/1#discussioncomment-601"}  # fmt: skip
    return _envelope("created", "bob", discussion=discussion, comment=comment)


def signature(body: bytes, secret: str = WEBHOOK_SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def deliver(
    event: str,
    payload: dict[str, Any],
    *,
    delivery: str = "",
    headers: dict[str, str] | None = None,
) -> Any:
    """POST to the app's webhook as GitHub does (Celery is eager: the task runs in the call)."""
    body = json.dumps(payload).encode()
    sent = {
        "HTTP_X_GITHUB_EVENT": event,
        "HTTP_X_GITHUB_DELIVERY": delivery or str(uuid.uuid4()),
        "HTTP_X_GITHUB_HOOK_ID": "1",
        "HTTP_X_HUB_SIGNATURE_256": signature(body),
        **(headers or {}),
    }
    return Client().post(
        "/api/github/app/webhook/", data=body, content_type="application/json", **sent
    )


def discussion_answered(answer: str) -> dict[str, Any]:
    """`discussion` `answered`: a maintainer marked `answer` as the discussion's answer."""
    payload = discussion_comment(answer)
    payload["action"] = "answered"
    payload["answer"] = payload.pop("comment")
    payload["discussion"]["body"] = "Which tool makes one?"
    payload["discussion"]["answer_html_url"] = payload["answer"]["html_url"]
    return payload


def discussion_opened(body: str) -> dict[str, Any]:
    """`discussion` `created`: a new discussion whose body is `body`."""
    payload = discussion_comment("")
    del payload["comment"]
    payload["discussion"]["body"] = body
    return payload

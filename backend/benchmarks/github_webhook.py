"""The GitHub App webhook's acknowledgement latency, measured in the slack section (the same
gunicorn, broker and worker): `deliveries` signed `issue_comment` deliveries mentioning the
bot, sent at once to `/api/github/app/webhook/` of a running API server. GitHub gives up on a
delivery after 10 s; the answers themselves are the worker's, as for Slack."""

import asyncio
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.test import override_settings
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.github_app_services import GitHubAppSetup, github_app_create
from openguru.integrations.bots.services import integration_delete
from openguru.integrations.models import Integration

from benchmarks.stats import p50_p95, rounded

if TYPE_CHECKING:
    from tests.fakes.github_app_server import FakeGitHubApp

ACK_DEADLINE_MS = 10_000.0  # GitHub's
APP_ID, SLUG, INSTALLATION, REPO = "4242", "bench-guru", 4242, "bench/guide"
WEBHOOK_SECRET = "bench-github-webhook-secret"  # noqa: S105  (a bench fixture)


def _private_key() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return private, public.decode()


@contextmanager
def github_stand_in() -> Iterator[tuple["FakeGitHubApp", str]]:
    """The loopback GitHub API the app calls, and the app's private key."""
    from tests.fakes.github_app_server import FakeGitHubApp

    private, public = _private_key()
    with FakeGitHubApp(
        app_id=APP_ID, slug=SLUG, public_key=public, installation_id=INSTALLATION
    ) as server:
        server.repositories = [REPO]
        yield server, private


def _delivery(question: str, number: int) -> tuple[bytes, dict[str, str]]:
    user = {"login": "asker", "id": 7, "type": "User"}
    payload = {
        "action": "created",
        "issue": {"number": number, "node_id": f"I_{number}", "title": question, "body": ""},
        "comment": {
            "id": number,
            "node_id": f"IC_{number}",
            "body": f"@{SLUG} {question}",
            "user": user,
        },
        "repository": {"full_name": REPO, "name": REPO.split("/")[1]},
        "sender": user,
        "installation": {"id": INSTALLATION},
    }
    body = json.dumps(payload).encode()
    digest = hmac.new(WEBHOOK_SECRET.encode(), body, hashlib.sha256).hexdigest()
    return body, {
        "Content-Type": "application/json",
        "X-GitHub-Event": "issue_comment",
        "X-GitHub-Delivery": str(uuid.uuid4()),
        "X-Hub-Signature-256": f"sha256={digest}",
    }


async def _send_all(url: str, deliveries: list[tuple[bytes, dict[str, str]]]) -> list[float]:
    async def send(client: httpx.AsyncClient, body: bytes, headers: dict[str, str]) -> float:
        start = time.monotonic()
        response = await client.post(url, content=body, headers=headers)
        response.raise_for_status()
        return (time.monotonic() - start) * 1000

    limits = httpx.Limits(max_connections=len(deliveries))
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        return list(await asyncio.gather(*(send(client, b, h) for b, h in deliveries)))


def github_webhook_ack(
    *, origin: str, guru: Guru, github: "FakeGitHubApp", private_key: str, questions: list[str]
) -> dict[str, Any]:
    """Acknowledgement p50/p95/max of one delivery per question, all sent at once to the API
    server at `origin` (whose GITHUB_API_URL is `github`'s)."""
    stale = Integration.objects.filter(type=Integration.Type.GITHUB, external_id=str(INSTALLATION))
    for left in stale:  # a run stopped half-way leaves its integration behind
        integration_delete(integration=left)
    with override_settings(GITHUB_API_URL=github.url):  # setting up asks GitHub for the app
        integration = github_app_create(
            guru=guru,
            setup=GitHubAppSetup(
                installation_id=str(INSTALLATION),
                app_id=APP_ID,
                private_key=private_key,
                webhook_secret=WEBHOOK_SECRET,
            ),
            owner=admin_token_owner(),
        )
    try:
        deliveries = [_delivery(q, n) for n, q in enumerate(questions, start=1)]
        acks = asyncio.run(_send_all(f"{origin}/api/github/app/webhook/", deliveries))
    finally:
        integration_delete(integration=integration)
    p50, p95 = p50_p95(acks)
    return {
        "deliveries": len(acks),
        "ack": {"p50_ms": p50, "p95_ms": p95, "max_ms": rounded(max(acks, default=0.0))},
        "ack_deadline_ms": ACK_DEADLINE_MS,
        "every_ack_under_deadline": all(ms < ACK_DEADLINE_MS for ms in acks),
    }

"""GitHub push webhooks: a signed push re-indexes the guru's sources that follow that repository.

GitHub signs the raw body with the secret set on the webhook (`X-Hub-Signature-256:
sha256=<hex>` of HMAC-SHA256); the guru keeps the same secret. Nothing in the body is read
before the signature checks out. A signature carries no time, so a captured request stays
valid: each push is taken once, by its `X-GitHub-Delivery` id, and a replay (or GitHub's own
redelivery) is acknowledged without re-indexing again.
"""

import hashlib
import hmac
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs

from django.db import IntegrityError, transaction
from django.utils import timezone

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.json_body import json_loads_bounded
from openguru.gurus.models import Guru
from openguru.gurus.selectors import guru_get
from openguru.sources.loaders.github import REPO_STATE_KEY
from openguru.sources.models import DataSource, GitHubDelivery
from openguru.sources.services import source_reindex

SIGNATURE_PREFIX = "sha256="
# How long a delivery id is remembered; a replay of an older push re-indexes once more, which
# costs a re-index and nothing else.
GITHUB_DELIVERY_MEMORY = timedelta(days=365)
# Every address GitHub gives for a repository; a source may have been added with any of them.
_REPO_URL_FIELDS = ("html_url", "clone_url", "ssh_url", "git_url", "svn_url", "url")


@dataclass(frozen=True)
class WebhookOutcome:
    msg: str
    ids: list[int] = field(default_factory=list)


def github_webhook_receive(
    *, guru_slug: str, event: str, delivery: str, signature: str, body: bytes, content_type: str
) -> WebhookOutcome:
    guru = guru_get(slug=guru_slug)
    github_signature_check(secret=guru.github_webhook_secret, body=body, signature=signature)
    if event == "ping":
        return WebhookOutcome("pong")
    if event != "push":
        return WebhookOutcome(f"Ignored the {event or 'unnamed'!r} event: only pushes re-index.")
    payload = _payload(body, content_type)
    with transaction.atomic():  # a push that fails is not taken: its redelivery may succeed
        if not github_delivery_take(guru=guru, delivery=delivery):
            return WebhookOutcome(f"Delivery {delivery} was taken before; nothing to do.")
        return github_push_reindex(guru=guru, payload=payload)


def github_delivery_take(*, guru: Guru, delivery: str) -> bool:
    """Record a delivery id; False when it was taken before (a replay, a redelivery)."""
    delivery = delivery.strip()
    if not delivery or len(delivery) > 100:
        raise DomainError(ErrorCode.INVALID_INPUT, "Send the delivery's id in X-GitHub-Delivery.")
    GitHubDelivery.objects.filter(created_at__lt=timezone.now() - GITHUB_DELIVERY_MEMORY).delete()
    try:
        with transaction.atomic():
            GitHubDelivery.objects.create(guru=guru, delivery_id=delivery)
    except IntegrityError:
        return False
    return True


def github_signature_check(*, secret: str, body: bytes, signature: str) -> None:
    if not secret:
        raise DomainError(
            ErrorCode.PERMISSION_DENIED, "This guru has no GitHub webhook secret set."
        )
    expected = SIGNATURE_PREFIX + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode(), signature.strip().encode()):
        raise DomainError(
            ErrorCode.NOT_AUTHENTICATED, "The X-Hub-Signature-256 signature does not match."
        )


def github_push_reindex(*, guru: Guru, payload: dict[str, Any]) -> WebhookOutcome:
    repository = payload.get("repository")
    if not isinstance(repository, dict):
        raise DomainError(ErrorCode.INVALID_INPUT, "The push has no repository.")
    name = str(repository.get("full_name") or repository.get("html_url") or "the repository")
    pushed = {repo_url_key(str(repository[key])) for key in _REPO_URL_FIELDS if repository.get(key)}
    sources = [
        source
        for source in DataSource.objects.filter(guru=guru, type=DataSource.Type.GITHUB_REPO)
        if repo_url_key(source.url) in pushed
    ]
    if not sources:
        return WebhookOutcome(f"No source of this guru follows {name}.")
    branch = _pushed_branch(payload)
    if branch == "":
        return WebhookOutcome(f"Ignored a push of a tag to {name}: sources follow branches.")
    default = str(repository.get("default_branch") or "")
    followed = [s for s in sources if branch is None or _source_branch(s, default) in ("", branch)]
    if not followed:
        return WebhookOutcome(f"No source of this guru follows the branch {branch} of {name}.")
    for source in followed:
        source_reindex(source=source)
    return WebhookOutcome(
        f"Re-indexing {len(followed)} source(s) of {name}.", [s.pk for s in followed]
    )


def repo_url_key(url: str) -> str:
    """`https://github.com/Owner/Repo.git/` and `https://github.com/owner/repo` are one repo."""
    key = url.strip().lower().rstrip("/")
    return key.removesuffix(".git").rstrip("/")


def _pushed_branch(payload: dict[str, Any]) -> str | None:
    """The branch a push moved; "" for a tag; None when the push does not say."""
    ref = payload.get("ref")
    if not isinstance(ref, str):
        return None
    return ref.removeprefix("refs/heads/") if ref.startswith("refs/heads/") else ""


def _source_branch(source: DataSource, default: str) -> str:
    """The branch the source indexes: chosen in its options, else the one its last run found
    the repository's HEAD on, else (never indexed yet) the repository's default branch."""
    chosen = str(source.options.get("branch") or "")
    indexed = source.fetch_state.get(REPO_STATE_KEY) or {}
    return chosen or str(indexed.get("branch") or "") or default


def _payload(body: bytes, content_type: str) -> dict[str, Any]:
    """The push event, sent as JSON or (a webhook setting) as a form field named payload."""
    text = body.decode("utf-8", errors="replace")
    if content_type.split(";", 1)[0].strip().lower() == "application/x-www-form-urlencoded":
        text = (parse_qs(text).get("payload") or [""])[0]
    try:
        payload = json_loads_bounded(text)
    except ValueError as exc:  # not JSON, or nested too deeply
        raise DomainError(ErrorCode.MALFORMED_JSON, "The webhook body is not valid JSON.") from exc
    if not isinstance(payload, dict):
        raise DomainError(ErrorCode.MALFORMED_JSON, "The webhook body must be a JSON object.")
    return payload

"""The GitHub App's webhooks: which integration a signed delivery is for, and which deliveries
to answer. A delivery is acknowledged at once (GitHub waits 10 seconds) and answered by a
Celery task; each delivery id is taken once, so a redelivery or a replay does nothing.

GitHub signs the raw body with the app's webhook secret: `X-Hub-Signature-256: sha256=<hex>`
of HMAC-SHA256. A body is read for its installation id only, to find whose secret to try."""

import hashlib
import hmac
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from openguru.integrations.bots.github_app_faq import github_faq_add, github_faq_wanted
from openguru.integrations.bots.github_app_routing import github_delivery_ask
from openguru.integrations.bots.github_app_tasks import github_delivery_send
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import GitHubAppDelivery, Integration

# GitHub keeps redelivering for days at most; a month of delivery ids covers it.
DELIVERY_MEMORY = timedelta(days=30)


def github_integration_verified(
    *, payload: dict[str, Any], body: bytes, signature: str
) -> Integration | None:
    """The GitHub integration whose webhook secret signed `body`, or None. Several gurus may
    each have the app installed on one account: the secret that verifies names the integration."""
    installation = payload.get("installation")
    found = Integration.objects.filter(type=Integration.Type.GITHUB, guru__active=True)
    if isinstance(installation, dict):
        found = found.filter(external_id=str(installation.get("id", "")))
    given = signature.strip().encode()
    for integration in found.select_related("guru", "github_app"):
        secret = secret_decrypt(integration.signing_secret).encode()
        expected = b"sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest().encode()
        if secret and hmac.compare_digest(expected, given):
            return integration
    return None


def github_delivery_take(
    *, integration: Integration, delivery_id: str, event: str, payload: dict[str, Any]
) -> GitHubAppDelivery | None:
    """Record a delivery for answering; None when it was taken before (a redelivery, a replay)."""
    GitHubAppDelivery.objects.filter(created_at__lt=timezone.now() - DELIVERY_MEMORY).delete()
    try:
        with transaction.atomic():
            return GitHubAppDelivery.objects.create(
                integration=integration, delivery_id=delivery_id, event=event, payload=payload
            )
    except IntegrityError:
        return None


def github_delivery_accept(
    *, integration: Integration, delivery_id: str, event: str, payload: dict[str, Any]
) -> bool:
    """Take a delivery for answering unless it asks nothing or was taken before. True when a
    task will answer it. An accepted discussion answer becomes an FAQ entry here and now."""
    app = getattr(integration, "github_app", None)
    if app is None:
        return False
    if github_faq_wanted(app=app, event=event, payload=payload):
        with transaction.atomic():
            taken = github_delivery_take(
                integration=integration, delivery_id=delivery_id, event=event, payload=payload
            )
            if taken is not None:  # done here: nothing for a task or the sweep to send
                source = github_faq_add(integration=integration, payload=payload)
                taken.reply_id = f"faq:{source.pk}" if source else "faq"
                taken.sent_at = timezone.now()
                taken.save(update_fields=["reply_id", "sent_at", "updated_at"])
        return False
    if github_delivery_ask(app=app, event=event, payload=payload) is None:
        return False
    taken = github_delivery_take(
        integration=integration, delivery_id=delivery_id, event=event, payload=payload
    )
    if taken is None:
        return False
    # With the broker down GitHub still gets its quick acknowledgement: the delivery stays
    # unsent and beat's sweep sends it once the broker is back.
    transaction.on_commit(partial(github_delivery_send, delivery_pk=taken.pk))
    return True

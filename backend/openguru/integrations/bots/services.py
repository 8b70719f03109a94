"""Slack and Discord integrations of a guru: setup (tokens encrypted), the threads their
answers live in, and the Slack events taken for answering."""

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from openguru.answers.models import Binge
from openguru.core.audit.services import audit_fields, audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import api_key_create
from openguru.integrations.crypto import secret_encrypt
from openguru.integrations.models import Integration, SlackEvent, Thread

# Slack retries an event for about an hour; a day of event ids covers retries and replays.
SLACK_EVENT_MEMORY = timedelta(days=1)


@dataclass(frozen=True)
class IntegrationSetup:
    """What an admin may set; None leaves a field as it is (PATCH)."""

    external_id: str | None = None
    workspace_name: str | None = None
    bot_token: str | None = None
    signing_secret: str | None = None
    channels: list[dict[str, Any]] | None = None
    dms_enabled: bool | None = None
    tenant_id: str | None = None  # Teams


# What the audit log keeps of an integration; the token and secret only as set or not.
AUDITED_FIELDS = [
    "external_id", "workspace_name", "access_token", "signing_secret", "channels", "dms_enabled",
    "tenant_id",
]  # fmt: skip


def _audit(
    action: str,
    integration: Integration,
    *,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    label = f"{integration.type.lower()} {integration.workspace_name or integration.external_id}"
    guru = integration.guru
    audit_record(
        action=action, target=integration, target_label=label, guru=guru, before=before, after=after
    )


def _apply(integration: Integration, setup: IntegrationSetup) -> None:
    if setup.external_id is not None:
        integration.external_id = setup.external_id
    if setup.workspace_name is not None:
        integration.workspace_name = setup.workspace_name
    if setup.bot_token is not None:
        integration.access_token = secret_encrypt(setup.bot_token)
    if setup.signing_secret is not None:
        integration.signing_secret = secret_encrypt(setup.signing_secret)
    if setup.channels is not None:
        integration.channels = setup.channels
    if setup.dms_enabled is not None:
        integration.dms_enabled = setup.dms_enabled
    if setup.tenant_id is not None:
        integration.tenant_id = setup.tenant_id


def _save(integration: Integration) -> None:
    if integration.type == Integration.Type.SLACK and not integration.signing_secret:
        raise DomainError(ErrorCode.INVALID_INPUT, "signing_secret: Slack needs a signing secret.")
    if integration.type == Integration.Type.TEAMS and not integration.access_token:
        raise DomainError(ErrorCode.INVALID_INPUT, "bot_token: Teams needs the app's secret.")
    try:
        with transaction.atomic():
            integration.save()
    except IntegrityError as exc:
        raise DomainError(
            ErrorCode.CONFLICT,
            f"This guru has a {integration.type.lower()} integration for "
            f"'{integration.external_id}' already.",
        ) from exc


def integration_create(
    *, guru: Guru, type: str, setup: IntegrationSetup, owner: User
) -> Integration:
    """A new integration with its own integration API key (not among the owner's keys)."""
    integration = Integration(guru=guru, type=type)
    _apply(integration, setup)
    with transaction.atomic():
        key, _ = api_key_create(
            user=owner, name=f"{type.lower()} {integration.external_id}", integration=True
        )
        integration.api_key = key
        _save(integration)
        _audit("integration.create", integration, after=audit_fields(integration, AUDITED_FIELDS))
    return integration


def integration_update(*, integration: Integration, setup: IntegrationSetup) -> Integration:
    before = audit_fields(integration, AUDITED_FIELDS)
    _apply(integration, setup)
    _save(integration)
    after = audit_fields(integration, AUDITED_FIELDS)
    _audit("integration.update", integration, before=before, after=after)
    return integration


def integration_delete(*, integration: Integration) -> None:
    with transaction.atomic():
        _audit("integration.delete", integration, before=audit_fields(integration, AUDITED_FIELDS))
        if integration.api_key is not None:
            integration.api_key.delete()
        integration.delete()


def thread_binge_set(
    *, integration: Integration, channel_id: str, thread_id: str, binge: Binge
) -> None:
    """Map a bot thread to the binge its answers continue (the first mapping stays)."""
    Thread.objects.get_or_create(
        integration=integration,
        channel_id=channel_id,
        thread_id=thread_id,
        defaults={"binge": binge},
    )


def slack_event_take(
    *, integration: Integration, event_id: str, event: dict[str, Any], bot_user_id: str
) -> SlackEvent | None:
    """Record an event for answering; None when it was taken before (a retry or a replay)."""
    SlackEvent.objects.filter(created_at__lt=timezone.now() - SLACK_EVENT_MEMORY).delete()
    try:
        with transaction.atomic():
            return SlackEvent.objects.create(
                integration=integration, event_id=event_id, event=event, bot_user_id=bot_user_id
            )
    except IntegrityError:
        return None

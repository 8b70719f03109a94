"""Microsoft Teams' activities: which integration a signed activity is for, and taking a
message for answering. Activities are acknowledged at once; the answer is written by a Celery
task (the Bot Connector waits only seconds and sends again otherwise)."""

import hashlib
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from openguru.integrations.bots.teams_auth import (
    TeamsTokenInvalid,
    teams_token_audience,
    teams_token_verify,
)
from openguru.integrations.bots.teams_routing import TeamsRoute, teams_field, teams_route
from openguru.integrations.bots.teams_tasks import teams_activity_send
from openguru.integrations.models import Integration, TeamsActivity

# The Connector sends an activity again within minutes; a day of ids covers that and replays.
ACTIVITY_MEMORY = timedelta(days=1)


def teams_integration_verified(*, authorization: str, activity: dict[str, Any]) -> Integration:
    """The Teams integration whose app the activity's token is for, once the token checks out
    for it; `TeamsTokenInvalid` otherwise."""
    token, app_id = teams_token_audience(authorization)
    integration = (
        Integration.objects.filter(
            type=Integration.Type.TEAMS, external_id=app_id, guru__active=True
        )
        .select_related("guru")
        .order_by("pk")
        .first()
    )
    if integration is None:
        raise TeamsTokenInvalid("no Teams bot here has this app id")
    teams_token_verify(
        token=token,
        app_id=app_id,
        channel_id=str(activity.get("channelId") or ""),
        service_url=str(activity.get("serviceUrl") or ""),
    )
    return integration


def _activity_key(integration: Integration, activity: dict[str, Any]) -> str:
    conversation, message = teams_field(activity, "conversation", "id"), teams_field(activity, "id")
    seen = f"{integration.pk}\n{conversation}\n{message}"
    return hashlib.sha256(seen.encode()).hexdigest()


def teams_activity_accept(*, integration: Integration, activity: dict[str, Any]) -> bool:
    """Take a message for answering unless it is to be ignored or was taken before (the
    Connector sends an activity again when it had no answer in time). True when a task will
    handle it."""
    if not teams_field(activity, "id") or not teams_field(activity, "conversation", "id"):
        return False
    if teams_route(integration=integration, activity=activity) == TeamsRoute.IGNORE:
        return False
    TeamsActivity.objects.filter(created_at__lt=timezone.now() - ACTIVITY_MEMORY).delete()
    try:
        with transaction.atomic():
            taken = TeamsActivity.objects.create(
                integration=integration,
                activity_id=_activity_key(integration, activity),
                activity=activity,
            )
    except IntegrityError:
        return False
    # With the broker down the activity stays unsent and beat's sweep sends it later: the
    # Connector still gets its quick acknowledgement.
    transaction.on_commit(partial(teams_activity_send, teams_activity_id=taken.pk))
    return True

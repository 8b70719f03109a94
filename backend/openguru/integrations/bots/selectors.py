from django.db.models import QuerySet

from openguru.answers.models import Binge
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.integrations.models import Integration, SlackEvent, Thread


def integration_list(*, guru: Guru) -> QuerySet[Integration]:
    return Integration.objects.filter(guru=guru).select_related("api_key").order_by("pk")


def integration_get(*, guru: Guru, integration_id: int) -> Integration:
    integration = integration_list(guru=guru).filter(pk=integration_id).first()
    if integration is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"This guru has no integration {integration_id}.")
    return integration


def slack_integrations_for_team(*, team_id: str) -> list[Integration]:
    """The Slack integrations an event from workspace `team_id` may be for (one per guru set
    up there); an event without a team (Slack's URL check) may be for any of them."""
    found = Integration.objects.filter(type=Integration.Type.SLACK, guru__active=True)
    if team_id:
        found = found.filter(external_id=team_id)
    return list(found.select_related("guru"))


def thread_binge(*, integration: Integration, channel_id: str, thread_id: str) -> Binge | None:
    thread = (
        Thread.objects.select_related("binge__root_question")
        .filter(integration=integration, channel_id=channel_id, thread_id=thread_id)
        .first()
    )
    return thread.binge if thread else None


def discord_integration_get(*, integration_id: int) -> Integration | None:
    """A Discord integration as it is now (its channels may have changed since the listener
    started), with its guru; None once deleted."""
    return (
        Integration.objects.select_related("guru")
        .filter(pk=integration_id, type=Integration.Type.DISCORD, guru__active=True)
        .first()
    )


def discord_integrations_to_run(*, integration_id: int | None = None) -> list[Integration]:
    found = Integration.objects.filter(type=Integration.Type.DISCORD).exclude(access_token="")
    if integration_id is not None:
        found = found.filter(pk=integration_id)
    return list(found.order_by("pk"))


def thread_known(*, integration: Integration, channel_id: str, thread_id: str) -> bool:
    return Thread.objects.filter(
        integration=integration, channel_id=channel_id, thread_id=thread_id
    ).exists()


def slack_events_unsent(*, limit: int = 500) -> list[int]:
    """Taken Slack events whose task never reached the broker (it was down), oldest first."""
    unsent = SlackEvent.objects.filter(sent_at__isnull=True).order_by("created_at")
    return list(unsent.values_list("pk", flat=True)[:limit])

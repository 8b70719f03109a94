"""The Teams bot's Celery tasks (light queue), and the one way a taken activity reaches its
task. Registered under the names of `integrations/tasks.py`, the module Celery discovers."""

import logging

from celery import shared_task
from django.utils import timezone
from kombu.exceptions import OperationalError

from openguru.integrations.models import TeamsActivity

logger = logging.getLogger(__name__)


@shared_task(
    name="openguru.integrations.tasks.teams_activity_task",
    soft_time_limit=300,
    time_limit=330,
    ignore_result=True,
)
def teams_activity_task(teams_activity_id: int) -> None:
    from openguru.integrations.bots.teams_answers import teams_activity_answer

    teams_activity_answer(teams_activity_id=teams_activity_id)


def teams_activity_send(*, teams_activity_id: int) -> bool:
    """Hand a taken activity's task to the broker, once (whoever marks it sent first sends
    it: the messages endpoint, else beat's sweep). A broker that is down undoes the mark, and
    the sweep tries again. True when sent now."""
    taken = TeamsActivity.objects.filter(pk=teams_activity_id)
    if taken.filter(sent_at__isnull=True).update(sent_at=timezone.now()) == 0:
        return False
    try:
        teams_activity_task.delay(teams_activity_id)
        return True
    except OperationalError:
        taken.update(sent_at=None)
        logger.warning(
            "teams activity %s: the broker is unreachable; sent later", teams_activity_id
        )
        return False


@shared_task(
    name="openguru.integrations.tasks.teams_activities_send_unsent",
    soft_time_limit=60,
    time_limit=90,
    ignore_result=True,
)
def teams_activities_send_unsent() -> int:
    """Beat's sweep: the Teams activities taken while the broker was down, answered now."""
    unsent = TeamsActivity.objects.filter(sent_at__isnull=True).order_by("created_at")
    sent = 0
    for teams_activity_id in list(unsent.values_list("pk", flat=True)[:500]):
        if not teams_activity_send(teams_activity_id=teams_activity_id):
            break  # the broker is down again: the next sweep carries on
        sent += 1
    return sent

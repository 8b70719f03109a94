"""The Slack bot's Celery tasks (light queue, the default), and the one way a taken event is
sent to its task. They take ids and call the bots' code. Registered under the names of
`integrations/tasks.py`, the module Celery discovers, which beat and queued messages use."""

import logging

from celery import shared_task
from django.utils import timezone
from kombu.exceptions import OperationalError

from openguru.integrations.bots.selectors import slack_events_unsent
from openguru.integrations.models import SlackEvent

logger = logging.getLogger(__name__)


@shared_task(
    name="openguru.integrations.tasks.slack_event_task",
    soft_time_limit=300,
    time_limit=330,
    ignore_result=True,
)
def slack_event_task(slack_event_id: int) -> None:
    from openguru.integrations.bots.slack_answers import slack_event_answer

    slack_event_answer(slack_event_id=slack_event_id)


def slack_event_send(*, slack_event_id: int) -> bool:
    """Hand a taken event's task to the broker, once: the events endpoint right after taking it,
    else beat's sweep (`slack_events_unsent`). Whoever marks it sent first sends it, so the two
    never both do. With the broker down the mark is undone: the event waits for the sweep, and
    Slack has had its quick acknowledgement. True when sent now."""
    unsent = SlackEvent.objects.filter(pk=slack_event_id, sent_at__isnull=True)
    if not unsent.update(sent_at=timezone.now()):
        return False
    try:
        slack_event_task.delay(slack_event_id)
    except OperationalError:
        SlackEvent.objects.filter(pk=slack_event_id).update(sent_at=None)
        logger.warning("slack event %s: the broker is unreachable; sent later", slack_event_id)
        return False
    return True


@shared_task(
    name="openguru.integrations.tasks.slack_events_send_unsent",
    soft_time_limit=60,
    time_limit=90,
    ignore_result=True,
)
def slack_events_send_unsent() -> int:
    """Beat's sweep: the Slack events taken while the broker was down, answered now."""
    sent = 0
    for slack_event_id in slack_events_unsent():
        if slack_event_send(slack_event_id=slack_event_id):
            sent += 1
        elif slack_events_unsent(limit=1) == [slack_event_id]:
            break  # still unsent: the broker is down again, the next sweep carries on
    return sent

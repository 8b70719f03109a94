"""Celery tasks of the bots: take ids, call the bots' code (light queue, the default)."""

from celery import shared_task


@shared_task(soft_time_limit=300, time_limit=330, ignore_result=True)
def slack_event_task(slack_event_id: int) -> None:
    from openguru.integrations.bots.slack_answers import slack_event_answer

    slack_event_answer(slack_event_id=slack_event_id)


@shared_task(soft_time_limit=60, time_limit=90, ignore_result=True)
def slack_events_send_unsent() -> int:
    """Beat's sweep: the Slack events taken while the broker was down, answered now."""
    from openguru.integrations.bots.selectors import slack_events_unsent
    from openguru.integrations.bots.services import slack_event_send

    sent = 0
    for slack_event_id in slack_events_unsent():
        if slack_event_send(slack_event_id=slack_event_id):
            sent += 1
        elif slack_events_unsent(limit=1) == [slack_event_id]:
            break  # still unsent: the broker is down again, the next sweep carries on
    return sent

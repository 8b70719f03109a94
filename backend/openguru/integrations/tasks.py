"""Celery tasks of the bots: take ids, call the bots' code (light queue, the default)."""

from celery import shared_task


@shared_task(soft_time_limit=300, time_limit=330, ignore_result=True)
def slack_event_task(slack_event_id: int) -> None:
    from openguru.integrations.bots.slack_answers import slack_event_answer

    slack_event_answer(slack_event_id=slack_event_id)

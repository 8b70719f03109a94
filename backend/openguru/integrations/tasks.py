"""The integrations' Celery tasks, where Celery discovers them: the Slack bot's
(`bots/slack_tasks.py`)."""

from openguru.integrations.bots.slack_tasks import slack_event_task, slack_events_send_unsent

__all__ = ["slack_event_task", "slack_events_send_unsent"]

"""The integrations' Celery tasks, under the names beat and queued messages use: the Slack
bot's (`bots/slack_tasks.py`), the GitHub App bot's (`bots/github_app_tasks.py`) and the Teams
bot's (`bots/teams_tasks.py`)."""

from openguru.integrations.bots.github_app_tasks import (
    github_deliveries_send_unsent,
    github_delivery_task,
)
from openguru.integrations.bots.slack_tasks import slack_event_task, slack_events_send_unsent
from openguru.integrations.bots.teams_tasks import (
    teams_activities_send_unsent,
    teams_activity_task,
)

__all__ = [
    "github_deliveries_send_unsent",
    "github_delivery_task",
    "slack_event_task",
    "slack_events_send_unsent",
    "teams_activities_send_unsent",
    "teams_activity_task",
]

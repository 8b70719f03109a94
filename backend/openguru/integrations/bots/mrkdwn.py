"""Slack's mrkdwn, written by the Slack encoder (`answers/channels/slack.py`)."""

from openguru.answers.channels.slack import markdown_to_mrkdwn

__all__ = ["markdown_to_mrkdwn"]

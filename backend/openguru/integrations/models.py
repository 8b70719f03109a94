from django.conf import settings
from django.db import models

from openguru.core.models import TimeStampedModel
from openguru.gurus.models import Guru

MAX_USER_API_KEYS = 5


class APIKey(TimeStampedModel):
    """An `X-API-KEY` credential. Only a SHA-256 of the key is stored; the prefix identifies it.
    A key acts as its user; a scoped one (a `scope`, or `gurus` named) with less than that."""

    class Scope(models.TextChoices):
        ALL = "", "All of its owner's rights"
        ASK = "ask", "Ask: answers, search, sessions"
        MANAGE = "manage", "Manage: ask, and change the gurus' sources"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_keys"
    )
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16, db_index=True)
    hashed_key = models.CharField(max_length=64, unique=True)
    integration = models.BooleanField(default=False)
    last_used_at = models.DateTimeField(null=True, blank=True)
    scope = models.CharField(max_length=8, blank=True, default="", choices=Scope.choices)
    # With `gurus_only`, the only gurus it reaches (a deleted guru leaves fewer, never all);
    # without, any guru its owner may reach.
    gurus_only = models.BooleanField(default=False)
    gurus = models.ManyToManyField(Guru, blank=True, related_name="+")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class WidgetId(TimeStampedModel):
    HELP = (
        'The sites that may embed the widget: "https://docs.example.com" (that scheme, host and '
        'port), "docs.example.com", "*.example.com" (sub-domains), "http://localhost:*" (any '
        'port), or "*" for any site. Empty: no site.'
    )

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="widget_ids")
    key = models.CharField(max_length=64, unique=True)
    domain_pattern = models.CharField(max_length=300, blank=True, default="", help_text=HELP)
    # Signs the identity tokens a private guru's widget needs (HMAC-SHA256), so it is kept
    # encrypted (integrations/crypto.py) rather than hashed; "": none made yet.
    secret = models.TextField(blank=True, default="")

    def __str__(self) -> str:
        return f"{self.guru.slug}:{self.domain_pattern or '(no site)'}"


class Integration(TimeStampedModel):
    class Type(models.TextChoices):
        SLACK = "SLACK"
        DISCORD = "DISCORD"
        GITHUB = "GITHUB"  # a GitHub App installation (bots/github_app*.py)
        TEAMS = "TEAMS"

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="integrations")
    type = models.CharField(max_length=16, choices=Type.choices)
    # Slack team id / Discord guild id / GitHub installation id / the Teams bot's Microsoft app id
    external_id = models.CharField(max_length=200)
    workspace_name = models.CharField(max_length=200, blank=True, default="")
    # Encrypted (integrations/crypto.py): the bot token, and Slack's request signing secret.
    access_token = models.TextField(blank=True, default="")
    refresh_token = models.TextField(blank=True, default="")
    signing_secret = models.TextField(blank=True, default="")
    # The channels the bot answers in: [{"id", "name", "mode"}], mode "mention" | "all".
    channels = models.JSONField(default=list, blank=True)
    dms_enabled = models.BooleanField(default=False)
    # Teams: the Microsoft Entra tenant the bot's app is registered in (its tokens are minted
    # there; a private guru's bot answers only that tenant's people). "": multi-tenant.
    tenant_id = models.CharField(max_length=100, blank=True, default="")
    api_key = models.OneToOneField(
        APIKey, on_delete=models.SET_NULL, null=True, blank=True, related_name="owner_integration"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["type", "external_id", "guru"], name="unique_integration_per_guru"
            )
        ]


class Thread(TimeStampedModel):
    """An integration thread (Slack thread ts, Discord thread id) mapped to a binge."""

    integration = models.ForeignKey(Integration, on_delete=models.CASCADE, related_name="threads")
    thread_id = models.CharField(max_length=200)
    channel_id = models.CharField(max_length=200)
    binge = models.ForeignKey("answers.Binge", on_delete=models.CASCADE, related_name="threads")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["integration", "channel_id", "thread_id"], name="unique_thread"
            )
        ]


class SlackEvent(TimeStampedModel):
    """A Slack event taken for answering. The unique event id makes Slack's retries and
    replayed requests no-ops, across processes; the event is what the task reads."""

    integration = models.ForeignKey(
        Integration, on_delete=models.CASCADE, related_name="slack_events"
    )
    event_id = models.CharField(max_length=100, unique=True)
    event = models.JSONField(default=dict)
    bot_user_id = models.CharField(max_length=100, blank=True, default="")
    # When its task was handed to the broker; None while it is not (the broker was down when
    # the event came): beat's sweep sends it then. Taken Slack events are never dropped.
    sent_at = models.DateTimeField(null=True, blank=True)


class TeamsActivity(TimeStampedModel):
    """A Teams message activity taken for answering: its unique id makes the Bot Connector's
    redeliveries no-ops; the activity is what the task reads (as `SlackEvent`)."""

    integration = models.ForeignKey(
        Integration, on_delete=models.CASCADE, related_name="teams_activities"
    )
    activity_id = models.CharField(max_length=300, unique=True)
    activity = models.JSONField(default=dict)
    # None while its task has not reached the broker (it was down): beat's sweep sends it.
    sent_at = models.DateTimeField(null=True, blank=True)


# The GitHub App bot's models live in their own module; Django finds them through this one.
from openguru.integrations.github_models import GitHubApp, GitHubAppDelivery  # noqa: E402

__all__ = [
    "APIKey", "GitHubApp", "GitHubAppDelivery", "Integration", "SlackEvent", "TeamsActivity",
    "Thread", "WidgetId",
]  # fmt: skip

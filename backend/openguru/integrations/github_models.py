"""The GitHub App bot's rows: an integration's app credentials and repository settings, and
the webhook deliveries taken for answering."""

from django.db import models

from openguru.core.models import TimeStampedModel


class GitHubApp(TimeStampedModel):
    """A GitHub integration's app. The integration's `external_id` is the installation id and
    its `signing_secret` the app's webhook secret (both set up by an admin)."""

    integration = models.OneToOneField(
        "integrations.Integration", on_delete=models.CASCADE, related_name="github_app"
    )
    app_id = models.CharField(max_length=32)
    # Encrypted (integrations/crypto.py): the app's PEM private key, which signs its JWTs.
    private_key = models.TextField(blank=True, default="")
    # The app's slug: its bot is `<slug>[bot]` and is mentioned as `@<slug>`.
    slug = models.CharField(max_length=100, blank=True, default="")
    # Per repository ("owner/name"): {"mode": "mention" | "all", "labels": [...]}; "all" answers
    # every new issue and discussion (with one of the labels, when labels are named).
    repositories = models.JSONField(default=dict, blank=True)


class GitHubAppDelivery(TimeStampedModel):
    """A webhook delivery taken for answering. The unique delivery id makes GitHub's
    redeliveries (and replays of a captured request) no-ops; the reply's comment id makes the
    answer idempotent when its task runs again."""

    integration = models.ForeignKey(
        "integrations.Integration", on_delete=models.CASCADE, related_name="github_deliveries"
    )
    delivery_id = models.CharField(max_length=100, unique=True)
    event = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    # When its task was handed to the broker; None while it is not (beat's sweep sends it).
    sent_at = models.DateTimeField(null=True, blank=True)
    # The reply written, kept before it is posted: a task retried after GitHub refused the
    # post (a rate limit, a 5xx) posts it as it is instead of asking the question again.
    reply_body = models.TextField(blank=True, default="")
    # The reply comment posted (its node or REST id); "" until it is.
    reply_id = models.CharField(max_length=100, blank=True, default="")

import secrets
from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models

from openguru.core.models import TimeStampedModel

slug_validator = RegexValidator(
    r"^[a-z0-9]+(?:-[a-z0-9]+)*$", "Use lowercase letters, digits and single hyphens."
)


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public"  # anyone reads and asks it; its answers are on the site
    PRIVATE = "private", "Private"  # only admins and the people granted it (accounts/access.py)


def answers_epoch_new() -> int:
    """A fresh value for `Guru.answers_epoch`: random, so no write (not even a whole-row save of
    a guru read before another change) can bring back an earlier one."""
    return secrets.randbits(62)


class Guru(TimeStampedModel):
    slug = models.SlugField(max_length=64, unique=True, validators=[slug_validator])
    name = models.CharField(max_length=100)
    domain_knowledge = models.CharField(max_length=200, blank=True, default="")
    custom_instruction = models.TextField(blank=True, default="")
    icon_url = models.URLField(blank=True, default="")
    base_color = models.CharField(max_length=16, default="#1f6feb")
    light_color = models.CharField(max_length=16, default="#e8f0fe")
    active = models.BooleanField(default=True)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    # Fixed at creation: vectors of different models or sizes cannot share a collection.
    embedding_model = models.CharField(max_length=200)
    embedding_dimension = models.PositiveIntegerField()
    collection_name = models.CharField(max_length=128, unique=True)
    summary = models.TextField(blank=True, default="")
    # Signs GitHub push webhooks (HMAC-SHA256); kept as is because checking needs the secret.
    github_webhook_secret = models.CharField(max_length=200, blank=True, default="")
    # Questions one anonymous visitor may ask (public ask endpoints, the widget); None: the
    # deployment's ANONYMOUS_ASKS_PER_HOUR / _PER_DAY; 0: no limit.
    anonymous_asks_per_hour = models.PositiveIntegerField(null=True, blank=True)
    anonymous_asks_per_day = models.PositiveIntegerField(null=True, blank=True)
    # The trust gate's threshold calibrated from the guru's own corpus after ingestion
    # (`answers.quality.calibration`); None: not calibrated yet, the deployment's setting applies.
    calibrated_trust_threshold = models.FloatField(null=True, blank=True)
    # A maintainer's own threshold: wins over the calibrated one; None: calibrated or default.
    trust_threshold = models.FloatField(
        null=True, blank=True, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)]
    )
    # "fast" (one LLM round trip before the first token) or "default"; "": the deployment's.
    answer_mode = models.CharField(
        max_length=8, blank=True, default="", choices=[("default", "default"), ("fast", "fast")]
    )
    # The version a question that names none is answered from; "" (or a label no source has):
    # the newest label its sources carry (`sources/versions.py`).
    default_version = models.CharField(max_length=32, blank=True, default="")
    # Changes whenever anything an earlier answer is served from changes: the guru, its answers,
    # its sources' versions (`gurus.services.guru_answers_changed`). Read with the guru on every
    # ask, it keys the process's memo of answers to serve again (`answers/answer_memo.py`).
    answers_epoch = models.BigIntegerField(default=answers_epoch_new, editable=False)

    class Meta:
        ordering = ["name"]

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Every save of a guru (its settings) is a change the answers it serves follow."""
        self.answers_epoch = answers_epoch_new()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "answers_epoch"}
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.slug

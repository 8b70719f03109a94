"""A guru's golden set: questions whose answer a known source holds, measured after every
re-index (`evaluation/golden.py`) so a change that hides the answers is noticed."""

from django.db import models
from django.db.models import Q

from openguru.core.models import TimeStampedModel
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource


class GoldenPair(TimeStampedModel):
    class Origin(models.TextChoices):
        MANUAL = "manual"  # a maintainer attached it
        FAQ = "faq"  # one entry of a FAQ source, kept in step with it

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="golden_pairs")
    question = models.TextField()
    expected_source = models.ForeignKey(
        DataSource, on_delete=models.CASCADE, related_name="golden_pairs"
    )
    # A page of a source with many (a website page, `file.pdf#page=N`); empty: any of its pages.
    expected_link = models.CharField(max_length=2000, blank=True, default="")
    origin = models.CharField(max_length=8, choices=Origin.choices, default=Origin.MANUAL)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["expected_source", "question", "expected_link"],
                name="unique_golden_pair",
            )
        ]

    def __str__(self) -> str:
        return self.question[:80]


class GoldenRun(TimeStampedModel):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="golden_runs")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    # The source whose re-index asked for the run; null when asked through the API.
    trigger_source = models.ForeignKey(
        DataSource, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    pairs = models.PositiveIntegerField(default=0)
    recall_at_5 = models.FloatField(null=True, blank=True)
    refusal_rate = models.FloatField(null=True, blank=True)
    details = models.JSONField(default=list, blank=True)  # one entry per pair
    flagged = models.BooleanField(default=False)
    flag_reason = models.CharField(max_length=500, blank=True, default="")
    error = models.CharField(max_length=500, blank=True, default="")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # At most one run waiting or running per guru: re-indexing ten sources in a row
            # asks for one run, not ten (the database decides, so two workers cannot race).
            models.UniqueConstraint(
                fields=["guru"],
                condition=Q(status__in=["queued", "running"]),
                name="one_active_golden_run_per_guru",
            )
        ]

    def __str__(self) -> str:
        return f"golden run {self.pk} of {self.guru_id}"

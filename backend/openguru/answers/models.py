import uuid
from typing import Any

from django.conf import settings
from django.db import models

from openguru.core.models import TimeStampedModel
from openguru.gurus.models import Guru


class Binge(TimeStampedModel):
    """A follow-up conversation: questions asked on top of a root question."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="binges")
    root_question = models.ForeignKey(
        "answers.Question", on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )


class Question(TimeStampedModel):
    class Source(models.TextChoices):
        USER = "USER"
        API = "API"
        WIDGET = "WIDGET"
        SLACK = "SLACK"
        DISCORD = "DISCORD"
        GITHUB = "GITHUB"  # the GitHub App bot, in issues and discussions
        TEAMS = "TEAMS"
        GENERATED = "GENERATED"  # a likely question of a source, asked after its ingestion

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="questions")
    slug = models.SlugField(max_length=200)
    question = models.TextField()  # prettified
    user_question = models.TextField()
    content = models.TextField(blank=True, default="")  # markdown answer
    description = models.CharField(max_length=300, blank=True, default="")
    user_intent = models.CharField(max_length=300, blank=True, default="")
    answer_length = models.PositiveIntegerField(default=0)
    trust_score = models.FloatField(default=0.0)
    references = models.JSONField(default=list, blank=True)  # [{title, link, icon}]
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.USER)
    parent = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="children"
    )
    binge = models.ForeignKey(
        Binge, on_delete=models.CASCADE, null=True, blank=True, related_name="questions"
    )
    # The source a GENERATED question was made from: made again when it changes, gone with it.
    generated_from = models.ForeignKey(
        "sources.DataSource",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="generated_questions",
    )
    cited_sources = models.ManyToManyField(
        "sources.DataSource", blank=True, related_name="citing_questions"
    )
    extractive = models.BooleanField(default=False)  # answered without an LLM
    llm_model = models.CharField(max_length=200, blank=True, default="")
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    latency_ms = models.PositiveIntegerField(default=0)
    trace = models.JSONField(default=dict, blank=True)  # retrieval candidates, scores, round trips
    stale = models.BooleanField(default=False, db_index=True)
    vector = models.BinaryField(null=True, blank=True)  # question embedding, for near-duplicates
    # Suggested next questions (the widget's follow-up examples), made once per answer by the
    # LLM; None: not made yet (a regenerated answer clears them).
    follow_up_examples = models.JSONField(null=True, blank=True)
    # The claims checked against the answer's contexts after it was saved
    # (answers/quality/grounding.py
    # says the shape); None: not checked (yet), or no check is made (no LLM).
    grounding = models.JSONField(null=True, blank=True)
    # The documentation version it was answered from; "": the guru has no versions.
    version = models.CharField(max_length=32, blank=True, default="")
    # Its upvotes, kept by the vote services: "most upvoted" is then an index scan, not a count
    # of every vote of the guru.
    upvotes = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["guru", "slug"],
                condition=models.Q(binge__isnull=True),
                name="unique_question_slug_per_guru",
            ),
            models.UniqueConstraint(
                fields=["binge", "slug"],
                condition=models.Q(binge__isnull=False),
                name="unique_question_slug_per_binge",
            ),
        ]
        indexes = [
            # The near-duplicate lookup checks its in-memory copy of a guru's reusable vectors
            # before every answer (count, newest change): an index-only scan, not a row scan.
            models.Index(
                fields=["guru", "updated_at"],
                condition=models.Q(binge__isnull=True, vector__isnull=False)
                & ~models.Q(content=""),
                name="question_reusable_vectors",
            ),
            # A guru's questions of an interval (analytics, exports, the newest answers).
            # Covering the counts, so they are read from the index alone.
            models.Index(
                fields=["guru", "created_at"],
                include=["id", "source", "trust_score"],
                name="question_guru_created",
            ),
            # The sitemap: its pages are ranges of ids, read from the index alone.
            models.Index(
                fields=["id"],
                include=["guru", "slug", "updated_at", "source"],
                condition=models.Q(binge__isnull=True) & ~models.Q(content=""),
                name="question_site_pages",
            ),
            # A guru's most upvoted answers, then the newest (its front page).
            models.Index(
                fields=["guru", "-upvotes", "-created_at"],
                condition=models.Q(binge__isnull=True) & ~models.Q(content=""),
                name="question_guru_popular",
            ),
        ]

    def __str__(self) -> str:
        return self.slug


class Vote(TimeStampedModel):
    """A reader's up or down vote on an answer; one per voter and answer (voting again
    replaces it). The voter is a keyed hash of the client's address, never the address."""

    class Type(models.TextChoices):
        UP = "upvote"
        DOWN = "downvote"

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="votes")
    # The question's guru, kept here so a guru's votes of an interval are counted from one index
    # rather than joined through every question of the guru.
    guru = models.ForeignKey(
        Guru, on_delete=models.CASCADE, null=True, blank=True, related_name="+", db_index=False
    )
    vote_type = models.CharField(max_length=8, choices=Type.choices)
    feedback = models.TextField(blank=True, default="")
    voter = models.CharField(max_length=64)
    source = models.CharField(
        max_length=16, choices=Question.Source.choices, default=Question.Source.WIDGET
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["question", "voter"], name="one_vote_per_voter")
        ]
        indexes = [
            models.Index(
                fields=["guru", "created_at"],
                include=["id", "vote_type"],
                name="vote_guru_created",
            ),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.guru_id is None and self.question_id is not None:
            self.guru_id = Question.objects.values_list("guru_id", flat=True).get(
                pk=self.question_id
            )
        super().save(*args, **kwargs)


class OutOfContextQuestion(TimeStampedModel):
    """A question the trust gate refused: what users ask that the sources don't cover."""

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="out_of_context")
    user_question = models.TextField()
    source = models.CharField(max_length=16, choices=Question.Source.choices, default="USER")
    best_score = models.FloatField(default=0.0)
    trace = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [
            # A guru's refusals of an interval (analytics, exports).
            models.Index(
                fields=["guru", "created_at"], include=["id", "source"], name="refusal_guru_created"
            ),
        ]


class _DayRollup(models.Model):
    """A guru's counts of one UTC day, kept by database triggers (analytics/rollup_sql.py)
    in the transaction of every write to the rows counted. No foreign-key constraint: a
    deleted guru's counts go with the rows that made them, then its rollup rows by trigger."""

    guru = models.ForeignKey(
        Guru, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+"
    )  # read through the unique key, which starts with it
    day = models.DateField()

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.guru_id} {self.day}"


class AskedDay(_DayRollup):
    """Questions asked on a day through one channel (`Question.source`), GENERATED left out."""

    source = models.CharField(max_length=16)
    answers = models.IntegerField(db_default=0)
    refusals = models.IntegerField(db_default=0)  # OutOfContextQuestion rows
    refused = models.IntegerField(db_default=0)  # of those, judged not a real question

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["guru", "day", "source"], name="asked_day_key")
        ]


class TrustDay(_DayRollup):
    """A day's answers by trust score in hundredths: `bucket` b holds b/100 ≤ score <
    (b+1)/100, -1 the scores below 0 and 100 those from 1.0. The console's ten buckets are
    sums of ten of them, and the count below any low-trust setting in hundredths is exact."""

    bucket = models.SmallIntegerField()
    answers = models.IntegerField(db_default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["guru", "day", "bucket"], name="trust_day_key")
        ]


class VoteDay(_DayRollup):
    """Votes cast on a day (`Vote.created_at`), by kind."""

    up = models.IntegerField(db_default=0)
    down = models.IntegerField(db_default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["guru", "day"], name="vote_day_key")]


class CitedDay(_DayRollup):
    """A day's answers citing a source (a reference's link and title; each answer once)."""

    # The key: link and title, hashed on PostgreSQL (an index entry has a size limit).
    ref = models.TextField()
    link = models.TextField()
    title = models.TextField()
    answers = models.IntegerField(db_default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["guru", "day", "ref"], name="cited_day_key")]

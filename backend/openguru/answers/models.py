import uuid

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


class OutOfContextQuestion(TimeStampedModel):
    """A question the trust gate refused: what users ask that the sources don't cover."""

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="out_of_context")
    user_question = models.TextField()
    source = models.CharField(max_length=16, choices=Question.Source.choices, default="USER")
    best_score = models.FloatField(default=0.0)
    trace = models.JSONField(default=dict, blank=True)

"""A guru with a known week of questions, refusals and votes, for the console's analytics."""

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
from django.utils import timezone
from openguru.answers.models import OutOfContextQuestion, Question, Vote
from openguru.gurus.models import Guru
from rest_framework.test import APIClient

A = {"title": "Install", "link": "https://docs.example.com/install", "icon": "web"}
B = {"title": "Config", "link": "https://docs.example.com/config", "icon": "web"}
NOTES = {"title": "Pasted notes", "link": "", "icon": "text"}
GUIDE = {"title": "Guide", "link": "https://example.com/guide.pdf", "icon": "pdf"}


def make_guru(slug: str = "python", model: str = "fake-embedding", dimension: int = 8) -> Guru:
    return Guru.objects.create(
        slug=slug,
        name=slug.title(),
        collection_name=f"guru_{slug}",
        embedding_model=model,
        embedding_dimension=dimension,
    )


def today() -> date:
    return timezone.now().astimezone(UTC).date()


def noon(days_ago: int) -> datetime:
    """Noon UTC `days_ago` days before today (in the future for today before noon: still today,
    which is what intervals count by)."""
    return datetime.combine(today() - timedelta(days=days_ago), time(12), tzinfo=UTC)


def _at(model: Any, pk: int, when: datetime) -> None:
    model.objects.filter(pk=pk).update(created_at=when, updated_at=when)


def ask(guru: Guru, text: str, *, days_ago: int, source: str = "USER", **fields: Any) -> Question:
    slug = f"{text.lower().replace(' ', '-').strip('?')}-{Question.objects.count()}"
    question = Question.objects.create(
        guru=guru, slug=slug[:200], question=text, user_question=text, source=source, **fields
    )
    _at(Question, question.pk, noon(days_ago))
    question.refresh_from_db()
    return question


def refuse(
    guru: Guru, text: str, *, days_ago: int, source: str = "USER", not_valid: bool = False
) -> OutOfContextQuestion:
    reason = "not_valid" if not_valid else "low_relevance"
    refusal = OutOfContextQuestion.objects.create(
        guru=guru, user_question=text, source=source, trace={"refused_because": reason}
    )
    _at(OutOfContextQuestion, refusal.pk, noon(days_ago))
    return refusal


def vote(question: Question, kind: str, *, days_ago: int, voter: str) -> None:
    cast = Vote.objects.create(question=question, vote_type=kind, voter=voter)
    _at(Vote, cast.pk, noon(days_ago))


@dataclass(frozen=True)
class Seeded:
    guru: Guru
    questions: dict[str, Question]


def seed_week(guru: Guru) -> Seeded:
    """Inside the last 7 days: five answers (two below the 0.5 low-trust setting), one refusal
    out of context and one not valid, three votes. Before it: one answer (10 days ago, with an
    upvote) and one refusal (40 days ago). Another guru's answer today counts for nothing."""
    q = {
        "today_ui": ask(guru, "How do I install it?", days_ago=0, trust_score=0.85,
                        references=[A, B], content="Run pip install it."),
        "today_widget": ask(guru, "Does it run on a phone?", days_ago=0, source="WIDGET",
                            trust_score=0.45, references=[A, GUIDE]),
        "yesterday_api": ask(guru, "Where is the config file?", days_ago=1, source="API",
                             trust_score=0.95, references=[A, NOTES]),
        "yesterday_slack": ask(guru, "Can it fly?", days_ago=1, source="SLACK",
                               trust_score=0.05, references=[]),
        "three_days_discord": ask(guru, "How do I configure it?", days_ago=3, source="DISCORD",
                                  trust_score=1.0, references=[B]),
        "ten_days_ui": ask(guru, "Is there a changelog?", days_ago=10, trust_score=0.7),
    }  # fmt: skip
    refuse(guru, "What is the weather today?", days_ago=0, source="WIDGET")
    refuse(guru, "asdf qwerty", days_ago=1, source="API", not_valid=True)
    refuse(guru, "Who won the match?", days_ago=40)
    vote(q["today_ui"], "upvote", days_ago=0, voter="v1")
    vote(q["today_ui"], "upvote", days_ago=0, voter="v2")
    vote(q["today_widget"], "downvote", days_ago=1, voter="v1")
    vote(q["ten_days_ui"], "upvote", days_ago=10, voter="v3")
    ask(make_guru("other"), "How do I install it?", days_ago=0, trust_score=0.9, references=[A])
    return Seeded(guru=guru, questions=q)


@pytest.fixture
def admin_api(db: None) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer test-admin-token")
    return client


@pytest.fixture
def seeded(db: None) -> Seeded:
    return seed_week(make_guru())

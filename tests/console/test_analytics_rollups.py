"""The analytics read daily rollups kept by database triggers: after every kind of write (new
answers today, refusals, votes cast and changed, a trust score lowered, a day moved, traces
pruned, deletes cascading from an answer, a session and a guru) they equal the same counts made
from the rows, for every interval, on PostgreSQL and SQLite; a rebuild gives the same rollups."""

import random
from datetime import UTC, datetime, time, timedelta

import pytest
from openguru.answers.analytics.selectors import guru_analytics, interval_get
from openguru.answers.analytics.services import analytics_rollups_rebuild
from openguru.answers.models import (
    AskedDay,
    CitedDay,
    OutOfContextQuestion,
    Question,
    TrustDay,
    VoteDay,
)
from openguru.answers.services import (
    binge_create,
    binge_delete,
    guru_questions_delete,
    traces_prune,
    vote_record,
)
from openguru.core.platform_settings import platform_settings_update
from openguru.gurus.models import Guru

from tests.console.conftest import GUIDE, NOTES, A, B, ask, make_guru, refuse, seed_week, today
from tests.console.raw_analytics import assert_rollups_match_rows

# Scores on and around the edges of the hundredths and of the console's tenths.
EDGES = [0.0, 0.01, 0.1, 0.3, 0.29999999999999993, 0.5, 0.57, 0.5700000000000001, 0.9, 0.99]
EDGES += [0.9999999, 1.0, 1.2, -0.1, 0.45, 0.55]


def _rollups() -> list[tuple]:
    """Every rollup row with a count (of the gurus there: an earlier test's flush may leave
    others; a count taken back leaves its row at zero)."""
    gurus = set(Guru.objects.values_list("pk", flat=True))
    rows: list[tuple] = []
    tables = {
        AskedDay: (("guru_id", "day", "source"), ("answers", "refusals", "refused")),
        TrustDay: (("guru_id", "day", "bucket"), ("answers",)),
        VoteDay: (("guru_id", "day"), ("up", "down")),
        CitedDay: (("guru_id", "day", "link", "title"), ("answers",)),
    }
    for model, (key, counts) in tables.items():
        for row in model.objects.values_list(*key, *counts):
            if row[0] in gurus and any(row[len(key) :]):
                rows.append((model.__name__, *row))
    return sorted(rows, key=repr)


def _populate(guru, rng: random.Random) -> list[Question]:
    asked = []
    sources = ["USER", "WIDGET", "API", "SLACK", "DISCORD", "TEAMS", "GITHUB", "GENERATED"]
    cited = [[], [A], [A, B], [A, A, NOTES], [GUIDE, B], [NOTES], [{"title": "No link"}]]
    for n in range(60):
        asked.append(
            ask(guru, f"Question {n}?", days_ago=rng.choice([0, 0, 1, 6, 7, 29, 30, 100, 364, 400]),
                source=rng.choice(sources), trust_score=rng.choice(EDGES),
                references=rng.choice(cited))
        )  # fmt: skip
        if n % 4 == 0:
            refuse(guru, f"Refusal {n}", days_ago=rng.choice([0, 3, 40, 365]),
                   source=rng.choice(sources), not_valid=n % 8 == 0)  # fmt: skip
    for n, question in enumerate(asked[::3]):
        vote_record(question=question, voter=f"v{n}", vote_type=rng.choice(["upvote", "downvote"]))
    return asked


def _write_everything(guru, asked: list[Question]) -> None:
    assert_rollups_match_rows(guru)
    vote_record(question=asked[0], voter="v0", vote_type="downvote")  # a mind changed
    vote_record(question=asked[0], voter="v0", vote_type="upvote")
    asked[3].votes.all().delete()
    assert_rollups_match_rows(guru)
    asked[1].trust_score = 0.12  # the grounding check lowers a score
    asked[1].save(update_fields=["trust_score"])
    Question.objects.filter(pk=asked[2].pk).update(
        created_at=datetime.combine(today() - timedelta(days=2), time(23, 59, 59), tzinfo=UTC)
    )
    ask(guru, "Asked just now?", days_ago=0, trust_score=0.57, references=[GUIDE])
    asked[11].references = [B, GUIDE]  # a stale answer regenerated
    asked[11].save()
    assert_rollups_match_rows(guru)
    asked[4].delete()  # its votes go with it
    Question.objects.filter(pk__in=[q.pk for q in asked[5:9]]).delete()
    assert_rollups_match_rows(guru)
    binge = binge_create(guru=guru, root_question=asked[10])
    ask(guru, "And then?", days_ago=0, binge=binge, trust_score=0.3)
    assert_rollups_match_rows(guru)
    binge_delete(binge=binge)
    assert_rollups_match_rows(guru)
    # Pruning a refusal's trace forgets why it was refused: the rows count it out of context.
    traces_prune(now=datetime.now(UTC) + timedelta(days=400))
    assert_rollups_match_rows(guru)


def _check_all_writes(settings) -> None:
    settings.TRACE_RETENTION_DAYS = 30
    guru, other = make_guru(), make_guru("second")
    seed_week(make_guru("third"))
    rng = random.Random(7)
    asked = _populate(guru, rng)
    _populate(other, rng)
    _write_everything(guru, asked)
    for threshold in (0.57, 0.3, 0.0, 1.0, 0.555, 0.29999999999999993):
        platform_settings_update(data={"low_trust_threshold": threshold})
        assert_rollups_match_rows(guru)
    before = _rollups()
    analytics_rollups_rebuild()
    assert _rollups() == before
    guru_questions_delete(guru=other)
    assert_rollups_match_rows(other)
    assert not [row for row in _rollups() if row[1] == other.pk]
    gone = guru.pk
    guru.delete()  # as the guru service does, after its vector collection
    assert not AskedDay.objects.filter(guru_id=gone).exists()
    assert not TrustDay.objects.filter(guru_id=gone).exists()
    assert not VoteDay.objects.filter(guru_id=gone).exists()
    assert not CitedDay.objects.filter(guru_id=gone).exists()


@pytest.mark.django_db(transaction=True)
def test_rollups_equal_the_rows_after_every_kind_of_write(settings):
    _check_all_writes(settings)


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_rollups_equal_the_rows_after_every_kind_of_write_on_sqlite(settings):
    _check_all_writes(settings)


@pytest.mark.django_db
def test_a_bulk_insert_is_counted_once_per_statement():
    guru = make_guru()
    Question.objects.bulk_create(
        [
            Question(guru=guru, slug=f"q{n}", question="Q?", user_question="Q?",
                     trust_score=n / 50, source="WIDGET")
            for n in range(50)
        ]
    )  # fmt: skip
    OutOfContextQuestion.objects.bulk_create(
        [OutOfContextQuestion(guru=guru, user_question="?", source="API") for _ in range(3)]
    )
    week = guru_analytics(guru=guru, interval=interval_get(name="7d"))
    assert week["totals"]["questions"] == 53
    assert week["questions_per_day"][-1] | {"date": ""} == {
        "date": "", "ui": 0, "api": 3, "widget": 50, "slack": 0, "discord": 0, "teams": 0,
        "github": 0, "total": 53,
    }  # fmt: skip
    assert_rollups_match_rows(guru)

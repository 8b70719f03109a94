"""Volume: the generator of realistic rows (at a few hundred of them), the sitemap's pages and
index, the upvote counter the front page sorts by, and the daily prune of old decision traces."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import Count, Q, Sum
from django.utils import timezone
from openguru.answers.models import AskedDay, Binge, OutOfContextQuestion, Question, Vote
from openguru.answers.services import question_upvotes_recount, traces_prune, vote_record
from openguru.answers.site.selectors import questions_popular
from openguru.gurus.models import Guru
from rest_framework.test import APIClient

from tests.console.conftest import ask, make_guru, refuse
from tests.console.raw_analytics import assert_rollups_match_rows

pytestmark = pytest.mark.django_db


def test_generate_volume_makes_a_year_of_questions_votes_sessions_and_refusals(capsys):
    if connection.vendor != "postgresql":
        pytest.skip("the rows are made by PostgreSQL itself")
    call_command("generate_volume", gurus=3, questions=300, days=365, label="t")

    gurus = Guru.objects.filter(slug__startswith="vol-t")
    assert gurus.count() == 3
    roots = Question.objects.filter(guru__in=gurus, binge__isnull=True)
    assert roots.count() == 300
    oldest, newest = sorted(roots.values_list("created_at", flat=True))[::299]
    assert timedelta(days=360) < newest - oldest <= timedelta(days=365, minutes=2)
    assert Question.objects.filter(guru__in=gurus, binge__isnull=False).exists()
    assert Binge.objects.filter(guru__in=gurus).exists()
    assert OutOfContextQuestion.objects.filter(guru__in=gurus).count() == 24
    assert {"USER", "WIDGET"} <= set(roots.values_list("source", flat=True))
    assert all(q.trace["decision"] == "answered" and q.references for q in roots[:20])
    # The counter the front page sorts by matches the votes.
    counted = roots.annotate(n=Count("votes", filter=Q(votes__vote_type="upvote")))
    assert Vote.objects.filter(question__guru__in=gurus).exists()
    assert all(q.upvotes == q.n for q in counted)
    assert "Generated 3 gurus, 300 questions" in capsys.readouterr().out
    # The analytics' daily rollups filled as the rows went in, and a rebuild agrees.
    for guru in gurus:
        assert_rollups_match_rows(guru)
    rolled = AskedDay.objects.filter(guru__in=gurus).aggregate(n=Sum("answers"))["n"]
    assert rolled == Question.objects.filter(guru__in=gurus).exclude(source="GENERATED").count()
    AskedDay.objects.all().delete()
    call_command("rebuild_analytics_rollups")
    assert AskedDay.objects.filter(guru__in=gurus).aggregate(n=Sum("answers"))["n"] == rolled
    for guru in gurus:
        assert_rollups_match_rows(guru)


def test_a_vote_keeps_the_upvote_counter_and_popular_follows_it():
    guru = make_guru()
    first = ask(guru, "First?", days_ago=2, content="A.")
    second = ask(guru, "Second?", days_ago=1, content="B.")
    vote_record(question=first, voter="a", vote_type=Vote.Type.UP)
    vote_record(question=first, voter="b", vote_type=Vote.Type.UP)
    assert [q.pk for q in questions_popular(guru=guru)] == [first.pk, second.pk]
    vote_record(question=first, voter="a", vote_type=Vote.Type.DOWN)  # a changed their mind
    vote_record(question=first, voter="b", vote_type=Vote.Type.DOWN)
    first.refresh_from_db()
    assert first.upvotes == 0
    assert [q.pk for q in questions_popular(guru=guru)] == [second.pk, first.pk]
    Vote.objects.create(question=second, vote_type=Vote.Type.UP, voter="c")  # as an import does
    question_upvotes_recount(question_ids=[second.pk])
    second.refresh_from_db()
    assert second.upvotes == 1


def test_the_sitemap_is_paged_with_an_index_past_its_page_size(settings):
    settings.SITEMAP_PAGE_SIZE = 3
    guru = make_guru()
    answered = [ask(guru, f"Question {n}?", days_ago=1, content="A.") for n in range(8)]
    ask(guru, "In a team's Slack?", days_ago=1, content="A.", source="SLACK")
    client = APIClient()

    index = client.get("/api/sitemap/").json()
    assert index["page_size"] == 3 and index["gurus"] == ["python"]
    assert len(index["pages"]) >= 3  # eight answers, three a page at most
    listed = []
    for page in index["pages"]:
        rows = client.get(f"/api/sitemap/questions/?page={page}").json()
        assert len(rows) <= 3
        listed += [row["slug"] for row in rows]
    assert sorted(listed) == sorted(q.slug for q in answered)
    newest_page = client.get("/api/sitemap/questions/").json()
    assert answered[-1].slug in [row["slug"] for row in newest_page]
    assert client.get("/api/sitemap/questions/?page=0").status_code == 400


def test_old_decision_traces_are_pruned_and_their_questions_kept(settings):
    settings.TRACE_RETENTION_DAYS = 30
    guru = make_guru()
    trace = {"decision": "answered", "candidates": [{"id": "c1"}]}
    old = ask(guru, "Old?", days_ago=40, content="A.", trace=trace)
    recent = ask(guru, "Recent?", days_ago=3, content="A.", trace=trace)
    old_refusal = refuse(guru, "Old refusal", days_ago=40)
    recent_refusal = refuse(guru, "Recent refusal", days_ago=3)

    assert traces_prune() == 2
    old.refresh_from_db()
    recent.refresh_from_db()
    assert (old.trace, old.content) == ({}, "A.")
    assert recent.trace == trace
    assert OutOfContextQuestion.objects.get(pk=old_refusal.pk).trace == {}
    assert OutOfContextQuestion.objects.get(pk=recent_refusal.pk).trace != {}
    assert traces_prune() == 0  # nothing left to prune

    settings.TRACE_RETENTION_DAYS = 0  # keeps them all
    assert traces_prune(now=timezone.now() + timedelta(days=400)) == 0
    recent.refresh_from_db()
    assert recent.trace == trace


def _sitemap_dates_match_the_serializer() -> None:
    from datetime import UTC, datetime

    from rest_framework import serializers

    guru = make_guru()
    guru.visibility = "public"
    guru.save()
    whole = ask(guru, "Whole second?", days_ago=1, content="A.")
    fraction = ask(guru, "Fraction?", days_ago=1, content="B.")
    stamps = {whole.pk: datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC),
              fraction.pk: datetime(2025, 3, 4, 5, 6, 7, 8, tzinfo=UTC)}  # fmt: skip
    for pk, stamp in stamps.items():
        Question.objects.filter(pk=pk).update(updated_at=stamp)
    rows = APIClient().get("/api/sitemap/questions/").json()
    field = serializers.DateTimeField()
    assert {row["slug"]: row["date_updated"] for row in rows} == {
        Question.objects.get(pk=pk).slug: field.to_representation(stamp)
        for pk, stamp in stamps.items()
    }
    assert {row["date_updated"] for row in rows} == {
        "2025-03-04T05:06:07Z",
        "2025-03-04T05:06:07.000008Z",
    }


def test_sitemap_dates_are_written_by_the_database_as_the_serializer_would():
    _sitemap_dates_match_the_serializer()


@pytest.mark.sqlite
def test_sitemap_dates_are_written_by_sqlite_as_the_serializer_would():
    _sitemap_dates_match_the_serializer()

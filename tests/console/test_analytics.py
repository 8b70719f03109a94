"""The console's analytics over a seeded week: counts per day and channel, totals, the trust
histogram, the most cited sources, votes and the refusals list, through the HTTP API. The same
numbers on SQLite (the top sources are counted with each database's own JSON functions)."""

from datetime import date, timedelta

import pytest
from openguru.answers.analytics.selectors import interval_get
from openguru.core.platform_settings import platform_settings_update

from tests.console.conftest import GUIDE, NOTES, A, B, make_guru, seed_week, today

ZERO = {
    "ui": 0, "api": 0, "widget": 0, "slack": 0, "discord": 0, "teams": 0, "github": 0, "total": 0
}  # fmt: skip


def _check_week(admin_api) -> None:
    response = admin_api.get("/api/gurus/python/analytics/", {"interval": "7d"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["interval"] == "7d"
    assert body["start"].startswith((today() - timedelta(days=6)).isoformat())
    assert body["end"].startswith((today() + timedelta(days=1)).isoformat())
    assert body["totals"] == {
        "questions": 7,
        "refused": 1,
        "out_of_context": 1,
        "low_trust": 2,
        "upvotes": 2,
        "downvotes": 1,
    }

    days = body["questions_per_day"]
    assert [d["date"] for d in days] == [
        (today() - timedelta(days=n)).isoformat() for n in range(6, -1, -1)
    ]
    by_day = {d.pop("date"): d for d in days}
    day = lambda n: by_day[(today() - timedelta(days=n)).isoformat()]  # noqa: E731
    assert day(0) == {**ZERO, "ui": 1, "widget": 2, "total": 3}
    assert day(1) == {**ZERO, "api": 2, "slack": 1, "total": 3}
    assert day(3) == {**ZERO, "discord": 1, "total": 1}
    assert day(2) == day(4) == day(5) == day(6) == ZERO

    histogram = body["trust_histogram"]
    assert [(b["start"], b["end"]) for b in histogram] == [
        (n / 10, (n + 1) / 10) for n in range(10)
    ]
    # 0.05 | 0.45 | 0.85 | 0.95 and 1.0 (the last bucket holds 1.0)
    assert [b["count"] for b in histogram] == [1, 0, 0, 0, 1, 0, 0, 0, 1, 2]

    assert body["top_sources"] == [
        {"title": A["title"], "url": A["link"], "citations": 3},
        {"title": B["title"], "url": B["link"], "citations": 2},
        {"title": NOTES["title"], "url": "", "citations": 1},
        {"title": GUIDE["title"], "url": GUIDE["link"], "citations": 1},
    ]

    votes = {v["date"]: (v["up"], v["down"]) for v in body["votes_per_day"]}
    assert len(votes) == 7
    assert votes[today().isoformat()] == (2, 0)
    assert votes[(today() - timedelta(days=1)).isoformat()] == (0, 1)
    assert sum(up + down for up, down in votes.values()) == 3


def test_a_week_of_questions(admin_api, seeded):
    _check_week(admin_api)


@pytest.mark.sqlite
@pytest.mark.django_db
def test_a_week_of_questions_on_sqlite(admin_api):
    seed_week(make_guru())
    _check_week(admin_api)


def test_the_interval_chooses_the_days(admin_api, seeded):
    today_only = admin_api.get("/api/gurus/python/analytics/", {"interval": "today"}).json()
    assert today_only["totals"]["questions"] == 3
    assert len(today_only["questions_per_day"]) == 1
    month = admin_api.get("/api/gurus/python/analytics/", {"interval": "30d"}).json()
    assert month["totals"]["questions"] == 8  # the answer of 10 days ago, not the refusal of 40
    assert month["totals"]["upvotes"] == 3
    assert len(month["questions_per_day"]) == 30
    year = admin_api.get("/api/gurus/python/analytics/", {"interval": "12m"}).json()
    assert year["totals"]["questions"] == 9


def test_an_unknown_interval_is_a_400(admin_api, seeded):
    response = admin_api.get("/api/gurus/python/analytics/", {"interval": "2w"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"


def test_months_end_on_today_and_start_the_day_after_that_date(db):
    interval = interval_get(name="3m", today=date(2025, 5, 31))
    assert (interval.first_day, interval.last_day) == (date(2025, 3, 1), date(2025, 5, 31))
    year = interval_get(name="12m", today=date(2024, 2, 29))
    assert year.first_day == date(2023, 3, 1)
    assert len(interval_get(name="30d", today=date(2025, 1, 1)).days) == 30


def test_refusals_list_the_weak_questions_newest_first(admin_api, seeded):
    response = admin_api.get("/api/gurus/python/analytics/refusals/", {"interval": "7d"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["count"] == 4
    rows = [(r["question"], r["reason"], r["channel"], r["trust_score"]) for r in body["results"]]
    assert sorted(rows[:2]) == [  # both today, at the same time
        ("Does it run on a phone?", "low_trust", "widget", 0.45),
        ("What is the weather today?", "out_of_context", "widget", None),
    ]
    assert sorted(rows[2:]) == [  # yesterday
        ("Can it fly?", "low_trust", "slack", 0.05),
        ("asdf qwerty", "refused", "api", None),
    ]
    asked = [r["asked_at"] for r in body["results"]]
    assert asked == sorted(asked, reverse=True)

    second = admin_api.get("/api/gurus/python/analytics/refusals/", {"interval": "7d", "page": 2})
    assert second.json() == {"count": 4, "results": []}


def test_the_low_trust_setting_moves_the_line(admin_api, seeded):
    platform_settings_update(data={"low_trust_threshold": 0.9})  # 0.85 joins 0.05 and 0.45
    totals = admin_api.get("/api/gurus/python/analytics/", {"interval": "7d"}).json()["totals"]
    assert totals["low_trust"] == 3
    listed = admin_api.get("/api/gurus/python/analytics/refusals/", {"interval": "7d"}).json()
    assert listed["count"] == 5

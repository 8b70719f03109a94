"""Anonymous visitors may ask a guru so many questions per hour and per day (the deployment's
numbers, or the guru's own): the next one is a 429 that says when to come back, while other
visitors are still answered. Visitors are counted by a keyed hash, never by their address."""

import httpx
import pytest
from django.core.cache import cache

from tests.answers.test_answer_engine import IN_SCOPE

pytestmark = pytest.mark.django_db(transaction=True)

VISITOR, OTHER = "203.0.113.5", "198.51.100.7"


@pytest.fixture
def counts_from_zero():
    """The counts live in the process's cache, across tests: start and leave it empty."""
    cache.clear()
    yield
    cache.clear()


def public_ask(client, ip: str, path: str = "answer/"):
    return client.post(
        f"/api/gurus/python/{path}", {"question": IN_SCOPE}, format="json", REMOTE_ADDR=ip
    )


def test_the_next_question_past_the_hourly_limit_is_429(
    anon_client, python_guru, settings, counts_from_zero
):
    settings.ANONYMOUS_ASKS_PER_HOUR = 2
    assert [public_ask(anon_client, VISITOR).status_code for _ in range(2)] == [200, 200]
    refused = public_ask(anon_client, VISITOR)
    assert refused.status_code == 429
    assert refused.json() == {
        "code": "rate_limited",
        "msg": "You have asked 2 questions this hour, the most this guru answers per visitor; "
        "please try again a little later.",
    }
    assert 1 <= int(refused["Retry-After"]) <= 3600
    # The stream endpoint counts the same questions.
    assert public_ask(anon_client, VISITOR, "answer/stream/").status_code == 429
    # Someone else is still answered.
    assert public_ask(anon_client, OTHER).status_code == 200
    # No address is kept, not even in a cache key.
    assert not any(VISITOR in key or OTHER in key for key in cache._cache)  # type: ignore[attr-defined]


def test_the_daily_limit_and_a_gurus_own_numbers(
    anon_client, python_guru, settings, counts_from_zero
):
    settings.ANONYMOUS_ASKS_PER_HOUR = 100
    python_guru.anonymous_asks_per_day = 1  # the guru's own number wins over the default 100
    python_guru.save()
    settings.ANONYMOUS_ASKS_PER_DAY = 100
    assert public_ask(anon_client, VISITOR).status_code == 200
    refused = public_ask(anon_client, VISITOR)
    assert refused.status_code == 429
    assert "today" in refused.json()["msg"]
    assert 1 <= int(refused["Retry-After"]) <= 86400
    python_guru.anonymous_asks_per_day = 0  # 0: no limit for this guru
    python_guru.save()
    assert public_ask(anon_client, VISITOR).status_code == 200


def test_admins_set_a_gurus_limits(admin_client, python_guru):
    response = admin_client.patch(
        "/api/gurus/python/",
        {"anonymous_asks_per_hour": 5, "anonymous_asks_per_day": None},
        format="json",
    )
    assert response.status_code == 200
    python_guru.refresh_from_db()
    assert (python_guru.anonymous_asks_per_hour, python_guru.anonymous_asks_per_day) == (5, None)
    negative = admin_client.patch(
        "/api/gurus/python/", {"anonymous_asks_per_hour": -1}, format="json"
    )
    assert negative.status_code == 400


def test_the_widget_counts_its_questions_per_visitor(
    live_asgi, python_guru, widget_headers, settings, counts_from_zero
):
    settings.ANONYMOUS_ASKS_PER_HOUR = 1
    settings.TRUSTED_PROXIES = ["127.0.0.1"]  # our nginx names the visitor in X-Real-IP
    url = f"{live_asgi}/api/widget/ask/"

    def widget_ask(ip: str, **body: object) -> httpx.Response:
        headers = {**widget_headers, "X-Real-IP": ip}
        return httpx.post(url, json={"question": IN_SCOPE, **body}, headers=headers, timeout=30)

    assert widget_ask(VISITOR).status_code == 200
    # Reading back the answer just streamed is not another question.
    assert widget_ask(VISITOR, fetch_existing=True).status_code == 200
    refused = widget_ask(VISITOR)
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited"
    assert refused.headers["retry-after"]
    assert refused.headers["access-control-allow-origin"]  # the page can read why
    assert widget_ask(OTHER).status_code == 200

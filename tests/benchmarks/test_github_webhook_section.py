"""The bench's GitHub webhook figure: deliveries sent at once to a running API server (uvicorn
on a real broker), each acknowledged, timed and reported as p50/p95/max."""

import pytest
from benchmarks.github_webhook import github_stand_in, github_webhook_ack
from openguru.integrations.models import GitHubAppDelivery, Integration

from tests.answers.conftest import python_guru  # noqa: F401  (fixture)
from tests.integration.web import web_server
from tests.integration.worker import REDIS_BROKER, purge

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_deliveries_sent_at_once_are_each_acknowledged_and_timed(python_guru):  # noqa: F811
    questions = [f"How do I use feature {n}?" for n in range(8)]
    with (
        github_stand_in() as (github, key),
        web_server(REDIS_BROKER, GITHUB_API_URL=github.url) as origin,
    ):
        row = github_webhook_ack(
            origin=origin, guru=python_guru, github=github, private_key=key, questions=questions
        )
    purge(REDIS_BROKER)  # the answers were never the point: no worker ran

    assert row["deliveries"] == 8 and row["every_ack_under_deadline"] is True
    ack = row["ack"]
    assert 0 < ack["p50_ms"] <= ack["p95_ms"] <= ack["max_ms"] < row["ack_deadline_ms"]
    assert not Integration.objects.filter(type=Integration.Type.GITHUB).exists()  # cleaned up
    assert not GitHubAppDelivery.objects.exists()

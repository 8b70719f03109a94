"""The GitHub App bot when GitHub pushes back: 429 and secondary rate limits are waited out
for their Retry-After (a long one by retrying the task then, with the reply it has already), a
5xx is tried again, a 403 that is no rate limit is not, and the installation's own rate limit
answers "busy" instead of asking."""

import logging
import time

from openguru.answers.models import Question
from openguru.integrations.bots.asking import BUSY
from openguru.integrations.models import Integration

from tests.bots.github_app_fixtures import SLUG, deliver, issue_comment
from tests.fakes.github_app_server import FakeGitHubApp, Refused

QUESTION = "How do I create a virtual environment?"


def _ask(number: int) -> None:
    deliver("issue_comment", issue_comment(number, f"@{SLUG} {QUESTION}"))


def test_a_429_is_sent_again_after_its_retry_after(
    github_bot: Integration, github_api: FakeGitHubApp
):
    github_api.fail_comments_next(Refused(429, {"Retry-After": "1"}, "API rate limit exceeded"))

    _ask(21)

    [(refused, at)] = github_api.refused
    [reply] = github_api.comments
    assert refused.status == 429 and reply.at - at >= 1.0 and "venv" in reply.body


def test_a_secondary_rate_limit_is_waited_out(github_bot: Integration, github_api: FakeGitHubApp):
    github_api.fail_comments_next(Refused(403, {"Retry-After": "1"}))

    _ask(22)

    [(refused, at)] = github_api.refused
    [reply] = github_api.comments
    assert refused.status == 403 and reply.at - at >= 1.0


def test_a_5xx_is_tried_again_and_posts_once(github_bot: Integration, github_api: FakeGitHubApp):
    github_api.fail_comments_next(Refused(502))

    _ask(23)

    assert [r.status for r, _ in github_api.refused] == [502]
    assert len(github_api.comments) == 1
    assert Question.objects.filter(source=Question.Source.GITHUB).count() == 1


def test_past_the_installations_rate_limit_it_says_it_is_busy(
    github_bot: Integration, github_api: FakeGitHubApp, settings
):
    settings.API_RATE_LIMIT_PER_MINUTE = 1

    _ask(24)
    _ask(25)

    assert [c.number for c in github_api.comments] == [24, 25]
    assert github_api.comments[1].body == BUSY
    assert Question.objects.filter(source=Question.Source.GITHUB).count() == 1


def test_a_403_that_is_no_rate_limit_is_not_asked_again(
    github_bot: Integration, github_api: FakeGitHubApp
):
    # The app lacks a permission: trying again cannot help, so nothing is asked twice.
    github_api.fail_comments_next(
        *[Refused(403, message="Resource not accessible by integration")] * 4
    )

    _ask(26)

    assert [r.status for r, _ in github_api.refused] == [403]
    assert github_api.comments == []
    assert Question.objects.filter(source=Question.Source.GITHUB).count() == 1


def test_a_long_retry_after_is_not_slept_in_the_task_and_the_answer_is_not_asked_again(
    github_bot: Integration, github_api: FakeGitHubApp, caplog
):
    github_api.fail_comments_next(Refused(429, {"Retry-After": "3600"}, "API rate limit exceeded"))
    started = time.monotonic()

    with caplog.at_level(logging.INFO, logger="celery.app.trace"):
        _ask(27)

    assert time.monotonic() - started < 60
    assert "Retry in 3600s" in caplog.text  # the task is retried when GitHub said (eager: now)
    assert [r.status for r, _ in github_api.refused] == [429]
    [reply] = github_api.comments  # the task's retry posts the answer it has already
    assert reply.number == 27 and "venv" in reply.body
    assert Question.objects.filter(source=Question.Source.GITHUB).count() == 1

"""Slack as it runs in production: signed events POSTed to `/api/slack/events/` of a uvicorn
process, answered by a real Celery worker through a real broker, written into the Slack Web API
stand-in with the loopback LLM answering."""

import json
from typing import Any

import httpx
import pytest
from openguru.answers.models import Question
from openguru.integrations.models import Thread

from tests.bots.conftest import event_payload, mention, python_guru, sign, slack, slack_api  # noqa: F401  (fixtures)
from tests.bots.test_slack import QUESTION
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.slack_server import FakeSlackServer
from tests.integration.web import web_server
from tests.integration.worker import REDIS_BROKER, celery_worker, purge, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _post(origin: str, payload: dict[str, Any]) -> httpx.Response:
    body = json.dumps(payload).encode()
    headers = {
        "Content-Type": "application/json",
        "X-Slack-Signature": sign(body)["HTTP_X_SLACK_SIGNATURE"],
        "X-Slack-Request-Timestamp": sign(body)["HTTP_X_SLACK_REQUEST_TIMESTAMP"],
    }
    return httpx.post(f"{origin}/api/slack/events/", content=body, headers=headers, timeout=60)


def _finals(api: FakeSlackServer) -> list[str]:
    """The final text of each reply the bot finished (the edit that carries the trust score)."""
    finals = {u["ts"]: u["text"] for u in api.of("chat.update") if "*Trust score:*" in u["text"]}
    return list(finals.values())


def test_a_signed_mention_and_its_follow_up_are_answered_by_the_worker(
    slack,  # noqa: F811
    slack_api: FakeSlackServer,  # noqa: F811
    llm_server: FakeOpenAIServer,
    tmp_path,
):
    env = {
        "SLACK_API_URL": slack_api.api_url,
        "BOT_EDIT_INTERVAL_SECONDS": "0",
        "LLM_PROVIDER": "openai",
        "OPENAI_BASE_URL": f"{llm_server.origin}/v1",
        "OPENAI_API_KEY": "test-key",
        "LLM_MODEL": "fake-gpt",
    }
    purge(REDIS_BROKER)
    web_log = str(tmp_path / "web.log")
    with (
        web_server(REDIS_BROKER, log_file=web_log, **env) as origin,
        celery_worker(REDIS_BROKER, **env),
    ):
        response = _post(origin, event_payload(mention(QUESTION, ts="5000.000001")))
        assert (response.status_code, response.json()) == (200, {"ok": True})
        [first] = wait_until(lambda: _finals(slack_api), timeout=120)
        llm_server.reset()

        follow_up = "And how do I activate it?"
        later = mention(follow_up, ts="5000.000009", thread_ts="5000.000001")
        assert _post(origin, event_payload(later)).status_code == 200
        _, second = wait_until(lambda: _finals(slack_api)[1:] and _finals(slack_api), timeout=120)

    thinking = slack_api.of("chat.postMessage")
    assert [(p["text"], p["thread_ts"]) for p in thinking] == [("Thinking…", "5000.000001")] * 2
    # Each reply edits its own "Thinking…" message: partials as the answer streams, then the
    # final text; no edit goes to any other message.
    posted = [call.ts for call in slack_api.calls if call.method == "chat.postMessage"]
    updates = slack_api.of("chat.update")
    assert len(set(posted)) == 2 and {u["ts"] for u in updates} == set(posted)
    for ts in posted:
        *partials, final = [u["text"] for u in updates if u["ts"] == ts]
        assert "*Trust score:*" in final
        assert any(text.endswith(" …") for text in partials), partials
    assert "venv" in first and "venv" in second
    # The follow-up's prompt carries the thread's first exchange as history.
    [answer_prompt] = [str(b["messages"]) for b in llm_server.prompts() if b.get("stream")]
    binge = Thread.objects.get(thread_id="5000.000001").binge
    assert f"Q: {binge.root_question.question}" in answer_prompt
    assert binge.root_question.content[:40] in answer_prompt
    assert Question.objects.filter(binge=binge, user_question=follow_up).exists()

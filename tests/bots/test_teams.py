"""The Teams bot end to end: activities signed as the Bot Connector signs them through
/api/teams/messages/, answers written by the Celery task (eager) into a loopback stand-in of
the Bot Connector, its token endpoint and its OpenID metadata."""

import re

from openguru.answers.models import Question
from openguru.answers.site.selectors import site_questions
from openguru.integrations.models import Integration, TeamsActivity, Thread

from tests.bots.teams_helpers import (
    APP_SECRET,
    CHANNEL,
    QUESTION,
    TENANT,
    activity,
    post_activity,
)
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.teams_server import FakeTeamsServer, rsa_key

ADAPTIVE = "application/vnd.microsoft.card.adaptive"


def _card_text(body: dict) -> str:
    [attachment] = body["attachments"]
    assert attachment["contentType"] == ADAPTIVE
    assert attachment["content"]["type"] == "AdaptiveCard"
    return "\n".join(block["text"] for block in attachment["content"]["body"])


def test_a_mention_is_answered_in_its_thread_streamed_then_final(
    teams: Integration, teams_api: FakeTeamsServer, llm_server: FakeOpenAIServer
):
    response = post_activity(
        activity(teams_api, QUESTION, activity_id="1001"), token=teams_api.activity_token()
    )

    assert response.status_code == 202
    [token_request] = teams_api.token_requests
    assert token_request["tenant"] == TENANT
    assert token_request["client_secret"] == APP_SECRET
    assert token_request["scope"] == "https://api.botframework.com/.default"
    [thinking] = teams_api.of("POST")
    thread = f"{CHANNEL};messageid=1001"
    assert (thinking.conversation_id, thinking.body["text"]) == (thread, "Thinking…")
    assert thinking.body["replyToId"] == "1001"
    updates = teams_api.of("PUT")
    assert len(updates) >= 2  # at least one update while streaming, then the whole answer
    assert {(u.conversation_id, u.activity_id) for u in updates} == {(thread, thinking.activity_id)}
    assert updates[0].body["text"].endswith(" …") and "attachments" not in updates[0].body
    final = updates[-1].body
    assert "venv" in final["text"] and "Trust score" not in final["text"]
    card = _card_text(final)
    assert re.search(
        r"\[1\] \[Virtual environments\]\(https://docs\.example\.org/virtual-env", card
    )
    assert re.search(r"Trust score: \d+%", card)
    question = Question.objects.get(source=Question.Source.TEAMS)
    assert Thread.objects.get(thread_id=thread).binge.root_question == question
    assert question.user_question == QUESTION  # the mention is not part of the question
    assert not site_questions().filter(pk=question.pk).exists()  # the team's, not public


def test_a_follow_up_in_the_reply_chain_continues_the_binge(
    teams: Integration, teams_api: FakeTeamsServer, llm_server: FakeOpenAIServer
):
    post_activity(
        activity(teams_api, QUESTION, activity_id="2001"), token=teams_api.activity_token()
    )
    llm_server.reset()

    follow_up = "And how do I activate it?"
    reply = activity(teams_api, follow_up, activity_id="2005", root="2001")
    post_activity(reply, token=teams_api.activity_token())

    [answer_prompt] = [str(b["messages"]) for b in llm_server.prompts() if b.get("stream")]
    binge = Thread.objects.get(thread_id=f"{CHANNEL};messageid=2001").binge
    assert f"Q: {binge.root_question.question}" in answer_prompt
    second = Question.objects.get(binge=binge)
    assert (second.user_question, second.parent) == (follow_up, binge.root_question)
    assert len(teams_api.bot_tokens) == 1  # the bot's token is kept until it expires


def test_forged_expired_or_foreign_tokens_are_refused(
    teams: Integration, teams_api: FakeTeamsServer
):
    body = activity(teams_api, QUESTION, activity_id="3001")
    refused = {
        "forged": teams_api.activity_token(key=rsa_key()),
        "expired": teams_api.activity_token(expires_in=-600),
        "another app": teams_api.activity_token(audience="00000000-0000-0000-0000-0000000000ff"),
        "another issuer": teams_api.activity_token(issuer="https://sts.windows.net/evil/"),
        "another connector": teams_api.activity_token(service_url="https://evil.example/"),
        "not a JWT": "not-a-jwt",
    }
    for name, token in refused.items():
        response = post_activity(body, token=token)
        assert response.status_code == 401, name
        assert response.json()["code"] == "not_authenticated", name
    assert post_activity(body, token=None).status_code == 401

    assert teams_api.calls == [] and not TeamsActivity.objects.exists()
    assert post_activity(body, token=teams_api.activity_token()).status_code == 202
    assert [call.method for call in teams_api.calls][:1] == ["POST"]


def test_a_redelivered_activity_is_answered_once(teams: Integration, teams_api: FakeTeamsServer):
    body = activity(teams_api, QUESTION, activity_id="4001")
    for _ in range(2):
        assert post_activity(body, token=teams_api.activity_token()).status_code == 202

    assert len(teams_api.of("POST")) == 1
    assert Question.objects.filter(source=Question.Source.TEAMS).count() == 1


def test_what_is_not_for_the_bot_is_not_answered(teams: Integration, teams_api: FakeTeamsServer):
    token = teams_api.activity_token()
    unmentioned = activity(teams_api, QUESTION, activity_id="5001", mention=False)
    personal = activity(teams_api, QUESTION, activity_id="5002", conversation_type="personal")
    typing = activity(teams_api, "", activity_id="5003") | {"type": "typing"}
    for body in (unmentioned, personal, typing):
        assert post_activity(body, token=token).status_code == 202
    assert teams_api.calls == []

    teams.dms_enabled = True
    teams.save()
    post_activity(personal, token=token)
    assert [call.conversation_id for call in teams_api.of("POST")] == ["a:1Xpersonal-chat-id"]


def test_a_private_gurus_bot_answers_only_its_own_tenant(
    teams: Integration, teams_api: FakeTeamsServer
):
    teams.guru.visibility = "private"
    teams.guru.save()
    foreign = activity(teams_api, QUESTION, activity_id="6001", tenant="another-tenant")

    assert post_activity(foreign, token=teams_api.activity_token()).status_code == 202
    assert teams_api.calls == []


def test_with_chats_listed_a_mention_elsewhere_says_how_to_enable_it(
    teams: Integration, teams_api: FakeTeamsServer
):
    teams.channels = [{"id": "19:chat", "name": "help", "mode": "mention"}]
    teams.save()
    token = teams_api.activity_token()

    post_activity(activity(teams_api, QUESTION, activity_id="8001"), token=token)
    empty = activity(teams_api, "", activity_id="8002", conversation_type="groupChat")
    post_activity(empty, token=token)

    notice, ask = (call.body["text"] for call in teams_api.of("POST"))
    assert "don't answer in this channel yet" in notice and CHANNEL in notice
    assert ask.startswith("Ask me a question about")  # in the listed chat, a mention alone
    assert not Question.objects.exists()

"""The GitHub App bot end to end: signed webhook deliveries in GitHub's shapes through
/api/github/app/webhook/, answered by the Celery task (eager) into a loopback stand-in of
GitHub's API (the app's JWT minting installation tokens, REST comments, GraphQL)."""

import json
import time

from openguru.answers.models import Question
from openguru.integrations.models import GitHubAppDelivery, Integration, Thread
from openguru.sources.models import DataSource

from tests.bots.github_app_fixtures import (
    DISCUSSION_NODE,
    REPO,
    SLUG,
    deliver,
    discussion_answered,
    discussion_comment,
    discussion_opened,
    issue_comment,
    issue_opened,
    signature,
)
from tests.fakes.github_app_server import FakeGitHubApp
from tests.fakes.openai_server import FakeOpenAIServer

QUESTION = "How do I create a virtual environment?"


def test_a_mention_in_an_issue_is_answered_once_with_sources_and_trust_score(
    github_bot: Integration, github_api: FakeGitHubApp, llm_server: FakeOpenAIServer
):
    response = deliver("issue_comment", issue_comment(7, f"@{SLUG} {QUESTION}"))

    assert response.status_code == 200
    assert response.json() == {"ok": True, "answering": True}
    [reply] = github_api.comments
    assert (reply.repository, reply.number) == (REPO, 7)
    assert "venv" in reply.body
    assert (
        "**Sources:** [1] [Virtual environments](https://docs.example.org/virtual-environments"
        in reply.body
    )
    assert "**Trust score:**" in reply.body and "%" in reply.body
    assert reply.token == github_api.minted[0]  # an installation token the app's JWT minted
    question = Question.objects.get(source=Question.Source.GITHUB)
    assert question.user_question == QUESTION
    assert Thread.objects.get(channel_id=REPO, thread_id="issue/7").binge.root_question == question


def test_a_redelivery_posts_nothing(github_bot: Integration, github_api: FakeGitHubApp):
    payload = issue_comment(8, f"@{SLUG} {QUESTION}")
    first = deliver("issue_comment", payload, delivery="d-8")
    again = deliver("issue_comment", payload, delivery="d-8")

    assert first.json()["answering"] is True
    assert (again.status_code, again.json()) == (200, {"ok": True, "answering": False})
    assert len(github_api.comments) == 1
    assert Question.objects.filter(source=Question.Source.GITHUB).count() == 1
    assert GitHubAppDelivery.objects.get(delivery_id="d-8").reply_id


def test_a_follow_up_mention_in_the_thread_continues_the_binge(
    github_bot: Integration, github_api: FakeGitHubApp, llm_server: FakeOpenAIServer
):
    deliver("issue_comment", issue_comment(9, f"@{SLUG} {QUESTION}"))
    llm_server.reset()

    follow_up = "And how do I activate it?"
    deliver("issue_comment", issue_comment(9, f"Thanks! @{SLUG}[bot] {follow_up}"))

    [prompt] = [str(b["messages"]) for b in llm_server.prompts() if b.get("stream")]
    binge = Thread.objects.get(channel_id=REPO, thread_id="issue/9").binge
    assert f"Q: {binge.root_question.question}" in prompt  # the first exchange is history
    second = Question.objects.get(binge=binge)
    assert second.user_question == f"Thanks! {follow_up}" and second.parent == binge.root_question
    assert [c.number for c in github_api.comments] == [9, 9]


def test_forged_or_unsigned_deliveries_are_401_and_post_nothing(
    github_bot: Integration, github_api: FakeGitHubApp
):
    payload = issue_comment(10, f"@{SLUG} {QUESTION}")
    forged = deliver(
        "issue_comment", payload, headers={"HTTP_X_HUB_SIGNATURE_256": signature(b"{}", "guess")}
    )
    unsigned = deliver("issue_comment", payload, headers={"HTTP_X_HUB_SIGNATURE_256": ""})
    other_body = deliver(
        "issue_comment", payload, headers={"HTTP_X_HUB_SIGNATURE_256": signature(b"{}")}
    )

    assert [r.status_code for r in (forged, unsigned, other_body)] == [401, 401, 401]
    assert forged.json()["code"] == "not_authenticated"
    assert github_api.comments == [] and not GitHubAppDelivery.objects.exists()


def test_an_expired_installation_token_is_renewed(
    github_bot: Integration, github_api: FakeGitHubApp
):
    # GitHub's token outlives its cache entry by the minute githubkit keeps in hand.
    github_api.token_lifetime = 63
    deliver("issue_comment", issue_comment(11, f"@{SLUG} {QUESTION}"))
    time.sleep(3.2)
    github_api.expire_tokens()

    deliver("issue_comment", issue_comment(12, f"@{SLUG} {QUESTION}"))

    assert len(github_api.minted) == 2
    assert [c.token for c in github_api.comments] == github_api.minted


def test_a_token_github_refuses_before_its_expiry_is_replaced_once(
    github_bot: Integration, github_api: FakeGitHubApp
):
    deliver("issue_comment", issue_comment(13, f"@{SLUG} {QUESTION}"))
    github_api.expire_tokens()  # revoked: still cached here, 401 at GitHub

    deliver("issue_comment", issue_comment(14, f"@{SLUG} {QUESTION}"))

    assert len(github_api.minted) == 2
    assert [c.number for c in github_api.comments] == [13, 14]
    assert github_api.comments[1].token == github_api.minted[1]


def test_only_mentions_are_answered_and_never_a_bots_own_words(
    github_bot: Integration, github_api: FakeGitHubApp
):
    plain = deliver("issue_comment", issue_comment(15, QUESTION))
    own = deliver(
        "issue_comment", issue_comment(15, f"@{SLUG} {QUESTION}", sender=f"{SLUG}[bot]", kind="Bot")
    )
    lookalike = deliver("issue_comment", issue_comment(15, f"@{SLUG}-fan {QUESTION}"))
    new_issue = deliver("issues", issue_opened(16, QUESTION))

    assert [r.json()["answering"] for r in (plain, own, lookalike, new_issue)] == [False] * 4
    assert github_api.comments == [] and not Question.objects.exists()


def test_a_repository_set_to_all_answers_new_issues_with_its_labels(
    github_bot: Integration, github_api: FakeGitHubApp
):
    github_bot.github_app.repositories = {REPO: {"mode": "all", "labels": ["question"]}}
    github_bot.github_app.save()

    unlabelled = deliver("issues", issue_opened(17, QUESTION, "I am new to Python."))
    labelled = deliver("issues", issue_opened(18, QUESTION, "I am new.", labels=("Question",)))

    assert (unlabelled.json()["answering"], labelled.json()["answering"]) == (False, True)
    [reply] = github_api.comments
    assert reply.number == 18 and "venv" in reply.body
    assert Question.objects.get().user_question == f"{QUESTION}\n\nI am new."


def test_a_mention_in_a_discussion_is_answered_in_its_thread_through_graphql(
    github_bot: Integration, github_api: FakeGitHubApp
):
    response = deliver("discussion_comment", discussion_comment(f"@{SLUG} {QUESTION}"))

    assert response.json()["answering"] is True
    [reply] = github_api.comments
    assert (reply.discussion_id, reply.reply_to) == (DISCUSSION_NODE, "DC_kwDOc601")
    assert "venv" in reply.body and "**Trust score:**" in reply.body
    assert Thread.objects.filter(thread_id="discussion/1").exists()


def test_a_refusal_says_so_politely_and_suggests_where_to_look(
    github_bot: Integration, github_api: FakeGitHubApp
):
    deliver("issue_comment", issue_comment(19, f"@{SLUG} What is the capital of Mongolia?"))

    [reply] = github_api.comments
    assert reply.body.startswith("Sorry, I couldn't find this")
    assert "Trust score" not in reply.body and "Sources" not in reply.body
    assert "](https://docs.example.org/" in reply.body  # some of the guru's sources to look in


def test_an_accepted_discussion_answer_becomes_an_faq_entry_linking_back_once(
    github_bot: Integration, github_api: FakeGitHubApp
):
    answered = discussion_answered("Run `python -m venv .venv` in the project.")
    deliver("discussion", answered)  # the repository has not opted in: nothing is added
    assert not DataSource.objects.filter(type=DataSource.Type.FAQ).exists()
    github_bot.github_app.repositories = {REPO: {"mode": "mention", "faq": True}}
    github_bot.github_app.save()

    first = deliver("discussion", answered)
    again = deliver("discussion", answered)

    assert first.json() == again.json() == {"ok": True, "answering": False}
    [faq] = DataSource.objects.filter(type=DataSource.Type.FAQ)
    assert faq.url == f"https://github.com/{REPO}/discussions/1" and faq.title == "Environments"
    [pair] = json.loads(faq.content)
    assert pair == {
        "question": "Environments\n\nWhich tool makes one?",
        "answer": "Run `python -m venv .venv` in the project.",
    }
    assert github_api.comments == []


def test_a_mention_in_a_new_issue_is_answered_in_it(
    github_bot: Integration, github_api: FakeGitHubApp
):
    response = deliver("issues", issue_opened(26, "Virtual environments", f"@{SLUG} {QUESTION}"))

    assert response.json()["answering"] is True
    [reply] = github_api.comments
    assert (reply.repository, reply.number) == (REPO, 26) and "venv" in reply.body
    question = Question.objects.get(source=Question.Source.GITHUB)
    assert question.user_question == f"Virtual environments\n\n{QUESTION}"
    assert Thread.objects.get(channel_id=REPO, thread_id="issue/26").binge.root_question == question


def test_a_mention_in_a_new_discussion_is_answered_with_a_top_level_comment(
    github_bot: Integration, github_api: FakeGitHubApp
):
    response = deliver("discussion", discussion_opened(f"@{SLUG} {QUESTION}"))

    assert response.json()["answering"] is True
    [reply] = github_api.comments
    assert (reply.discussion_id, reply.reply_to) == (DISCUSSION_NODE, None)
    assert "venv" in reply.body and "**Trust score:**" in reply.body
    assert Thread.objects.filter(channel_id=REPO, thread_id="discussion/1").exists()

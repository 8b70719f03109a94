"""Gurubase's widget protocol, as its widget calls it (through uvicorn, from an allowed page):
the guru's look, the answer as a raw markdown stream and then as JSON, follow-up sessions,
suggested next questions and votes."""

import json

import httpx
import pytest
from openguru.answers.models import Question, Vote
from openguru.answers.selectors import question_vote_counts

from tests.answers.conftest import json_calls, stream_calls
from tests.answers.test_answer_engine import IN_SCOPE, OUT_OF_SCOPE
from tests.widget.conftest import SITE

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER_KEYS = {"slug", "content", "question", "date_updated", "trust_score", "references"}


def ask(base: str, headers: dict[str, str], question: str, **body: object) -> httpx.Response:
    payload = {"question": question, "parent_slug": None, "binge_id": None, **body}
    return httpx.post(f"{base}/api/widget/ask/", json=payload, headers=headers, timeout=30)


def test_the_guru_as_the_widget_draws_it(live_asgi, python_guru, widget_headers):
    python_guru.icon_url = "https://docs.example.com/logo.png"
    python_guru.save()
    body = httpx.get(f"{live_asgi}/api/widget/guru/", headers=widget_headers).json()
    assert body == {
        "colors": {"base_color": python_guru.base_color},
        "icon_url": "https://docs.example.com/logo.png",
        "name": "Python",
        "slug": "python",
        # Nothing asked yet: the titles of its sources.
        "example_questions": body["example_questions"],
        "versions": [],  # its sources carry no version label: no selector
        "default_version": "",
    }
    assert sorted(body["example_questions"]) == [  # made from the sources' titles
        "How do exceptions work?",
        "How do list comprehensions work?",
        "How do virtual environments work?",
    ]
    ask(live_asgi, widget_headers, IN_SCOPE)
    examples = httpx.get(f"{live_asgi}/api/widget/guru/", headers=widget_headers).json()
    assert examples["example_questions"][0] == Question.objects.get().question


def test_a_guru_without_an_icon_gets_its_initial_on_its_colour(
    live_asgi, python_guru, widget_headers
):
    # Gurubase's widget draws icon_url as an <img>: an empty one would be a broken image.
    python_guru.base_color = "#0a7d4f"
    python_guru.save()
    # The server's first answer (imports, connections) is slow on a busy machine.
    guru = httpx.get(f"{live_asgi}/api/widget/guru/", headers=widget_headers, timeout=60)
    body = guru.json()
    assert body["icon_url"].startswith(f"{live_asgi}/api/gurus/python/icon.svg?v=")
    icon = httpx.get(body["icon_url"], headers={"Origin": SITE})
    assert icon.status_code == 200
    assert icon.headers["content-type"] == "image/svg+xml"
    assert icon.headers["cross-origin-resource-policy"] == "cross-origin"
    assert 'fill="#0a7d4f"' in icon.text and ">P</text>" in icon.text
    # A colour that is not one never reaches the markup.
    python_guru.base_color = '"><script>'
    python_guru.save()
    assert "<script>" not in httpx.get(body["icon_url"]).text


def test_the_answer_streams_as_markdown_then_reads_back_as_json(
    live_asgi, python_guru, llm_server, widget_headers
):
    # The fake LLM sends its role chunk and one token, then holds the rest until released.
    release = llm_server.hold_streams(after_events=2)
    body = {"question": IN_SCOPE, "parent_slug": None, "binge_id": None, "fetch_existing": False}
    url = f"{live_asgi}/api/widget/ask/"
    with httpx.stream("POST", url, json=body, headers=widget_headers, timeout=30) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["access-control-allow-origin"] == SITE
        chunks = response.iter_text()
        received = ""
        while "\n\n" not in received or not received.split("\n\n", 1)[1]:
            received += next(chunks)  # the title line, then the first answer token
        assert received.startswith(f"# {IN_SCOPE}\n\n")
        assert not release.is_set()  # flushed while the LLM still holds the rest
        release.set()
        received += "".join(chunks)

    stored = ask(live_asgi, widget_headers, IN_SCOPE, fetch_existing=True)
    assert stored.status_code == 200
    answer = stored.json()
    assert set(answer) == ANSWER_KEYS
    assert received == f"# {IN_SCOPE}\n\n{answer['content']}"
    assert isinstance(answer["trust_score"], int) and 0 < answer["trust_score"] <= 100
    assert answer["references"][0] == {
        "question": "Virtual environments",
        "link": "https://docs.example.org/virtual-environments.html#virtual-environments",
        "icon": f"{live_asgi}/static/openguru/icons/text.svg",
    }
    # Gurubase's widget shows the icon as an image: the address must serve one.
    icon = httpx.get(answer["references"][0]["icon"])
    assert icon.status_code == 200 and b"<svg" in icon.content
    question = Question.objects.get(slug=answer["slug"])
    assert question.source == Question.Source.WIDGET
    assert question.trust_score * 100 == pytest.approx(answer["trust_score"], abs=0.5)
    # A widget answer is a short one.
    assert "at most 150 words" in stream_calls(llm_server)[0]["messages"][0]["content"]


def test_a_question_the_sources_do_not_cover_is_a_polite_refusal(
    live_asgi, python_guru, widget_headers
):
    response = ask(live_asgi, widget_headers, OUT_OF_SCOPE)
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"msg", "code", "not_error"}
    assert body["code"] == "no_answer" and body["not_error"] is True
    assert "sources" in body["msg"]
    invalid = ask(live_asgi, widget_headers, "")
    assert invalid.status_code == 400
    assert set(invalid.json()) == {"msg", "code"}  # a real error: no not_error


def test_fetch_existing_of_an_unasked_question_is_404(live_asgi, python_guru, widget_headers):
    response = ask(live_asgi, widget_headers, "Never asked before?", fetch_existing=True)
    assert response.status_code == 404
    assert response.json()["code"] == "question_not_found"


def test_a_follow_up_continues_its_session(live_asgi, python_guru, llm_server, widget_headers):
    ask(live_asgi, widget_headers, IN_SCOPE).read()
    first = ask(live_asgi, widget_headers, IN_SCOPE, fetch_existing=True).json()
    binge = httpx.post(
        f"{live_asgi}/api/widget/binge/",
        json={"question": "How do I activate it?", "root_slug": first["slug"]},
        headers=widget_headers,
    )
    assert binge.status_code == 200
    assert set(binge.json()) == {"id", "root_slug"}
    assert binge.json()["root_slug"] == first["slug"]
    binge_id = binge.json()["id"]

    follow_up = "How do I activate the virtual environment?"
    streamed = ask(
        live_asgi, widget_headers, follow_up, parent_slug=first["slug"], binge_id=binge_id
    )
    assert streamed.status_code == 200
    assert streamed.text.startswith(f"# {follow_up}\n\n")
    # The follow-up's prompt carries the conversation so far.
    assert IN_SCOPE in stream_calls(llm_server)[-1]["messages"][0]["content"]
    second = ask(
        live_asgi,
        widget_headers,
        follow_up,
        parent_slug=first["slug"],
        binge_id=binge_id,
        fetch_existing=True,
    ).json()
    saved = Question.objects.get(binge_id=binge_id)
    assert saved.slug == second["slug"]
    assert saved.parent is not None and saved.parent.slug == first["slug"]


def test_follow_up_examples_come_from_the_llm_once_per_answer(
    live_asgi, python_guru, llm_server, widget_headers
):
    ask(live_asgi, widget_headers, IN_SCOPE).read()
    slug = Question.objects.get().slug
    suggested = ["How do I activate it?", "How do I delete a virtual environment?"]
    llm_server.reset()
    llm_server.script(json.dumps({"questions": [*suggested, IN_SCOPE.upper(), ""]}))
    url = f"{live_asgi}/api/python/follow_up/examples/"
    body = {"binge_id": None, "question_slug": slug, "question_text": IN_SCOPE, "widget": True}
    first = httpx.post(url, json=body, headers=widget_headers, timeout=30)
    assert first.status_code == 200
    assert first.json() == suggested  # the asked question and blanks are dropped
    calls = json_calls(llm_server)
    assert len(calls) == 1
    assert calls[0]["response_format"]["type"] == "json_schema"
    assert Question.objects.get().content in calls[0]["messages"][1]["content"]
    again = httpx.post(url, json=body, headers=widget_headers, timeout=30)
    assert again.json() == suggested
    assert len(json_calls(llm_server)) == 1  # kept on the question


def test_follow_up_examples_without_an_llm_are_none(live_asgi, python_guru, widget_headers):
    ask(live_asgi, widget_headers, IN_SCOPE).read()
    slug = Question.objects.get().slug
    response = httpx.post(
        f"{live_asgi}/api/python/follow_up/examples/",
        json={"question_slug": slug, "binge_id": None},
        headers=widget_headers,
    )
    assert response.status_code == 200
    assert response.json() == []
    assert Question.objects.get().follow_up_examples is None  # tried again once there is one


def test_votes_are_stored_one_per_visitor(live_asgi, python_guru, widget_headers, settings):
    ask(live_asgi, widget_headers, IN_SCOPE).read()
    slug = Question.objects.get().slug
    url = f"{live_asgi}/api/python/record_vote/"
    up = {"content_slug": slug, "binge_id": None, "vote_type": "upvote", "feedback": ""}
    response = httpx.post(url, json=up, headers=widget_headers)
    assert response.status_code == 200
    assert response.json() == {"msg": "Vote recorded."}
    # The same visitor changes their mind: the vote is replaced, not added.
    down = {**up, "vote_type": "downvote", "feedback": "Too short."}
    assert httpx.post(url, json=down, headers=widget_headers).status_code == 200
    # Another visitor (the address a trusted proxy names) votes up.
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    other = {**widget_headers, "X-Real-IP": "198.51.100.7"}
    assert httpx.post(url, json=up, headers=other).status_code == 200

    question = Question.objects.get()
    assert question_vote_counts(question=question) == {"upvote": 1, "downvote": 1}
    mine = Vote.objects.get(question=question, vote_type="downvote")
    assert mine.feedback == "Too short." and mine.source == "WIDGET"
    assert "127.0.0.1" not in mine.voter and len(mine.voter) == 32


def test_votes_and_examples_name_the_widgets_own_guru(live_asgi, python_guru, widget_headers):
    for path in ("record_vote/", "follow_up/examples/"):
        response = httpx.post(
            f"{live_asgi}/api/rust/{path}",
            json={"content_slug": "x", "question_slug": "x", "vote_type": "upvote"},
            headers=widget_headers,
        )
        assert response.status_code == 404, path
        assert response.json()["code"] == "guru_not_found"
    unknown = httpx.post(
        f"{live_asgi}/api/python/record_vote/",
        json={"content_slug": "never-asked", "vote_type": "upvote"},
        headers=widget_headers,
    )
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "question_not_found"


def test_the_widget_offers_the_versions_and_asks_the_one_chosen(
    live_asgi, python_guru, widget_headers, llm_server
):
    from openguru.sources.models import DataSource

    from tests.answers.conftest import page_url

    DataSource.objects.filter(url=page_url("Virtual environments")).update(version="3.12")
    DataSource.objects.filter(url=page_url("Exceptions")).update(version="3.11")
    body = httpx.get(f"{live_asgi}/api/widget/guru/", headers=widget_headers, timeout=30).json()
    assert body["versions"] == ["3.12", "3.11"] and body["default_version"] == "3.12"

    question = "How do I handle exceptions with try and except?"
    assert ask(live_asgi, widget_headers, question, version="3.11").status_code == 200
    saved = ask(live_asgi, widget_headers, question, version="3.11", fetch_existing=True).json()
    links = {r["link"].split("#")[0] for r in saved["references"]}
    assert page_url("Exceptions") in links
    assert page_url("Virtual environments") not in links
    assert Question.objects.get(user_question=question).version == "3.11"
    unknown = ask(live_asgi, widget_headers, question, version="2.7")
    assert unknown.status_code == 400

"""The public Q&A site's endpoints: guru search, a guru's front page, the sitemap, an answer's
page (votes, children, follow-up sessions), votes and suggested follow-ups. Questions are made
by asking through the public ask endpoint, as visitors do."""

import json

import pytest
from django.core.cache import cache
from openguru.answers.models import Question, Vote
from openguru.gurus.models import Guru
from rest_framework.test import APIClient

from tests.answers.conftest import json_calls
from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db(transaction=True)

VENV = "How do I create a virtual environment with venv?"
COMPREHENSION = "How do I build a list with a list comprehension?"
ACTIVATE = "How do I activate the virtual environment before installing packages?"
QUESTION_KEYS = {"slug", "question", "description", "trust_score", "date_updated"}


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # the example questions are cached per guru id, and ids are reused
    yield
    cache.clear()


def ask(client: APIClient, question: str, **extra: str) -> dict:
    response = client.post("/api/gurus/python/answer/", {"question": question, **extra}, "json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["refused"] is False, body
    return body


def follow_up(client: APIClient, root_slug: str, question: str) -> tuple[str, dict]:
    binge = client.post("/api/gurus/python/binges/", {"root_slug": root_slug}, "json")
    assert binge.status_code == 201, binge.content
    binge_id = binge.json()["binge_id"]
    return binge_id, ask(client, question, binge_id=binge_id)


def vote(client: APIClient, slug: str, vote_type: str, **extra: str) -> dict:
    response = client.post(
        f"/api/gurus/python/questions/{slug}/vote/", {"vote_type": vote_type, **extra}, "json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def deactivate(guru: Guru) -> None:
    Guru.objects.filter(pk=guru.pk).update(active=False)


# --- GET /api/gurus/?q= ----------------------------------------------------------------------


def test_the_guru_list_is_searched_by_name_slug_and_domain(anon_client, python_guru):
    guru_make(slug="rustacean", name="Rust", domain_knowledge="Systems programming")
    hidden = guru_make(slug="python-drafts", name="Drafts", domain_knowledge="Unfinished")
    deactivate(hidden)

    def slugs(**params: str) -> list[str]:
        response = anon_client.get("/api/gurus/", params)
        assert response.status_code == 200
        return [g["slug"] for g in response.json()]

    assert slugs() == ["python", "rustacean"]  # ordered by name; the inactive one is hidden
    assert slugs(q="PYTH") == ["python"]  # the slug and name match; the inactive guru is out
    assert slugs(q="rustace") == ["rustacean"]  # by slug only
    assert slugs(q="systems") == ["rustacean"]  # by domain
    assert slugs(q="  ") == ["python", "rustacean"]
    assert slugs(q="haskell") == []
    assert slugs(q="a\x00b") == []
    first = anon_client.get("/api/gurus/", {"q": "python"}).json()[0]
    assert set(first) >= {"slug", "name", "domain_knowledge", "icon_url", "active"}


# --- GET /api/gurus/<slug>/overview/ ---------------------------------------------------------


def test_the_overview_without_answers_offers_questions_from_the_headings(anon_client, python_guru):
    response = anon_client.get("/api/gurus/python/overview/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {
        "example_questions", "recent", "popular", "sources", "indexable", "versions",
        "default_version",
    }  # fmt: skip
    assert body["indexable"] is True
    assert (body["versions"], body["default_version"]) == ([], "")  # no labels: no selector
    assert sorted(body["example_questions"]) == [
        "How do exceptions work?",
        "How do list comprehensions work?",
        "How do virtual environments work?",
    ]
    assert body["recent"] == body["popular"] == []
    assert body["sources"] == {
        "total": 3,
        "by_type": [{"type": "text", "count": 3}],
        # What the guru knows, by title (the front page lists these, not only the kinds).
        "titles": [
            {"title": title, "type": "text"}
            for title in ("Exceptions", "List comprehensions", "Virtual environments")
        ],
    }


def test_the_overview_lists_answered_root_questions_recent_and_popular(anon_client, python_guru):
    older = ask(anon_client, VENV)
    newer = ask(anon_client, COMPREHENSION)
    _, inside_session = follow_up(anon_client, older["slug"], ACTIVATE)
    Question.objects.create(  # asked, never answered: no page
        guru=python_guru, slug="unanswered", question="Unanswered?", user_question="unanswered"
    )
    vote(anon_client, older["slug"], "upvote")

    body = anon_client.get("/api/gurus/python/overview/").json()
    recent = [q["slug"] for q in body["recent"]]
    assert recent == [newer["slug"], older["slug"]]
    assert [q["slug"] for q in body["popular"]] == [older["slug"], newer["slug"]]
    assert inside_session["slug"] not in recent
    first = body["recent"][0]
    assert set(first) == QUESTION_KEYS
    saved = Question.objects.get(guru=python_guru, binge=None, slug=newer["slug"])
    assert first["question"] == saved.question
    assert first["description"] == saved.description
    assert 0 <= first["trust_score"] <= 1 and first["trust_score"] == saved.trust_score
    assert first["date_updated"].startswith(saved.updated_at.date().isoformat())


def test_example_questions_are_cached(anon_client, python_guru):
    first = anon_client.get("/api/gurus/python/overview/").json()["example_questions"]
    python_guru.sources.all().delete()
    cached = anon_client.get("/api/gurus/python/overview/").json()
    assert cached["example_questions"] == first
    assert cached["sources"]["total"] == 0  # the rest is read anew
    cache.clear()
    assert anon_client.get("/api/gurus/python/overview/").json()["example_questions"] == []


def test_without_chunks_to_read_the_examples_come_from_source_titles(anon_client, python_guru):
    from openguru.providers.vectorstore.factory import get_vector_store

    get_vector_store().drop_collection(python_guru.collection_name)
    python_guru.sources.filter(title="Exceptions").update(title="Errors — Python docs")
    examples = anon_client.get("/api/gurus/python/overview/").json()["example_questions"]
    assert sorted(examples) == [
        "How do errors work?",
        "How do list comprehensions work?",
        "How do virtual environments work?",
    ]


def test_with_an_llm_and_a_summary_the_examples_are_what_visitors_asked(
    anon_client, python_guru, llm_server
):
    asked = ask(anon_client, VENV)
    Guru.objects.filter(pk=python_guru.pk).update(summary="Python's docs: venv, lists, errors.")
    examples = anon_client.get("/api/gurus/python/overview/").json()["example_questions"]
    title = Question.objects.get(slug=asked["slug"], binge=None).question
    assert examples[0] == title
    assert len(examples) == 4  # then questions from the headings of the three pages
    assert len(set(examples)) == len(examples)


def test_an_unknown_or_inactive_guru_has_no_overview(anon_client, python_guru):
    assert anon_client.get("/api/gurus/nope/overview/").json()["code"] == "guru_not_found"
    deactivate(python_guru)
    response = anon_client.get("/api/gurus/python/overview/")
    assert response.status_code == 404
    assert response.json()["code"] == "guru_not_found"


# --- GET /api/sitemap/questions/ -------------------------------------------------------------


def test_the_sitemap_lists_answered_root_questions_of_active_gurus(anon_client, python_guru):
    older = ask(anon_client, VENV)
    newer = ask(anon_client, COMPREHENSION)
    follow_up(anon_client, older["slug"], ACTIVATE)
    other = guru_make(slug="other", name="Other", domain_knowledge="")
    Question.objects.create(
        guru=other, slug="elsewhere", question="Q", user_question="q", content="A."
    )
    deactivate(other)

    response = anon_client.get("/api/sitemap/questions/")
    assert response.status_code == 200
    rows = response.json()
    assert [(r["guru_slug"], r["slug"]) for r in rows] == [
        ("python", newer["slug"]),
        ("python", older["slug"]),
    ]
    assert set(rows[0]) == {"guru_slug", "slug", "date_updated"}


def test_questions_asked_in_a_teams_chat_get_no_public_page(anon_client, python_guru):
    public = ask(anon_client, VENV)
    private = (
        (Question.Source.SLACK, "in-slack"),
        (Question.Source.DISCORD, "in-dc"),
        (Question.Source.GITHUB, "in-gh"),
    )
    for source, slug in private:
        Question.objects.create(
            guru=python_guru,
            slug=slug,
            question="Q",
            user_question="q",
            content="A.",
            source=source,
        )

    sitemap = anon_client.get("/api/sitemap/questions/").json()
    assert [r["slug"] for r in sitemap] == [public["slug"]]
    overview = anon_client.get("/api/gurus/python/overview/").json()
    assert [q["slug"] for q in overview["recent"]] == [public["slug"]]
    assert [q["slug"] for q in overview["popular"]] == [public["slug"]]
    for slug in ("in-slack", "in-dc", "in-gh"):
        page = anon_client.get(f"/api/gurus/python/questions/{slug}/")
        assert page.status_code == 404
        assert page.json()["code"] == "question_not_found"
    assert anon_client.get(f"/api/gurus/python/questions/{public['slug']}/").status_code == 200


# --- GET /api/gurus/<slug>/questions/<question_slug>/ ----------------------------------------


def test_an_answer_page_has_its_votes_staleness_and_children(anon_client, python_guru):
    root = ask(anon_client, VENV)
    child = ask(anon_client, ACTIVATE, parent_slug=root["slug"])
    binge_id, in_session = follow_up(anon_client, root["slug"], COMPREHENSION)
    vote(anon_client, root["slug"], "downvote")
    Question.objects.filter(slug=root["slug"], binge=None).update(stale=True)

    response = anon_client.get(f"/api/gurus/python/questions/{root['slug']}/")
    assert response.status_code == 200, response.content
    page = response.json()
    assert page["slug"] == root["slug"]
    assert page["content"] and page["references"]  # the fields it had stay
    assert page["stale"] is True
    assert (page["upvotes"], page["downvotes"]) == (0, 1)
    assert page["children"] == [
        {"slug": child["slug"], "question": child["question"]},
        {"slug": in_session["slug"], "question": in_session["question"]},
    ]

    # A question asked in a follow-up session is found with its session only.
    path = f"/api/gurus/python/questions/{in_session['slug']}/"
    inside = anon_client.get(path, {"binge": binge_id})
    assert inside.status_code == 200, inside.content
    assert inside.json()["binge_id"] == binge_id
    assert inside.json()["parent_slug"] == root["slug"]
    assert anon_client.get(path).json()["code"] == "question_not_found"
    # The session's root question belongs to it too.
    root_path = f"/api/gurus/python/questions/{root['slug']}/"
    assert anon_client.get(root_path, {"binge": binge_id}).json()["slug"] == root["slug"]


def test_a_follow_up_asked_in_two_sessions_is_listed_once(anon_client, python_guru):
    root = ask(anon_client, VENV)
    _, first = follow_up(anon_client, root["slug"], COMPREHENSION)
    _, again = follow_up(anon_client, root["slug"], COMPREHENSION)
    assert first["slug"] == again["slug"]
    page = anon_client.get(f"/api/gurus/python/questions/{root['slug']}/").json()
    assert page["children"] == [{"slug": first["slug"], "question": first["question"]}]


def test_an_answer_page_refuses_bad_sessions_and_inactive_gurus(anon_client, python_guru):
    root = ask(anon_client, VENV)
    path = f"/api/gurus/python/questions/{root['slug']}/"
    malformed = anon_client.get(path, {"binge": "not-a-uuid"})
    assert malformed.status_code == 400
    assert malformed.json()["code"] == "invalid_input"
    unknown = anon_client.get(path, {"binge": "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40"})
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "not_found"
    deactivate(python_guru)
    assert anon_client.get(path).json()["code"] == "guru_not_found"


# --- POST .../vote/ --------------------------------------------------------------------------


def test_one_vote_per_visitor_and_answer(anon_client, python_guru):
    slug = ask(anon_client, VENV)["slug"]
    assert vote(anon_client, slug, "upvote") == {
        "msg": "Vote recorded.",
        "upvotes": 1,
        "downvotes": 0,
    }
    # Voting again replaces the visitor's vote.
    assert vote(anon_client, slug, "downvote", feedback="Too short.") == {
        "msg": "Vote recorded.",
        "upvotes": 0,
        "downvotes": 1,
    }
    other_visitor = APIClient(REMOTE_ADDR="203.0.113.9")
    assert vote(other_visitor, slug, "upvote")["upvotes"] == 1
    votes = Vote.objects.filter(question__slug=slug).order_by("created_at")
    assert [(v.vote_type, v.feedback, v.source) for v in votes] == [
        ("downvote", "Too short.", "USER"),
        ("upvote", "", "USER"),
    ]
    assert "127.0.0.1" not in votes[0].voter  # a keyed hash, never the address
    page = anon_client.get(f"/api/gurus/python/questions/{slug}/").json()
    assert (page["upvotes"], page["downvotes"]) == (1, 1)


def test_a_vote_in_a_follow_up_session_counts_on_that_answer(anon_client, python_guru):
    root = ask(anon_client, VENV)
    binge_id, in_session = follow_up(anon_client, root["slug"], COMPREHENSION)
    counts = vote(anon_client, in_session["slug"], "upvote", binge_id=binge_id)
    assert (counts["upvotes"], counts["downvotes"]) == (1, 0)
    assert Vote.objects.get().question.binge_id is not None
    outside = anon_client.post(
        f"/api/gurus/python/questions/{in_session['slug']}/vote/", {"vote_type": "upvote"}, "json"
    )
    assert outside.status_code == 404
    assert outside.json()["code"] == "question_not_found"


def test_a_bad_vote_is_refused(anon_client, python_guru):
    slug = ask(anon_client, VENV)["slug"]
    url = f"/api/gurus/python/questions/{slug}/vote/"
    wrong = anon_client.post(url, {"vote_type": "sideways"}, "json")
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "invalid_input"
    missing = anon_client.post(
        "/api/gurus/python/questions/nope/vote/", {"vote_type": "upvote"}, "json"
    )
    assert missing.status_code == 404
    assert missing.json()["code"] == "question_not_found"
    # A stale credential does not stop an anonymous vote.
    anon_client.credentials(HTTP_X_API_KEY="og_not-a-key", HTTP_AUTHORIZATION="Bearer wrong")
    assert anon_client.post(url, {"vote_type": "upvote"}, "json").status_code == 200
    deactivate(python_guru)
    gone = anon_client.post(url, {"vote_type": "upvote"}, "json")
    assert gone.status_code == 404
    assert gone.json()["code"] == "guru_not_found"
    assert Vote.objects.count() == 1


# --- GET .../follow-ups/ ---------------------------------------------------------------------


def test_follow_ups_without_an_llm_are_none(anon_client, python_guru):
    slug = ask(anon_client, VENV)["slug"]
    response = anon_client.get(f"/api/gurus/python/questions/{slug}/follow-ups/")
    assert response.status_code == 200
    assert response.json() == []


def test_follow_ups_come_from_the_llm_once_per_answer(anon_client, python_guru, llm_server):
    root = ask(anon_client, VENV)
    binge_id, in_session = follow_up(anon_client, root["slug"], COMPREHENSION)
    suggested = ["How do I filter items?", "Are comprehensions faster than loops?"]
    llm_server.reset()
    llm_server.script(json.dumps({"questions": suggested}))
    url = f"/api/gurus/python/questions/{in_session['slug']}/follow-ups/"
    first = anon_client.get(url, {"binge": binge_id})
    assert first.status_code == 200, first.content
    assert first.json() == suggested
    assert anon_client.get(url, {"binge": binge_id}).json() == suggested
    assert len(json_calls(llm_server)) == 1  # kept on the question
    assert anon_client.get(url).json()["code"] == "question_not_found"

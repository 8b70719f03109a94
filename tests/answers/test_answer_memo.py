"""A question asked again is served from the process's memo (`answers/answer_memo.py`) with the
guru read as its only query, and never once what it was served from has changed: the answer
regenerated, edited or deleted, its sources changed or relabelled, the guru's settings changed.
The access rule, the limits and the request's metrics still apply to every ask."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openguru.answers.channels.access import Asker
from openguru.answers.channels.prepare import Ask, Prepared, ask_prepare
from openguru.answers.channels.rules import Channel
from openguru.answers.engine import groundwork
from openguru.answers.engine.providers import providers_for
from openguru.answers.models import Question
from openguru.core.metrics import HTTP_REQUESTS
from openguru.core.models import PlatformSettings
from openguru.gurus.models import Guru, Visibility
from openguru.gurus.services import guru_update
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource
from openguru.sources.services import source_delete, source_reindex
from openguru.sources.versions import source_version_set
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db(transaction=True)

VENV = "How do I create a virtual environment with venv?"
ROUTE = "api/gurus/<slug:slug>/answer/"


@pytest.fixture(autouse=True)
def _fresh_limits(monkeypatch):
    cache.clear()  # the per-client ask limits count in the cache
    monkeypatch.setattr(groundwork, "_settings_cache", None)
    yield
    cache.clear()


def _ask(client: APIClient, question: str = VENV) -> dict:
    response = client.post("/api/gurus/python/answer/", {"question": question}, "json")
    assert response.status_code == 200, response.content
    return response.json()


def _prepare(question: str = VENV) -> Prepared:
    return ask_prepare(
        channel=Channel.SITE,
        asker=Asker(ip="203.0.113.9"),
        guru_slug="python",
        ask=Ask(question=question),
        providers_for=providers_for,
    )


def _remembered(client: APIClient) -> Question:
    """Answered, then served again from the database (which fills the memo)."""
    first = _ask(client)
    assert first.get("cached") is not True and first["content"]
    again = _ask(client)
    assert again.get("cached") is True
    remembered = _prepare().request.remembered
    assert remembered is not None and remembered.pk == first["id"]
    return remembered


def test_an_answer_asked_again_is_served_from_the_memo_with_one_query(anon_client, python_guru):
    question = _remembered(anon_client)

    with CaptureQueriesContext(connection) as queries:
        prepared = _prepare()
    assert prepared.request.remembered is not None
    assert prepared.request.remembered.pk == question.pk
    assert len(queries) == 1, [q["sql"] for q in queries]  # the guru, for the access rule
    assert "slug" in queries[0]["sql"]

    served = _ask(anon_client)
    assert served.get("cached") is True
    assert (served["id"], served["content"]) == (question.pk, question.content)
    # A differently worded question is not this one.
    assert _prepare("How do I handle exceptions?").request.remembered is None


def test_an_edited_answer_is_served_as_edited(anon_client, python_guru):
    question = _remembered(anon_client)

    question = Question.objects.get(pk=question.pk)
    question.content = "Use python -m venv .venv (edited)."
    question.save()

    assert _prepare().request.remembered is None
    assert _ask(anon_client)["content"] == "Use python -m venv .venv (edited)."
    remembered = _prepare().request.remembered
    assert remembered is not None and remembered.content == "Use python -m venv .venv (edited)."


def test_a_deleted_answer_is_not_served(anon_client, python_guru):
    question = _remembered(anon_client)

    Question.objects.filter(pk=question.pk).delete()

    assert _prepare().request.remembered is None
    answered = _ask(anon_client)
    assert answered.get("cached") is not True and answered["id"] != question.pk


def test_an_answer_whose_source_changed_is_refreshed_not_served(anon_client, python_guru):
    question = _remembered(anon_client)
    cited = DataSource.objects.get(guru=python_guru, title="Virtual environments")
    assert question.cited_sources.filter(pk=cited.pk).exists()
    changed = f"{cited.content}\nDelete a virtual environment by removing its directory.\n"
    DataSource.objects.filter(pk=cited.pk).update(content=changed)

    source_reindex(source=DataSource.objects.get(pk=cited.pk))  # indexed again, eagerly

    assert Question.objects.get(pk=question.pk).stale
    assert _prepare().request.remembered is None
    refreshed = _ask(anon_client)
    assert refreshed.get("cached") is not True  # answered anew from the changed source
    assert not Question.objects.get(pk=refreshed["id"]).stale
    # The refreshed answer is remembered in its turn, and is the one served.
    assert _ask(anon_client).get("cached") is True
    remembered = _prepare().request.remembered
    assert remembered is not None and remembered.pk == refreshed["id"]
    assert remembered.updated_at.isoformat() == _ask(anon_client)["date_updated"]


def test_an_answer_whose_source_was_deleted_is_not_served(anon_client, python_guru):
    question = _remembered(anon_client)
    cited = DataSource.objects.get(guru=python_guru, title="Virtual environments")

    source_delete(source=cited, store=get_vector_store())

    assert _prepare().request.remembered is None
    after = anon_client.post("/api/gurus/python/answer/", {"question": VENV}, "json").json()
    assert after.get("cached") is not True and after.get("id") != question.pk


def test_a_source_given_a_version_changes_what_is_looked_up(anon_client, python_guru):
    _remembered(anon_client)
    source = DataSource.objects.filter(guru=python_guru).exclude(title="Virtual environments")[0]

    source_version_set(source=source, version="3.12")

    # The guru is versioned now: the answer (unversioned) is not this version's answer.
    assert _prepare().request.remembered is None
    assert _ask(anon_client).get("cached") is not True


def test_a_change_to_the_gurus_settings_is_followed(anon_client, python_guru):
    _remembered(anon_client)

    guru_update(guru=Guru.objects.get(pk=python_guru.pk), data={"answer_mode": "fast"})

    assert _prepare().request.remembered is None
    assert _ask(anon_client).get("cached") is True
    assert _prepare().request.remembered is not None


def test_a_guru_made_private_is_not_served_to_an_anonymous_visitor(anon_client, python_guru):
    _remembered(anon_client)

    Guru.objects.filter(pk=python_guru.pk).update(visibility=Visibility.PRIVATE)

    response = anon_client.post("/api/gurus/python/answer/", {"question": VENV}, "json")
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "guru_not_found"


def test_the_answer_cache_switched_off_is_followed(anon_client, python_guru):
    _remembered(anon_client)

    PlatformSettings.objects.filter(pk=1).update(answer_cache_enabled=False)
    groundwork._settings_cache = None  # read the change now, not within the next seconds

    assert _prepare().request.remembered is None
    assert _ask(anon_client).get("cached") is not True


def test_an_ask_served_from_the_memo_is_still_counted(anon_client, python_guru, settings):
    """The per-client limit counts it, and the request metrics count it."""
    _remembered(anon_client)
    cache.clear()
    settings.ASK_RATE_LIMIT_PER_MINUTE = 2
    requests = HTTP_REQUESTS.labels(route=ROUTE, method="POST", status="200")
    before = requests._value.get()

    assert _ask(anon_client).get("cached") is True
    assert _ask(anon_client).get("cached") is True
    limited = anon_client.post("/api/gurus/python/answer/", {"question": VENV}, "json")

    assert limited.status_code == 429, limited.content
    assert requests._value.get() == before + 2

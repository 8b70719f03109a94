"""The one ask path's own rules (`answers/channels/prepare.py`), the same on every channel: a
session belongs to whoever opened it, and a follow-up naming a question of its session follows
that question. Asked through the site's and the widget's real endpoints, and through the prepare
step itself for the channels without an HTTP door of their own here."""

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from openguru.answers.channels.access import Asker
from openguru.answers.channels.prepare import Ask, ask_prepare
from openguru.answers.channels.rules import RULES, Channel
from openguru.answers.engine.providers import providers_for
from openguru.answers.models import Binge, Question
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.integrations.widget.services import widget_id_create
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db(transaction=True)

VENV = "How do I create a virtual environment with venv?"
COMPREHENSION = "How do I build a list with a list comprehension?"
ACTIVATE = "How do I activate the virtual environment before installing packages?"


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # the per-client ask limits count in the cache
    yield
    cache.clear()


def _site_ask(client: APIClient, question: str, **extra: str):
    return client.post("/api/gurus/python/answer/", {"question": question, **extra}, "json")


def _widget_ask(client: APIClient, guru: Guru, question: str, **extra: str):
    widget = widget_id_create(guru=guru, domain_pattern="https://docs.example.com")
    return client.post(
        "/api/widget/ask/",
        {"question": question, **extra},
        "json",
        HTTP_AUTHORIZATION=widget.key,
        HTTP_ORIGIN="https://docs.example.com",
    )


def _persons_session(guru: Guru) -> Binge:
    person = User.objects.create_user("api-user")
    root = Question.objects.create(
        guru=guru, slug="a-root", question=VENV, user_question=VENV, content="An answer."
    )
    return Binge.objects.create(guru=guru, root_question=root, owner=person)


def test_a_visitor_may_not_ask_in_a_persons_session_on_any_channel(anon_client, python_guru):
    """A key's person's session (opened through API v1) is theirs: anonymous visitors of the
    site and of the widget get a 404, as another key's person does."""
    binge = _persons_session(python_guru)

    on_site = _site_ask(anon_client, COMPREHENSION, binge_id=str(binge.pk))
    on_widget = _widget_ask(anon_client, python_guru, COMPREHENSION, binge_id=str(binge.pk))

    for response in (on_site, on_widget):
        assert response.status_code == 404, response.content
        assert response.json()["code"] == "not_found"
    assert not Question.objects.filter(binge=binge).exists()
    stranger = Asker(user=User.objects.create_user("someone-else"))
    for channel in (Channel.API, Channel.CHAT, Channel.MCP):
        with pytest.raises(DomainError) as refused:
            _prepare(channel, stranger, binge_id=binge.pk)
        assert refused.value.code == ErrorCode.NOT_FOUND
    owner = Asker(user=binge.owner)
    assert _prepare(Channel.API, owner, binge_id=binge.pk).binge == binge


def test_a_follow_up_naming_a_question_of_its_session_follows_that_one(anon_client, python_guru):
    """Without a name, a follow-up follows the session's latest question; naming an earlier
    one of the session, on the site as on the widget, it follows that one."""
    root = _site_ask(anon_client, VENV).json()
    started = anon_client.post("/api/gurus/python/binges/", {"root_slug": root["slug"]}, "json")
    binge_id = started.json()["binge_id"]
    first = _site_ask(anon_client, COMPREHENSION, binge_id=binge_id).json()
    latest = _site_ask(anon_client, ACTIVATE, binge_id=binge_id).json()
    assert Question.objects.get(slug=latest["slug"], binge_id=binge_id).parent.slug == first["slug"]

    named = _site_ask(anon_client, VENV, binge_id=binge_id, parent_slug=first["slug"])

    assert named.status_code == 200, named.content
    saved = Question.objects.get(slug=named.json()["slug"], binge_id=binge_id)
    assert saved.parent.slug == first["slug"]
    visitor = Asker(ip="203.0.113.9", guru=python_guru)
    by_widget = _prepare(Channel.WIDGET, visitor, binge_id=binge_id, parent_slug=first["slug"])
    assert by_widget.request.parent.slug == first["slug"]


def test_every_channel_has_its_rules_and_bots_answer_outside_the_web_slots():
    assert set(RULES) == set(Channel)
    outside = {
        Channel.SLACK,
        Channel.DISCORD,
        Channel.GITHUB,
        Channel.TEAMS,
        Channel.GENERATED,
    }  # workers, not web processes
    assert {c for c in Channel if not RULES[c].shed_load} == outside


def _prepare(channel: Channel, asker: Asker, **ask: object):
    return ask_prepare(
        channel=channel,
        asker=asker,
        guru_slug="python",
        ask=Ask(question=COMPREHENSION, **ask),  # type: ignore[arg-type]
        providers_for=providers_for,
    )

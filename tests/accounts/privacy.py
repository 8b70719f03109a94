"""A public or private guru and everyone who may call about it: people with each role (each
with a session and a key of their own), scoped keys in and out of the guru's scope, a
revoked key; and what each of them may do to it, from the roles alone, for the tables."""

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from openguru.accounts.models import Role
from openguru.answers.models import Binge, Question
from openguru.gurus.models import Guru, Visibility
from openguru.integrations.apikeys.services import api_key_create, api_key_delete
from openguru.integrations.models import APIKey, WidgetId
from openguru.integrations.widget.services import widget_id_create
from openguru.providers.embeddings.factory import get_embedder
from rest_framework.test import APIClient

from tests.accounts.conftest import make_guru, make_person

PEOPLE = ["member", "member_other", "maintainer", "maintainer_other", "admin"]
KEYS = ["key_in", "key_out", "revoked"]
ACTORS = ["anonymous", *PEOPLE, *KEYS]
QUESTION = "How do I create a virtual environment?"


@dataclass
class Stage:
    guru: Guru  # "python", public or private
    other: Guru
    question: Question  # an answer on python's site
    binge: Binge  # a follow-up session on it
    widget: WidgetId  # python's, for any site
    people: dict[str, User]
    keys: dict[str, str]  # raw keys: each person's own, and the scoped and revoked ones


def _scoped(owner: User, guru: Guru) -> str:
    _, raw = api_key_create(
        user=owner, name=f"only {guru.slug}", scope=APIKey.Scope.MANAGE, guru_slugs=[guru.slug]
    )
    return raw


def stage_make(visibility: str) -> Stage:
    cache.clear()  # rate-limit windows of earlier tests
    python, other = make_guru("python"), make_guru("other")
    embedder = get_embedder()  # so that searches and asks reach the (empty) index
    python.visibility = visibility
    python.embedding_model, python.embedding_dimension = embedder.model_name, embedder.dimension
    python.save()
    people = {
        "member": make_person("mia", Role.MEMBER, [python]),
        "member_other": make_person("moe", Role.MEMBER, [other]),
        "maintainer": make_person("max", Role.MAINTAINER, [python]),
        "maintainer_other": make_person("olga", Role.MAINTAINER, [other]),
        "admin": make_person("ada", Role.ADMIN),
    }
    keys = {name: api_key_create(user=user, name="own")[1] for name, user in people.items()}
    keys["key_in"] = _scoped(people["admin"], python)
    keys["key_out"] = _scoped(people["admin"], other)
    revoked, keys["revoked"] = api_key_create(user=people["admin"], name="old")
    api_key_delete(user=people["admin"], key_id=revoked.pk)
    question = Question.objects.create(
        guru=python, slug="how-venv", question=QUESTION, user_question=QUESTION, content="venv."
    )
    binge = Binge.objects.create(guru=python, root_question=question)
    widget = widget_id_create(guru=python, domain_pattern="*")
    return Stage(python, other, question, binge, widget, people, keys)


VISIBILITIES = {"params": [Visibility.PUBLIC, Visibility.PRIVATE], "ids": ["public", "private"]}


@pytest.fixture(**VISIBILITIES)
def stage(request, db, settings) -> Stage:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SLACK_CLIENT_ID, settings.SLACK_CLIENT_SECRET = "1.2", "secret"
    settings.SLACK_SIGNING_SECRET = "signing"  # so that the install link can be made
    return stage_make(request.param)


@pytest.fixture(**VISIBILITIES)
def committed_stage(request, transactional_db, settings) -> Stage:
    """For the async views, which read the database from threads of their own."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return stage_make(request.param)


def client_of(stage: Stage, actor: str) -> APIClient:
    """A person calls with their session and their own key; a key alone is just the key."""
    client = APIClient()
    if actor in PEOPLE:
        client.force_login(stage.people[actor])
    if actor != "anonymous":
        client.credentials(HTTP_X_API_KEY=stage.keys[actor])
    return client


def identity(actor: str, door: str) -> str:
    """Who the door sees: the site's and the credential-less doors read no key (a key's caller
    is a visitor there), the site reads the session, API v1 the key only."""
    if door == "none" or (door == "site" and actor not in PEOPLE):
        return "anonymous"
    return actor


def may_read(who: str, guru: Guru) -> bool:
    if who in {"admin", "key_in", "member", "maintainer"}:
        return True
    if who in {"key_out", "revoked"}:
        return False
    return guru.visibility == Visibility.PUBLIC


def may_manage(who: str) -> bool:
    return who in {"admin", "key_in", "maintainer"}

"""People with each role on two gurus, each calling with a real credential: an API key
(X-API-KEY), the admin token, or nothing; and a loopback SMTP server for the e-mail."""

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from openguru.accounts.models import GuruGrant, Role
from openguru.accounts.services import membership_set
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import api_key_create
from rest_framework.test import APIClient

from tests.fakes.smtp_server import LoopbackSMTPServer

PASSWORD = "a long and unusual passphrase"


def make_guru(slug: str) -> Guru:
    return Guru.objects.create(
        slug=slug,
        name=slug.title(),
        collection_name=f"guru_{slug}",
        embedding_model="fake-embedding",
        embedding_dimension=8,
    )


def make_person(username: str, role: Role, gurus: list[Guru] = ()) -> User:  # type: ignore[assignment]
    user = get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD)
    membership_set(user=user, role=role)
    for guru in gurus:
        GuruGrant.objects.create(user=user, guru=guru)
    return user


def key_client(user: User) -> APIClient:
    _, raw = api_key_create(user=user, name="test")
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=raw)
    return client


@dataclass
class Org:
    python: Guru
    other: Guru
    admin: User
    maintainer: User  # of python
    maintainer_other: User  # of other
    member: User  # granted python


@pytest.fixture
def org(db: None, settings) -> Org:
    cache.clear()  # rate-limit windows of earlier tests
    # Django's own advice for tests: the production hasher costs ~0.3 s per password.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    python, other = make_guru("python"), make_guru("other")
    return Org(
        python=python,
        other=other,
        admin=make_person("ada", Role.ADMIN),
        maintainer=make_person("max", Role.MAINTAINER, [python]),
        maintainer_other=make_person("olga", Role.MAINTAINER, [other]),
        member=make_person("mia", Role.MEMBER, [python]),
    )


def actor_client(org: Org, actor: str) -> APIClient:
    if actor == "anonymous":
        return APIClient()
    if actor == "admin_token":
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION="Bearer test-admin-token")
        return client
    return key_client(getattr(org, actor))


@pytest.fixture
def smtp(settings) -> Iterator[LoopbackSMTPServer]:
    server = LoopbackSMTPServer().start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = server.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.SITE_URL = "https://guru.example.com"
    try:
        yield server
    finally:
        server.stop()


def csrf_client() -> tuple[APIClient, str]:
    """A browser-like client (no CSRF exemption) and its CSRF token."""
    client = APIClient(enforce_csrf_checks=True)
    assert client.get("/api/auth/session/").status_code == 200
    return client, client.cookies["csrftoken"].value


# A public or a private guru and everyone who may call about it (privacy.py): below the
# helpers above, which it uses.
from tests.accounts.privacy import committed_stage, stage  # noqa: E402, F401

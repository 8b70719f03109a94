"""A private guru on the Q&A site (`next dev` against the real backend): its pages are a 404
for visitors and for people not granted it, a granted member reads them (the site forwards
the visitor's session) marked noindex, and sitemap.xml leaves its answers out."""

import httpx
import pytest
from django.conf import settings
from django.test import Client
from openguru.accounts.models import GuruGrant, Role
from openguru.accounts.services import membership_set
from openguru.answers.models import Question
from openguru.gurus.models import Guru, Visibility

from tests.browser.next_site import NextSite
from tests.browser.qa.conftest import site  # noqa: F401
from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db(transaction=True)

NOINDEX = '<meta name="robots" content="noindex, nofollow"/>'


def _session_of(username: str, granted: list[Guru]) -> dict[str, str]:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username)
    membership_set(user=user, role=Role.MEMBER)
    for guru in granted:
        GuruGrant.objects.create(user=user, guru=guru)
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return {"Cookie": f"{name}={client.cookies[name].value}"}


def test_a_private_gurus_pages_are_for_the_people_granted_it(site: NextSite):  # noqa: F811
    guru = guru_make(slug="secret", name="Secret")
    Guru.objects.filter(pk=guru.pk).update(visibility=Visibility.PRIVATE)
    Question.objects.create(
        guru=guru, slug="how-it-works", question="How does it work?",
        user_question="How does it work?", content="Quietly.",
    )  # fmt: skip
    page = f"{site.origin}/g/secret/how-it-works"
    member, stranger = _session_of("mia", [guru]), _session_of("moe", [])

    assert httpx.get(page, timeout=60).status_code == 404
    assert httpx.get(page, headers=stranger, timeout=60).status_code == 404
    granted = httpx.get(page, headers=member, timeout=60)
    assert granted.status_code == 200
    assert "Quietly." in granted.text and NOINDEX in granted.text
    front = httpx.get(f"{site.origin}/g/secret", headers=member, timeout=60)
    assert front.status_code == 200 and NOINDEX in front.text

    sitemap = httpx.get(f"{site.origin}/sitemap.xml", timeout=60).text
    assert "how-it-works" not in sitemap

    Guru.objects.filter(pk=guru.pk).update(visibility=Visibility.PUBLIC)
    public = httpx.get(page, timeout=60)
    assert public.status_code == 200 and NOINDEX not in public.text
    assert "how-it-works" in httpx.get(f"{site.origin}/sitemap.xml", timeout=60).text

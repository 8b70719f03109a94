"""Golden pairs through the admin API: a maintainer lists, adds and removes question →
expected-source pairs; anyone else is refused with a JSON error."""

import pytest
from openguru.evaluation.models import GoldenPair
from openguru.sources.models import DataSource
from rest_framework.test import APIClient

from tests.console.conftest import make_guru

PAIRS = "/api/gurus/python/golden/pairs/"


@pytest.fixture
def site(db) -> DataSource:
    """A website source (pages are not indexed here: pairs only name them)."""
    return DataSource.objects.create(
        guru=make_guru(), type="website", url="https://docs.example.org/", crawl_mode="crawl"
    )


def test_a_maintainer_adds_lists_and_removes_pairs(admin_client, site):
    page = "https://docs.example.org/venv.html"
    created = admin_client.post(
        PAIRS,
        {
            "question": "  How do I make a venv? ",
            "expected_source_id": site.pk,
            "expected_link": page,
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    pair = created.json()
    assert pair["question"] == "How do I make a venv?"
    assert (pair["expected_source_id"], pair["expected_link"], pair["origin"]) == (
        site.pk,
        page,
        "manual",
    )
    anywhere = admin_client.post(
        PAIRS, {"question": "Where is the FAQ?", "expected_source_id": site.pk}, format="json"
    )
    assert anywhere.status_code == 201 and anywhere.json()["expected_link"] == ""

    listed = admin_client.get(PAIRS).json()
    assert [p["id"] for p in listed] == [pair["id"], anywhere.json()["id"]]

    assert admin_client.delete(f"{PAIRS}{pair['id']}/").status_code == 204
    assert [p["id"] for p in admin_client.get(PAIRS).json()] == [anywhere.json()["id"]]
    gone = admin_client.delete(f"{PAIRS}{pair['id']}/")
    assert (gone.status_code, gone.json()["code"]) == (404, "not_found")


def test_a_pair_names_a_source_of_this_guru_once(admin_client, site):
    other = DataSource.objects.create(
        guru=make_guru("django"), type="text", url="text://other", content="x"
    )
    foreign = admin_client.post(
        PAIRS, {"question": "Q?", "expected_source_id": other.pk}, format="json"
    )
    assert (foreign.status_code, foreign.json()["code"]) == (404, "source_not_found")

    body = {"question": "Q?", "expected_source_id": site.pk}
    assert admin_client.post(PAIRS, body, format="json").status_code == 201
    again = admin_client.post(PAIRS, body, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "conflict")

    blank = admin_client.post(PAIRS, {"question": " ", "expected_source_id": site.pk})
    assert (blank.status_code, blank.json()["code"]) == (400, "invalid_input")
    assert GoldenPair.objects.count() == 1


def test_a_pair_of_another_guru_cannot_be_deleted_here(admin_client, site):
    other = DataSource.objects.create(
        guru=make_guru("django"), type="text", url="text://other", content="x"
    )
    theirs = GoldenPair.objects.create(guru=other.guru, question="Q?", expected_source=other)
    assert admin_client.delete(f"{PAIRS}{theirs.pk}/").status_code == 404
    assert GoldenPair.objects.filter(pk=theirs.pk).exists()


def test_deleting_the_source_deletes_its_pairs(site):
    GoldenPair.objects.create(guru=site.guru, question="Q?", expected_source=site)
    site.delete()
    assert not GoldenPair.objects.exists()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", PAIRS),
        ("POST", PAIRS),
        ("DELETE", PAIRS + "{pair}/"),
        ("GET", "/api/gurus/python/golden/runs/"),
        ("POST", "/api/gurus/python/golden/runs/"),
    ],
)
def test_an_anonymous_caller_is_refused(site, method, path):
    pair = GoldenPair.objects.create(guru=site.guru, question="Q?", expected_source=site)
    body = f'{{"question": "New?", "expected_source_id": {site.pk}}}'

    response = APIClient().generic(
        method, path.format(pair=pair.pk), body, content_type="application/json"
    )

    assert response.status_code in (401, 403), response.status_code
    assert response.json()["code"] in ("not_authenticated", "permission_denied")
    assert list(GoldenPair.objects.values_list("pk", flat=True)) == [pair.pk]


def test_a_signed_in_non_staff_user_is_refused(site, django_user_model):
    client = APIClient()
    client.force_login(django_user_model.objects.create_user("visitor", password="pw-123456"))
    response = client.get(PAIRS)
    assert (response.status_code, response.json()["code"]) == (403, "permission_denied")

"""Uploaded PDFs: stored under unguessable names, public ones open to anyone (they are citation
links), private ones to admins only, everyone else getting the 404 of a file that is not there."""

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.test import Client
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import api_key_create
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.sources.ingestion_helpers import chunks_of, guide_pdf, guru, upload

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # fixture, used by name


def _uploaded(admin_client: APIClient, name: str, *, private: bool) -> DataSource:
    response = upload(admin_client, name, guide_pdf(), private=private)
    assert response.status_code == 201, response.json()
    return DataSource.objects.get(pk=response.json()["id"])


def _stored_bytes(source: DataSource) -> bytes:
    with source.file.open("rb") as handle:
        return handle.read()


def _body(response) -> bytes:  # type: ignore[no-untyped-def]
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_an_upload_is_stored_under_a_random_directory_and_keeps_its_name_as_title(
    admin_client: APIClient, guru: Guru
) -> None:
    first = _uploaded(admin_client, "handbook.pdf", private=True)
    second = DataSource.objects.create(guru=guru, type="pdf", url="pdf://second", title="Second")
    second.file.save("handbook.pdf", ContentFile(guide_pdf()))
    assert re.fullmatch(r"sources/[\w-]{32}/handbook\.pdf", first.file.name), first.file.name
    assert first.file.name.split("/")[1] != second.file.name.split("/")[1]
    assert first.title == "handbook.pdf"
    assert first.url == first.file.url


def test_a_private_upload_is_for_admins_only(admin_client: APIClient, guru: Guru) -> None:
    source = _uploaded(admin_client, "internal-guide.pdf", private=True)
    anonymous = Client()
    guesses = [
        source.file.url,
        "/media/sources/2026/12/internal-guide.pdf",  # where uploads used to be stored
        "/media/sources/nothing-here/internal-guide.pdf",
    ]
    for url in guesses:
        response = anonymous.get(url)
        assert response.status_code == 404, url
        assert response.json()["code"]  # the same JSON 404 as for any missing address
    granted = admin_client.get(source.file.url)
    assert granted.status_code == 200
    assert granted["Content-Type"] == "application/pdf"
    assert granted["Cache-Control"] == "private, no-store"
    assert _body(granted) == _stored_bytes(source)


def test_a_staff_users_key_reads_a_private_upload_and_another_users_key_does_not(
    admin_client: APIClient, guru: Guru
) -> None:
    source = _uploaded(admin_client, "keys-guide.pdf", private=True)
    users = get_user_model().objects
    _, staff_key = api_key_create(user=users.create_user("staffer", is_staff=True), name="s")
    _, user_key = api_key_create(user=users.create_user("member"), name="m")
    assert Client().get(source.file.url, HTTP_X_API_KEY=staff_key).status_code == 200
    assert Client().get(source.file.url, HTTP_X_API_KEY=user_key).status_code == 404


def test_a_private_file_from_before_random_names_is_not_served_by_its_old_address(
    admin_client: APIClient, guru: Guru
) -> None:
    source = DataSource.objects.create(
        guru=guru, type="pdf", url="pdf://old", title="Old", private=True
    )
    name = source.file.storage.save("sources/2025/01/old-guide.pdf", ContentFile(guide_pdf()))
    DataSource.objects.filter(pk=source.pk).update(file=name)
    assert Client().get(f"/media/{name}").status_code == 404
    assert admin_client.get(f"/media/{name}").status_code == 200


def test_a_public_pdfs_citation_link_opens_for_anyone(admin_client: APIClient, guru: Guru) -> None:
    source = _uploaded(admin_client, "savanna-guide.pdf", private=False)
    links = {chunk.metadata["link"] for chunk in chunks_of(guru, source.pk)}
    assert links and all(re.search(r"#page=\d+$", link) for link in links), links
    for link in links:
        response = Client().get(urlsplit(link).path)
        assert response.status_code == 200, link
        assert _body(response) == _stored_bytes(source)


def test_behind_nginx_the_transfer_is_handed_over_with_x_accel_redirect(
    admin_client: APIClient, guru: Guru, settings: Settings
) -> None:
    settings.MEDIA_ACCEL_REDIRECT_PREFIX = "/protected-media/"
    public = _uploaded(admin_client, "open-guide.pdf", private=False)
    private = _uploaded(admin_client, "closed-guide.pdf", private=True)
    response = Client().get(public.file.url)
    assert response.status_code == 200
    assert response["X-Accel-Redirect"] == f"/protected-media/{public.file.name}"
    assert response.content == b""  # nginx sends the bytes
    denied = Client().get(private.file.url)
    assert denied.status_code == 404 and "X-Accel-Redirect" not in denied
    assert admin_client.get(private.file.url)["X-Accel-Redirect"].endswith(private.file.name)

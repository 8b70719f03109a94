"""API v1 `data-sources/` takes every uploadable format as multipart `files` (and `pdf_files`,
Gurubase's name): each becomes a source of its own type, indexed through the real pipeline, and
`answer/` cites the exact slide, sheet or heading."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.sources.file_makers import SAMPLES, many_parts

pytestmark = pytest.mark.django_db(transaction=True)

V1 = "/api/v1/field-guide"


def _files(*kinds: str) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(SAMPLES[k].name, SAMPLES[k].make()) for k in kinds]


def test_files_of_every_format_are_added_indexed_and_cited(admin_client, key_headers) -> None:
    created = admin_client.post("/api/gurus/", {"slug": "field-guide", "name": "F"}, format="json")
    assert created.status_code == 201, created.json()
    client = Client(headers=key_headers)

    added = client.post(f"{V1}/data-sources/", {"files": _files(*SAMPLES)})
    assert added.status_code == 200, added.json()
    results = added.json()
    assert [r["type"] for r in results] == [
        "DOCX", "PPTX", "XLSX", "CSV", "HTML", "MARKDOWN", "EPUB",
    ]  # fmt: skip
    assert {r["status"] for r in results} == {"success"}
    listed = client.get(f"{V1}/data-sources/").json()["results"]
    assert {s["status"] for s in listed} == {"SUCCESS"}, listed
    urls = {r["type"]: r["url"] for r in results}

    for kind, v1_type in (("pptx", "PPTX"), ("xlsx", "XLSX"), ("docx", "DOCX")):
        sample = SAMPLES[kind]
        answer = client.post(
            f"{V1}/answer/", {"question": sample.question}, content_type="application/json"
        )
        assert answer.status_code == 200, answer.json()
        references = answer.json()["references"]
        assert references[0]["link"].endswith(f"{urls[v1_type]}{sample.anchor}"), references
        assert references[0]["icon"] == "text"


def test_a_bad_file_refuses_the_whole_upload_and_a_zip_bomb_fails_in_words(
    admin_client, key_headers, settings
) -> None:
    admin_client.post("/api/gurus/", {"slug": "field-guide", "name": "F"}, format="json")
    client = Client(headers=key_headers)
    refused = client.post(
        f"{V1}/data-sources/",
        {"pdf_files": [*_files("docx"), SimpleUploadedFile("notes.txt", b"plain text")]},
    )
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_file")
    assert client.get(f"{V1}/data-sources/").json()["count"] == 0

    settings.FILE_ZIP_MAX_MEMBERS = 100
    bomb = client.post(
        f"{V1}/data-sources/", {"files": [SimpleUploadedFile("many.pptx", many_parts(101))]}
    )
    assert bomb.status_code == 200, bomb.json()
    source = client.get(f"{V1}/data-sources/").json()["results"][0]
    assert source["status"] == "FAIL"
    assert "zip bomb" in source["error"]

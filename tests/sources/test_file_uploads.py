"""Uploaded files beyond PDFs, end to end: a real file of each format, made in the test, goes in
through the admin API, the processing task reads it with the real loader, the chunks land in
Milvus Lite, and an answer cites the exact slide, sheet or heading. A broken file of each format
fails in words and leaves the previous index as it was; a zip bomb is refused before parsing."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.sources.file_makers import (
    MALFORMED,
    SAMPLES,
    briefing_pptx,
    handbook_docx,
    many_parts,
    park_xlsx,
    sightings_csv,
    zip_bomb,
)
from tests.sources.ingestion_helpers import (
    SLUG,
    assert_failed_for_a_reason,
    best_bm25_hit,
    bystander,
    chunks_of,
    detail_of,
    guru,
    reindex,
    snapshot,
    upload,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["bystander", "guru"]  # fixtures, used by name


def ask(client: APIClient, question: str) -> dict:
    response = client.post(f"/api/gurus/{SLUG}/answer/", {"question": question}, format="json")
    assert response.status_code == 200, response.json()
    return dict(response.json())


@pytest.mark.parametrize("kind", list(SAMPLES))
def test_an_uploaded_file_is_indexed_and_an_answer_cites_its_exact_part(
    admin_client: APIClient, anon_client: APIClient, guru: Guru, kind: str
) -> None:
    sample = SAMPLES[kind]
    response = upload(admin_client, sample.name, sample.make())
    assert response.status_code == 201, response.json()
    assert response.json()["type"] == kind
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS", detail
    source = DataSource.objects.get(pk=detail["id"])
    link = f"{source.file.url}{sample.anchor}"

    hit = best_bm25_hit(guru, detail["id"], sample.question)
    assert sample.fact in hit.text, hit.text
    assert hit.metadata["link"] == link, hit.metadata

    answer = ask(anon_client, sample.question)
    assert answer["references"], (answer, answer.get("content"))
    assert answer["references"][0]["link"] == link, answer["references"]
    if not sample.tabular:
        assert sample.fact in answer["content"], answer["content"]


def test_each_slide_and_sheet_is_a_part_of_its_own(admin_client: APIClient, guru: Guru) -> None:
    deck = detail_of(admin_client, upload(admin_client, "b.pptx", briefing_pptx()).json()["id"])
    book = detail_of(admin_client, upload(admin_client, "p.xlsx", park_xlsx()).json()["id"])
    slides = {c.metadata["link"].rsplit("#", 1)[1] for c in chunks_of(guru, deck["id"])}
    sheets = {c.metadata["link"].rsplit("#", 1)[1] for c in chunks_of(guru, book["id"])}
    assert slides == {"slide-1", "slide-2", "slide-3"}
    assert sheets == {"sheet-Animals", "sheet-Prices"}
    notes = best_bm25_hit(guru, deck["id"], "remind rangers ford")
    assert notes.metadata["link"].endswith("#slide-2") and "Notes:" in notes.text
    prices = best_bm25_hit(guru, book["id"], "day pass")
    assert prices.metadata["title"].endswith("sheet Prices")
    assert "Price in dollars: 12.5" in prices.text


def test_a_private_file_is_searchable_but_links_nowhere(
    admin_client: APIClient, guru: Guru
) -> None:
    response = upload(admin_client, "handbook.docx", handbook_docx(), private=True)
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS" and detail["private"] is True, detail
    chunks = chunks_of(guru, detail["id"])
    assert chunks and {chunk.metadata["link"] for chunk in chunks} == {""}
    assert "howls twice" in best_bm25_hit(guru, detail["id"], "dingo howls").text


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_broken_file_fails_in_words_and_keeps_the_previous_index(
    admin_client: APIClient, guru: Guru, bystander: int, case: str
) -> None:
    name, make, phrase = MALFORMED[case]
    others = snapshot(guru, bystander)
    response = upload(admin_client, name, make())
    assert response.status_code == 201, response.json()
    failed = detail_of(admin_client, response.json()["id"])
    assert_failed_for_a_reason(failed, phrase)
    assert chunks_of(guru, failed["id"]) == []

    # The same kind of file, indexed well once, then broken: its chunks stay until a run succeeds.
    good = next(sample for sample in SAMPLES.values() if Path(sample.name).suffix in name)
    indexed = detail_of(admin_client, upload(admin_client, good.name, good.make()).json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    kept = snapshot(guru, indexed["id"])
    Path(DataSource.objects.get(pk=indexed["id"]).file.path).write_bytes(make())
    assert_failed_for_a_reason(reindex(admin_client, indexed["id"]), phrase)
    assert snapshot(guru, indexed["id"]) == kept
    assert detail_of(admin_client, indexed["id"])["chunk_count"] == len(kept)
    assert snapshot(guru, bystander) == others


@pytest.mark.parametrize(
    ("name", "inner", "label"),
    [
        ("bomb.docx", "word/document.xml", "Word document"),
        ("bomb.pptx", "ppt/presentation.xml", "PowerPoint presentation"),
        ("bomb.xlsx", "xl/workbook.xml", "Excel workbook"),
        ("bomb.epub", "META-INF/container.xml", "EPUB book"),
    ],
)
def test_a_zip_bomb_is_refused_before_it_is_unpacked(
    admin_client: APIClient, guru: Guru, name: str, inner: str, label: str
) -> None:
    data = zip_bomb(inner)
    assert len(data) < 2 * 1024 * 1024, "small on disk: the size cap is not what stops it"
    failed = detail_of(admin_client, upload(admin_client, name, data).json()["id"])
    assert_failed_for_a_reason(failed, f"{label} would unpack to more than 200 MB", "zip bomb")


def test_a_zip_of_too_many_parts_is_refused(
    admin_client: APIClient, guru: Guru, settings: Settings
) -> None:
    settings.FILE_ZIP_MAX_MEMBERS = 500
    failed = detail_of(admin_client, upload(admin_client, "m.docx", many_parts(501)).json()["id"])
    assert_failed_for_a_reason(failed, "more than 500 parts", "zip bomb")


def test_spreadsheets_over_the_row_or_cell_cap_fail_in_words(
    admin_client: APIClient, guru: Guru, settings: Settings
) -> None:
    settings.SPREADSHEET_MAX_ROWS = 5  # the workbook has 5 + 3 rows in two sheets
    book = detail_of(admin_client, upload(admin_client, "p.xlsx", park_xlsx()).json()["id"])
    assert_failed_for_a_reason(book, "more than 5 rows", "split it")
    settings.SPREADSHEET_MAX_ROWS = 1000
    settings.SPREADSHEET_MAX_CELLS = 5  # 3 rows of 2 cells
    log = detail_of(admin_client, upload(admin_client, "s.csv", sightings_csv()).json()["id"])
    assert_failed_for_a_reason(log, "more than 5 cells")


def test_uploads_of_unknown_kinds_or_over_the_cap_are_refused_at_once(
    admin_client: APIClient, guru: Guru, settings: Settings
) -> None:
    unknown = upload(admin_client, "notes.txt", b"plain text")
    assert (unknown.status_code, unknown.json()["code"]) == (400, "invalid_file")
    assert "Word (.docx)" in unknown.json()["msg"] and "EPUB" in unknown.json()["msg"]
    settings.FILE_MAX_BYTES = 1000
    big = upload(admin_client, "handbook.docx", handbook_docx())
    assert (big.status_code, big.json()["code"]) == (413, "file_too_large")
    assert big.json()["msg"] == "Files may be at most 0.000953674 MB."
    assert not DataSource.objects.exists()


def test_files_are_served_with_their_type_and_html_in_a_sandbox(
    admin_client: APIClient, anon_client: APIClient, guru: Guru
) -> None:
    html = DataSource.objects.get(pk=upload(admin_client, "n.html", b"<h1>Hi</h1>").json()["id"])
    served = anon_client.get(html.file.url)
    assert served.status_code == 200
    assert served["Content-Type"] == "text/html"
    assert served["Content-Security-Policy"] == "sandbox"
    deck = DataSource.objects.get(pk=upload(admin_client, "b.pptx", briefing_pptx()).json()["id"])
    assert anon_client.get(deck.file.url)["Content-Type"].endswith("presentationml.presentation")


def test_add_source_reads_a_file_from_disk(guru: Guru, tmp_path: Path) -> None:
    path = tmp_path / "briefing.pptx"
    path.write_bytes(briefing_pptx())
    out = io.StringIO()
    call_command("add_source", SLUG, "pptx", str(path), "--private", stdout=out, stderr=out)
    assert "Indexed" in out.getvalue()
    source = DataSource.objects.get(guru=guru, type="pptx")
    assert (source.status, source.private, source.title) == ("SUCCESS", True, "briefing.pptx")
    assert source.chunk_count == len(chunks_of(guru, source.pk)) > 0

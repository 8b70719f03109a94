"""A long sheet is cited by the rows that hold the answer: an Excel workbook and a CSV file of
more than SPREADSHEET_PART_ROWS rows, made in the test, are indexed end to end (Milvus Lite),
and the search hit and the answer link to the sheet's row range, numbered as a spreadsheet
program shows them (the header is row 1, empty rows count)."""

import csv
import io

import openpyxl
import pytest
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.sources.ingestion_helpers import (
    ANIMALS,
    SLUG,
    best_bm25_hit,
    chunks_of,
    detail_of,
    guru,
    upload,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # a fixture, used by name

PART_ROWS = 10
HEADER = ["Ranger", "Animal", "Seen at"]
FACT_ROW = 25  # in the third part: rows 22-30
FACT = "Animal: Pangolin; Seen at: Hollow baobab"


def log_rows() -> list[list[str]]:
    """Rows 1 (header) to 30 of a sightings log; row 11 is empty and row 25 states the fact."""
    rows = [HEADER]
    for number in range(2, 31):
        animal = ANIMALS[number % len(ANIMALS)].title()
        rows.append([f"Ranger {number}", animal, f"Waterhole {number}"])
    rows[10] = []
    rows[FACT_ROW - 1] = ["Ranger 25", "Pangolin", "Hollow baobab"]
    return rows


def log_xlsx() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sightings log"
    for row in log_rows():
        sheet.append(row)  # an empty list still takes its row: row 11 stays empty
    book.create_sheet("Notes").append(["Note", "Gates close at six"])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def log_csv() -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(log_rows())
    return buffer.getvalue().encode()


CASES = {
    "xlsx": (
        "ranger-log.xlsx",
        log_xlsx,
        "sheet-Sightings%20log-",
        "ranger-log.xlsx — sheet Sightings log, rows 22-30",
        {"sheet-Notes"},
    ),
    "csv": ("ranger-log.csv", log_csv, "", "ranger-log.csv, rows 22-30", set()),
}


@pytest.mark.parametrize("kind", list(CASES))
def test_a_long_sheet_is_cited_by_the_rows_that_hold_the_answer(
    admin_client: APIClient,
    anon_client: APIClient,
    guru: Guru,
    settings: Settings,
    kind: str,
) -> None:
    settings.SPREADSHEET_PART_ROWS = PART_ROWS
    name, make, prefix, title, whole_sheets = CASES[kind]
    response = upload(admin_client, name, make())
    assert response.status_code == 201, response.json()
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS", detail
    url = DataSource.objects.get(pk=detail["id"]).file.url

    anchors = {c.metadata["link"].removeprefix(f"{url}#") for c in chunks_of(guru, detail["id"])}
    ranges = {f"{prefix}rows-1-10", f"{prefix}rows-12-21", f"{prefix}rows-22-30"}
    assert anchors == ranges | whole_sheets

    hit = best_bm25_hit(guru, detail["id"], "pangolin hollow baobab")
    assert FACT in hit.text, hit.text
    assert hit.metadata["link"] == f"{url}#{prefix}rows-22-30", hit.metadata
    assert hit.metadata["title"] == title

    answer = anon_client.post(
        f"/api/gurus/{SLUG}/answer/",
        {"question": "Which ranger saw the pangolin at the hollow baobab?"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    references = answer.json()["references"]
    assert references and references[0]["link"] == f"{url}#{prefix}rows-22-30", answer.json()


def test_a_sheet_of_exactly_one_part_is_cited_whole(
    admin_client: APIClient, guru: Guru, settings: Settings
) -> None:
    settings.SPREADSHEET_PART_ROWS = 29  # the 29 rows with a value: one part, no range
    detail = detail_of(admin_client, upload(admin_client, "log.csv", log_csv()).json()["id"])
    assert detail["status"] == "SUCCESS", detail
    url = DataSource.objects.get(pk=detail["id"]).file.url
    assert {chunk.metadata["link"] for chunk in chunks_of(guru, detail["id"])} == {url}


def test_the_rows_of_a_private_sheet_link_nowhere(
    admin_client: APIClient, guru: Guru, settings: Settings
) -> None:
    settings.SPREADSHEET_PART_ROWS = PART_ROWS
    response = upload(admin_client, "log.xlsx", log_xlsx(), private=True)
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS" and detail["private"] is True, detail
    assert {chunk.metadata["link"] for chunk in chunks_of(guru, detail["id"])} == {""}
    hit = best_bm25_hit(guru, detail["id"], "pangolin hollow baobab")
    assert FACT in hit.text and hit.metadata["title"].endswith("rows 22-30"), hit.metadata

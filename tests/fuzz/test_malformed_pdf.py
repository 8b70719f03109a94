"""Malformed PDFs through the whole pipeline (upload, worker, index): each ends FAILED with a
reason an admin can act on, in bounded time and memory, and a source that was indexed before
keeps its chunks, as does every other source of the guru."""

from collections.abc import Callable
from pathlib import Path

import pytest
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fuzz.malformed import (
    GIGABYTE,
    flate_bomb_pdf,
    heavy_text_pdf,
    nested_objects_pdf,
)
from tests.sources.ingestion_helpers import (
    assert_failed_for_a_reason,
    bystander,
    chunks_of,
    detail_of,
    guide_pdf,
    guru,
    reindex,
    snapshot,
    upload,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["bystander", "guru"]  # fixtures, used by name

INTERNAL = "internal error"  # the words of an unexpected exception: never the reason here


def _truncated() -> bytes:
    whole = guide_pdf()
    return whole[: len(whole) // 2]


# (file, words the reason must contain)
MALFORMED: dict[str, tuple[Callable[[], bytes], str]] = {
    "truncated": (_truncated, "could not be read"),
    "cut after the header": (lambda: guide_pdf()[:10], "could not be read"),
    # ~1 MB on disk, 1 GB once inflated (pypdf stops inflating at 75 MB).
    "flate bomb": (flate_bomb_pdf, "too large to read once decompressed"),
    # The same bomb drawn by 300 pages: refused at the first, not inflated 300 times.
    "flate bomb on every page": (lambda: flate_bomb_pdf(pages=300), "too large"),
    "arrays nested 100,000 deep": (lambda: nested_objects_pdf(100_000), "could not be read"),
}


def _status_mb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) // 1024
    raise AssertionError(f"no {field} in /proc/self/status")


def _start_peak_rss() -> int:
    """Reset this process's peak RSS (Linux: 5 to clear_refs) and return the RSS now: the suite
    before this test may have held more than a gigabyte (the embedding model) already."""
    Path("/proc/self/clear_refs").write_text("5")
    return _status_mb("VmRSS")


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_pdf_fails_with_a_reason_and_touches_nothing(
    admin_client: APIClient, guru: Guru, bystander: int, case: str
) -> None:
    make, phrase = MALFORMED[case]
    baseline_mb = _start_peak_rss()
    data = make()
    assert len(data) < 2 * 1024 * 1024, "generated small: the size limit is not what stops it"
    others = snapshot(guru, bystander)

    response = upload(admin_client, "field-notes.pdf", data)
    assert response.status_code == 201, response.json()
    failed = detail_of(admin_client, response.json()["id"])
    assert_failed_for_a_reason(failed, phrase)
    assert INTERNAL not in failed["user_error"]
    assert chunks_of(guru, failed["id"]) == []

    indexed = detail_of(admin_client, upload(admin_client, "guide.pdf", guide_pdf()).json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    kept = snapshot(guru, indexed["id"])
    Path(DataSource.objects.get(pk=indexed["id"]).file.path).write_bytes(data)
    assert_failed_for_a_reason(reindex(admin_client, indexed["id"]), phrase)
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others
    # The bomb's gigabyte never sat in memory (the whole test process, Milvus client included).
    assert _status_mb("VmHWM") - baseline_mb < GIGABYTE // (1024 * 1024)


def test_a_pdf_slower_to_read_than_the_limit_stops_at_the_limit(
    admin_client: APIClient, guru: Guru, bystander: int, settings: Settings
) -> None:
    # 200 pages sharing one stream of 5,000 text operators: a small file that would take pypdf
    # minutes. With no time allowed, reading stops after the first page.
    settings.PDF_EXTRACT_MAX_SECONDS = 0
    others = snapshot(guru, bystander)
    data = heavy_text_pdf(pages=200, operations=5_000)
    assert len(data) < 100_000

    failed = detail_of(admin_client, upload(admin_client, "ledger.pdf", data).json()["id"])
    assert_failed_for_a_reason(failed, "took longer than 0 seconds", "page 2", "smaller files")
    assert chunks_of(guru, failed["id"]) == []
    assert snapshot(guru, bystander) == others


def test_nesting_within_reason_still_indexes(admin_client: APIClient, guru: Guru) -> None:
    # The refusals above are about the pathological cases, not nesting as such.
    response = upload(admin_client, "nested.pdf", nested_objects_pdf(50))
    indexed = detail_of(admin_client, response.json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    assert any("aardvark" in hit.text for hit in chunks_of(guru, indexed["id"]))

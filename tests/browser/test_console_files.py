"""The console's "Other files" upload in Chromium against the real backend: its file picker
offers every format the server takes besides PDFs (sources/file_kinds.py), and a PowerPoint
deck and an Excel workbook picked there are uploaded, indexed (by the eager Celery of the test
settings, inside the upload request) and listed as sources of their own type; a damaged one
is listed FAILED with its reason in words."""

import pytest
from openguru.sources.file_kinds import FILE_KINDS
from openguru.sources.models import DataSource

from tests.browser.console_site import (  # noqa: F401
    Console,
    console,
    console_site,
    sign_in,
    staff,
    trusts_console,
)
from tests.browser.qa.conftest import tab  # noqa: F401
from tests.gurus.helpers import guru_make
from tests.sources.file_makers import briefing_pptx, cut, park_xlsx

# The test waits for `next dev` to compile every console route (console_site): minutes on a
# busy two-core machine, more than the suite's default timeout.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

SLUG = "ranger-files"
SLOW_MS = 120_000
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def test_other_files_are_picked_uploaded_and_indexed(console: Console) -> None:  # noqa: F811
    guru_make(slug=SLUG, name="Ranger files")
    view, origin = console.tab, console.origin

    def upload_files() -> dict:
        page = view.page
        page.goto(f"{origin}/console/gurus/{SLUG}/sources")
        page.wait_for_url("**/console/sign-in?next=*")
        page.get_by_label("Username").wait_for()
        sign_in(page, console.staff)
        page.wait_for_url(f"**/console/gurus/{SLUG}/sources")
        page.get_by_role("button", name="Other files", exact=True).click()
        picker = page.get_by_label("Choose Word, PowerPoint, Excel, CSV, HTML, Markdown or EPUB")
        accept = picker.get_attribute("accept")
        picker.set_input_files(
            [
                {"name": "briefing.pptx", "mimeType": PPTX, "buffer": briefing_pptx()},
                {"name": "park.xlsx", "mimeType": XLSX, "buffer": park_xlsx()},
                {"name": "broken.xlsx", "mimeType": XLSX, "buffer": cut(park_xlsx())},
            ]
        )
        page.wait_for_function(
            "document.querySelectorAll('[data-upload-state=done]').length === 3", timeout=SLOW_MS
        )
        page.locator("tr[data-status=FAILED]").wait_for(timeout=SLOW_MS)
        page.wait_for_function(
            "document.querySelectorAll('tr[data-status=SUCCESS]').length === 2", timeout=SLOW_MS
        )
        view.axe("sources-other-files")
        return {
            "accept": accept,
            "failed": page.locator("tr[data-status=FAILED]").inner_text(),
        }

    seen = console.browser.run(upload_files, timeout=600)
    offered = {
        extension for kind in FILE_KINDS if kind.type != "pdf" for extension in kind.extensions
    }
    assert set(seen["accept"].split(",")) == offered
    assert "not a valid Excel workbook" in seen["failed"], seen["failed"]
    sources = DataSource.objects.filter(guru__slug=SLUG)
    assert sorted(sources.values_list("type", "status")) == [
        ("pptx", "SUCCESS"),
        ("xlsx", "FAILED"),
        ("xlsx", "SUCCESS"),
    ]
    assert all(source.chunk_count > 0 for source in sources if source.status == "SUCCESS")

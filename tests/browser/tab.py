"""A browser tab the site tests drive: screenshots, axe-core's accessibility findings, and the
dialogs and page errors it saw."""

import contextlib
from pathlib import Path

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.next_site import FRONTEND

AXE_JS = FRONTEND / "node_modules/axe-core/axe.min.js"

# The serious and critical axe-core violations on the page, one readable line per element.
AXE_RUN = """async () => {
  const {violations} = await axe.run(document);
  return violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .flatMap(v => v.nodes.map(n =>
      `${v.impact} ${v.id}: ${v.help} at ${n.target.join(' ')}: ${n.failureSummary}`));
}"""


class Tab:
    def __init__(self, page: Page, shots: Path) -> None:
        self.page = page
        self.shots = shots
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.a11y: dict[str, list[str]] = {}  # page name -> axe-core's serious/critical findings

    def shot(self, name: str) -> None:
        # caret="initial": hiding the caret styles inputs, which React would see as a mismatch.
        self.page.screenshot(path=str(self.shots / f"{name}.png"), full_page=True, caret="initial")

    def axe(self, name: str) -> None:
        if not AXE_JS.is_file():
            pytest.fail(f"{AXE_JS} is missing: run `npm ci` in frontend/")
        # Next streams a page's metadata: right after a client-side navigation the old <title>
        # is gone and the new one not yet in. A page that never gets one still fails below.
        with contextlib.suppress(PlaywrightTimeout):
            self.page.wait_for_function("document.title.trim() !== ''", timeout=5_000)
        self.page.add_script_tag(path=str(AXE_JS))
        self.a11y[name] = self.page.evaluate(AXE_RUN)

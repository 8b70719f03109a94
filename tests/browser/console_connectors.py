"""What the console's connector tests share: add a source through its form with a token, wait
for it to index, then put a wrong token in its place and wait for the run that fails on it."""

import re
from collections.abc import Callable
from typing import Any

from tests.browser.console_site import Console, sign_in

SLOW_MS = 120_000


def add_then_replace_token(
    console: Console,
    *,
    slug: str,
    button: str,
    fill: Callable[[Any], None],
    axe: str,
    token_label: str | re.Pattern[str],
    wrong_token: str,
) -> dict[str, str]:
    """Runs in the browser thread; returns the page's HTML and the source's row once indexed,
    and its row once the wrong token failed it."""
    view = console.tab
    page = view.page
    page.goto(f"{console.origin}/console/gurus/{slug}/sources")
    sign_in(page, console.staff)
    page.wait_for_url(f"**/console/gurus/{slug}/sources")
    page.get_by_role("button", name=button, exact=True).click()
    fill(page)
    view.axe(axe)
    page.get_by_role("button", name="Add source").click()
    page.locator("tr[data-status=SUCCESS]").wait_for(timeout=SLOW_MS)
    added = {"html": page.content(), "row": page.locator("tr[data-status=SUCCESS]").inner_text()}
    # A wrong token in its place: the run fails and says why; the token is not shown back.
    page.get_by_text("Replace token").click()
    page.get_by_label(token_label).fill(wrong_token)
    page.get_by_role("button", name="Save token").click()
    page.locator("tr[data-status=FAILED]").wait_for(timeout=SLOW_MS)
    return {**added, "failed": page.locator("tr[data-status=FAILED]").inner_text()}

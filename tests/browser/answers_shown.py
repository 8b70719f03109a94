"""Waiting for an answer in a browser: a failure shown instead (an alert, a notice, a refusal)
ends the wait at once with its words, and a wait that times out says what the answer area held."""

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ANSWER_AREA = "[data-part=answer]"
# Not any [role=alert]: Next's route announcer is one, holding the page's title.
FAILURE = (
    "[data-part=error], [data-part=refusal], [data-part=notice], [data-part=answer] [role=alert]"
)


def wait_for_trust(page: Page | Locator, *, timeout: float, nth: int = 1) -> None:
    """Until the `nth` answer (from 1) shows its trust score."""
    trust = page.locator("[data-part=trust]").nth(nth - 1)
    failure = page.locator(FAILURE).last
    try:
        trust.or_(failure).first.wait_for(timeout=timeout)
    except PlaywrightTimeout as timed_out:
        raise AssertionError(
            f"no trust score; the answer area held: {_shown(page)!r}"
        ) from timed_out
    if trust.count() == 0:
        raise AssertionError(f"the answer failed: {failure.inner_text()!r}")


def _shown(page: Page | Locator) -> str:
    areas = page.locator(ANSWER_AREA)
    return " | ".join(areas.nth(i).inner_text()[:500] for i in range(areas.count()))

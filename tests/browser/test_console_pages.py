"""The admin console's other pages in Chromium against the real backend: sign-in refusals in
words, a guru's settings (an uploaded icon, nothing else overwritten), picking and deleting
sources, a Discord bot checked against a loopback Discord, the platform settings, signing out.
axe-core checks each page. The gurus page's layout is measured at three widths: each table cell
under its header, a row's contents on one centre line, the navigation never over the page."""

import io

import pytest
from django.contrib.auth import get_user_model
from openguru.core.models import PlatformSettings
from openguru.gurus.models import Guru
from openguru.integrations.models import APIKey, Integration
from openguru.sources.models import DataSource
from openguru.sources.services import source_create
from PIL import Image

from tests.browser.console_site import (  # noqa: F401
    Console,
    console,
    console_site,
    sign_in,
    staff,
    trusts_console,
)
from tests.browser.qa.conftest import tab  # noqa: F401
from tests.fakes.discord_server import FakeDiscordServer
from tests.gurus.helpers import guru_make

# The first test also waits for `next dev` to compile every console route (console_site): that
# takes minutes on a busy two-core machine, more than the suite's default timeout.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

BOT_TOKEN = "discord-bot-token"


def png_icon() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 32), (200, 120, 20)).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture
def lions(transactional_db) -> Guru:
    return guru_make(
        slug="lions", name="Lions", custom_instruction="Answer like a ranger, briefly."
    )


def test_sign_in_refusals_are_in_words(console: Console):  # noqa: F811
    get_user_model().objects.create_user(username="visitor", password="another long passphrase")
    view = console.tab

    def refusals() -> dict:
        page = view.page
        page.goto(f"{console.origin}/console/settings")
        page.wait_for_url("**/console/sign-in?next=%2Fconsole%2Fsettings")
        page.get_by_label("Username").fill(console.staff.username)
        page.get_by_label("Password").fill("not the password")
        page.get_by_role("button", name="Sign in").click()
        alert = page.get_by_role("form", name="Sign in").get_by_role("alert")
        alert.get_by_text("Wrong", exact=False).wait_for()
        wrong = alert.inner_text()
        page.get_by_label("Username").fill("visitor")
        page.get_by_label("Password").fill("another long passphrase")
        page.get_by_role("button", name="Sign in").click()
        alert.get_by_text("no role here", exact=False).wait_for()
        not_staff = alert.inner_text()
        view.shot("sign-in-refused")
        sign_in(page, console.staff)
        page.wait_for_url("**/console/settings")
        return {"wrong": wrong, "not_staff": not_staff}

    seen = console.browser.run(refusals)
    assert "Could not sign in" in seen["wrong"] and len(seen["wrong"]) > 30
    assert "This account has no role here" in seen["not_staff"]
    assert "Wrong username or password" in seen["wrong"]
    assert view.errors == []


def test_settings_sources_bots_and_sign_out(console: Console, lions: Guru, settings):  # noqa: F811
    for title in ("Prides", "Hunting"):
        source_create(guru=lions, type="text", title=title, content=f"# {title}\n\nLions.\n")
    view, origin = console.tab, console.origin

    def guru_settings() -> dict:
        page = view.page
        page.goto(f"{origin}/console/gurus/lions")
        sign_in(page, console.staff)
        # The saved instructions are shown as they are, and the threshold beside its fallback.
        instructions = page.get_by_label("Custom instructions").input_value()
        threshold_hint = page.get_by_text("Questions whose best passage scores below").inner_text()
        page.get_by_label("Domain knowledge").fill("Lions of the savanna")
        page.get_by_label("Answer mode").select_option("fast")
        page.get_by_label("Trust threshold").fill("0.42")
        page.get_by_label("Upload an icon").set_input_files(
            [{"name": "lion.png", "mimeType": "image/png", "buffer": png_icon()}]
        )
        page.get_by_role("button", name="Save changes").click()
        page.get_by_role("status").get_by_text("Saved.").wait_for()
        view.shot("guru-settings")
        view.axe("guru-settings")
        icon = page.locator("[data-part=guru-preview] img").get_attribute("src")
        return {"icon": icon, "instructions": instructions, "threshold_hint": threshold_hint}

    seen = console.browser.run(guru_settings)
    lions.refresh_from_db()
    assert lions.domain_knowledge == "Lions of the savanna"
    assert "/api/gurus/lions/icon/" in lions.icon_url and seen["icon"] == lions.icon_url
    assert lions.custom_instruction == "Answer like a ranger, briefly."  # not sent, not lost
    assert seen["instructions"] == lions.custom_instruction
    assert "calibrated from its sources" in seen["threshold_hint"]
    assert (lions.answer_mode, lions.trust_threshold) == ("fast", 0.42)

    def delete_the_sources() -> dict:
        page = view.page
        page.get_by_role("link", name="Sources").click()
        page.locator("tr[data-status=SUCCESS]").nth(1).wait_for()
        page.set_viewport_size({"width": 390, "height": 800})
        # On a phone each source is a card: nothing wider than the screen, nothing cut off.
        phone = page.locator("[data-part=sources]").evaluate(
            "t => ({table: t.getBoundingClientRect().right, page: document.documentElement.clientWidth,"
            " status: t.querySelector('tbody td[data-label=Status]').getBoundingClientRect().right,"
            " overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth})"
        )
        view.shot("sources-phone")
        page.set_viewport_size({"width": 1100, "height": 900})
        page.get_by_label("Select all sources").check()
        page.get_by_role("group", name="Selected sources").get_by_text("2 selected").wait_for()
        view.axe("sources")
        page.get_by_role("button", name="Delete", exact=True).click()
        page.get_by_role("button", name="Delete 2").click()
        page.get_by_text("No sources yet").wait_for()
        return {"rows": page.locator("tr[data-source-id]").count(), "phone": phone}

    seen = console.browser.run(delete_the_sources)
    assert seen["rows"] == 0
    phone = seen["phone"]
    assert phone["table"] <= phone["page"] and phone["status"] <= phone["page"], phone
    assert phone["overflow"] <= 0, f"the console is wider than a phone by {phone['overflow']}px"
    assert not DataSource.objects.filter(guru=lions).exists()

    with FakeDiscordServer(token=BOT_TOKEN) as discord:
        settings.DISCORD_API_URL = discord.api_url

        def connect_a_bot() -> dict:
            page = view.page
            page.get_by_role("link", name="Integrations").click()
            form = page.get_by_role("form", name="New bot")
            form.get_by_label("Platform").select_option("DISCORD")
            form.get_by_label("Discord server (guild) id").fill("4242")
            form.get_by_label("Server name").fill("Rangers")
            form.get_by_label("Bot token").fill(BOT_TOKEN)
            form.get_by_role("button", name="Add a channel").click()
            form.get_by_label("Channel 1 id").fill("777")
            form.get_by_label("Channel 1 name").fill("sightings")
            form.get_by_role("button", name="Connect").click()
            bot = page.get_by_role("form", name="DISCORD bot settings")
            bot.get_by_role("button", name="Test connection").click()
            result = page.locator("[data-part=connection-test]")
            result.wait_for()
            view.shot("integrations")
            view.axe("integrations")
            return {"ok": result.get_attribute("data-ok"), "detail": result.inner_text()}

        seen = console.browser.run(connect_a_bot)
    bot = Integration.objects.get(guru=lions)
    assert (bot.type, bot.external_id, bot.workspace_name) == ("DISCORD", "4242", "Rangers")
    assert bot.channels == [{"id": "777", "name": "sightings", "mode": "mention"}]
    assert seen["ok"] == "true" and "Signed in to Discord as guru" in seen["detail"]

    def platform_settings() -> dict:
        page = view.page
        page.get_by_role("navigation", name="Console").get_by_role("link", name="Settings").click()
        page.wait_for_url("**/console/settings")
        page.locator("[data-part=health] tr").first.wait_for()
        page.get_by_label("Trust score threshold").fill("0.5")
        page.get_by_role("button", name="Save settings").click()
        page.get_by_role("status").get_by_text("Saved").wait_for()
        view.shot("settings")
        view.axe("settings")
        threshold = page.get_by_label("Trust score threshold")
        return {
            "health": page.locator("[data-part=health] th").all_inner_texts(),
            "providers": page.locator("[data-part=providers]").inner_text(),
            "provider_names": page.locator("[data-part=providers] th").all_inner_texts(),
            "threshold_help": threshold.evaluate(
                "i => document.getElementById(i.getAttribute('aria-describedby')).textContent"
            ),
        }

    seen = console.browser.run(platform_settings)
    assert PlatformSettings.objects.get().trust_score_threshold == 0.5
    assert "vector store" in [name.lower() for name in seen["health"]]
    assert "fake" in seen["providers"]  # the embedding provider of the test settings
    assert "LLM provider" in seen["provider_names"], seen["provider_names"]
    assert "the guru declines to answer" in seen["threshold_help"]  # each value says what it does

    def delete_the_guru() -> str:
        page = view.page
        page.goto(f"{origin}/console/gurus/lions")
        page.get_by_role("button", name="Delete guru").click()
        page.get_by_role("button", name="Yes, delete Lions").click()
        page.wait_for_url(f"{origin}/console")
        page.get_by_text("No gurus yet").wait_for()
        return page.url

    console.browser.run(delete_the_guru)
    assert not Guru.objects.filter(slug="lions").exists()

    def sign_out() -> str:
        page = view.page
        page.get_by_role("button", name="Sign out").click()
        page.wait_for_url("**/console/sign-in")
        # Django's session is asked on the server: the redirect is the first answer, no page yet.
        first = page.request.get(f"{origin}/console/gurus/lions/sources?tab=x", max_redirects=0)
        redirect = (first.status, first.headers.get("location", ""))
        page.goto(f"{origin}/console/api-keys")
        page.wait_for_url("**/console/sign-in?next=%2Fconsole%2Fapi-keys")
        return {"url": page.url, "redirect": redirect}

    signed_out = console.browser.run(sign_out)
    assert signed_out["url"].endswith("next=%2Fconsole%2Fapi-keys")
    assert signed_out["redirect"][0] == 307
    assert signed_out["redirect"][1].endswith(
        "/console/sign-in?next=%2Fconsole%2Fgurus%2Flions%2Fsources%3Ftab%3Dx"
    )
    assert view.dialogs == [] and view.errors == []
    assert list(view.a11y) == ["guru-settings", "sources", "integrations", "settings"]
    found = "\n".join(f"{name}: {line}" for name, lines in view.a11y.items() for line in lines)
    assert not found, f"axe-core found serious or critical violations:\n{found}"


def test_a_private_guru_and_a_scoped_key_from_the_console(console: Console, lions: Guru):  # noqa: F811
    view = console.tab

    def make_private_and_scope_a_key() -> dict:
        page = view.page
        page.goto(f"{console.origin}/console/gurus/lions")
        sign_in(page, console.staff)
        page.get_by_label("Visibility").select_option("private")
        page.get_by_role("button", name="Save changes").click()
        page.get_by_role("status").get_by_text("Saved.").wait_for()
        page.goto(f"{console.origin}/console/api-keys")
        page.get_by_label("Key name").fill("lions bot")
        page.get_by_label("Scope").select_option("ask")
        page.get_by_role("group").get_by_label("Lions").check()
        page.get_by_role("button", name="Create key").click()
        raw = page.locator("[data-part=raw-key]").inner_text()
        view.axe("scoped keys")
        return {"raw": raw, "scope": page.locator("[data-part=key-scope]").first.inner_text()}

    seen = console.browser.run(make_private_and_scope_a_key)
    assert Guru.objects.get(slug="lions").visibility == "private"
    assert seen["scope"] == "Ask · lions"
    key = APIKey.objects.get(name="lions bot")
    assert key.scope == "ask" and [g.slug for g in key.gurus.all()] == ["lions"]
    assert seen["raw"].startswith(key.prefix)
    assert view.a11y == {"scoped keys": []}


# The boxes the layout test compares: each header cell and each body cell of the gurus table, the
# side navigation, the page's main column, the table's scrolling frame and the viewport.
MEASURE_GURUS_PAGE = """() => {
  const rect = (r) => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width});
  const box = (e) => rect(e.getBoundingClientRect());
  // A cell and what it holds: the box of its contents shows where its text and images sit.
  const cell = (e) => { const range = document.createRange(); range.selectNodeContents(e);
    return {...box(e), content: rect(range.getBoundingClientRect())}; };
  const table = document.querySelector("table[aria-label=Gurus]");
  return {
    heads: [...table.querySelectorAll("thead th")].map(cell),
    rows: [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.cells].map(cell)),
    nav: box(document.querySelector("nav[aria-label=Console]")),
    main: box(document.querySelector("main")),
    frame: box(table.parentElement),
    viewport: document.documentElement.clientWidth,
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  };
}"""

# A tablet just wider than the breakpoint (760px) where the navigation moves above the page.
WIDTHS = {"desktop": (1280, 900), "tablet": (800, 1000), "phone": (390, 844)}


def test_the_gurus_table_lines_up_and_the_sidebar_keeps_clear(console: Console, lions: Guru):  # noqa: F811
    guru_make(slug="cheetahs", name="Cheetahs of the Serengeti and the Masai Mara plains")
    view, origin = console.tab, console.origin

    def measure() -> dict:
        page = view.page
        page.goto(f"{origin}/console")
        sign_in(page, console.staff)
        boxes = {}
        for name, (width, height) in WIDTHS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.locator("tr[data-guru=cheetahs]").wait_for()
            boxes[name] = page.evaluate(MEASURE_GURUS_PAGE)
            view.shot(f"gurus-{name}")
        return boxes

    for name, seen in console.browser.run(measure).items():
        heads, rows, nav, main = seen["heads"], seen["rows"], seen["nav"], seen["main"]
        assert len(heads) == 4 and len(rows) == 2, (name, seen)
        for row in rows:
            assert len(row) == len(heads), (name, row)
            for column, (cell, head) in enumerate(zip(row, heads, strict=True)):
                where = f"{name}: column {column} starts at {cell['left']}, its header at {head['left']}"
                assert abs(cell["left"] - head["left"]) <= 1, where
                assert abs(cell["width"] - head["width"]) <= 1, where
                # Text starts where its column's header text starts.
                assert abs(cell["content"]["left"] - head["content"]["left"]) <= 1, where
            # A row's cells share a centre line, whatever one of them holds (the avatar).
            centres = [(c["content"]["top"] + c["content"]["bottom"]) / 2 for c in row]
            assert max(centres) - min(centres) <= 2, f"{name}: a row's contents at {centres}"
        # The navigation sits beside the page on wider screens and above it on a phone, never over it.
        if name != "phone":
            assert nav["right"] <= main["left"], (name, nav, main)
        else:
            assert nav["bottom"] <= main["top"], (name, nav, main)
        # A table wider than a phone scrolls inside its frame; the page itself never does.
        assert seen["frame"]["right"] <= seen["viewport"], (name, seen["frame"])
        assert seen["overflow"] <= 0, (
            f"{name}: the page is {seen['overflow']}px wider than the screen"
        )
    assert view.errors == []

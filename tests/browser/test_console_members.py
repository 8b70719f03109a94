"""People in the console, in Chromium against the real backend: an admin invites a member
granted one guru; the e-mail (over real SMTP to a loopback server) carries the link; the invitee
chooses a password (a too-short one is refused in the validators' words), signs in and sees only
the guru granted. The admin then reads it all in the audit log and its CSV export, and changes
a person's role, gurus and access on the Members page. axe-core checks each page."""

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from openguru.accounts.models import GuruGrant, Membership, Role
from openguru.accounts.services import membership_set
from openguru.gurus.models import Guru

from tests.accounts.conftest import smtp  # noqa: F401
from tests.browser.console_site import (  # noqa: F401
    Account,
    Console,
    console,
    console_site,
    sign_in,
    staff,
    trusts_console,
)
from tests.browser.qa.conftest import tab  # noqa: F401
from tests.fakes.smtp_server import LoopbackSMTPServer
from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

INVITEE = Account("lin@example.com", "a brand new passphrase to remember")


@pytest.fixture
def two_gurus(transactional_db) -> tuple[Guru, Guru]:
    return guru_make(slug="lions", name="Lions"), guru_make(slug="tigers", name="Tigers")


def test_invited_member_joins_and_sees_only_the_granted_guru(
    console: Console,  # noqa: F811
    smtp: LoopbackSMTPServer,  # noqa: F811
    two_gurus: tuple[Guru, Guru],
    settings,
):
    settings.SITE_URL = console.origin  # the link in the e-mail leads to this console
    view, origin = console.tab, console.origin

    def invite() -> str:
        page = view.page
        page.goto(f"{origin}/console/members")
        sign_in(page, console.staff)
        page.get_by_role("table", name="Members").get_by_text(console.staff.username).wait_for()
        view.axe("members")
        form = page.get_by_role("form", name="Invite a person")
        form.get_by_label("E-mail").fill(INVITEE.username)
        form.get_by_label("Role").select_option("member")
        form.get_by_role("checkbox", name="lions").check()
        form.get_by_role("button", name="Send invitation").click()
        form.get_by_role("status").get_by_text(f"Invitation sent to {INVITEE.username}").wait_for()
        invited = page.get_by_role("table", name="Open invitations")
        return invited.locator(f"tr[data-invitation='{INVITEE.username}']").inner_text()

    row = console.browser.run(invite)
    assert "member" in row and "lions" in row and "tigers" not in row
    [message] = smtp.wait_for(1)
    assert message["To"] == INVITEE.username
    link = smtp.link(message)
    assert link.startswith(f"{origin}/console/accept-invitation?token=")

    def accept() -> dict:
        page = view.page
        page.context.clear_cookies()  # the invitee's own browser: nobody signed in
        page.goto(link)
        form = page.get_by_role("form", name="Choose a password")
        form.get_by_text(INVITEE.username).wait_for()
        view.axe("accept-invitation")
        form.get_by_label("New password").fill("short")
        form.get_by_label("Repeat the password").fill("short")
        form.get_by_role("button", name="Create my account").click()
        refused = form.get_by_role("alert").inner_text()
        form.get_by_label("New password").fill(INVITEE.password)
        form.get_by_label("Repeat the password").fill(INVITEE.password)
        form.get_by_role("button", name="Create my account").click()
        page.get_by_role("status").get_by_text("Your account is ready.").wait_for()
        page.get_by_role("link", name="Go to sign-in").click()
        page.wait_for_url("**/console/sign-in**")
        sign_in(page, INVITEE)
        gurus = page.get_by_role("table", name="Gurus")
        gurus.locator("tr[data-guru=lions]").wait_for()
        nav = page.get_by_role("navigation", name="Console").inner_text()
        return {
            "refused": refused,
            "shown": gurus.locator("tbody tr").evaluate_all(
                "rows => rows.map(r => r.dataset.guru)"
            ),
            "nav": nav,
            "link": gurus.get_by_role("link", name="Lions", exact=True).get_attribute("href"),
        }

    seen = console.browser.run(accept)
    assert "too short" in seen["refused"]  # Django's MinimumLengthValidator, in its words
    assert seen["shown"] == ["lions"]
    assert seen["link"] == "/g/lions"  # a member reads; the settings are not theirs
    assert "Members" not in seen["nav"] and "Audit log" not in seen["nav"]
    user = get_user_model().objects.get(username=INVITEE.username)
    assert user.membership.role == Role.MEMBER and not user.is_staff
    assert list(GuruGrant.objects.filter(user=user).values_list("guru__slug", flat=True)) == [
        "lions"
    ]

    def audit() -> dict:
        page = view.page
        page.context.clear_cookies()
        page.goto(f"{origin}/console/audit")
        sign_in(page, console.staff)
        page.get_by_label("Action").fill("invitation")
        page.get_by_role("button", name="Apply filters").click()
        events = page.get_by_role("table", name="Audit events")
        events.locator("tr[data-action='invitation.accept']").wait_for()
        view.axe("audit")
        actions = events.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.action)")
        href = page.get_by_role("link", name="Export CSV").get_attribute("href") or ""
        exported = page.request.get(f"{origin}{href}")
        return {"actions": actions, "href": href, "csv": exported.text()}

    seen = console.browser.run(audit)
    assert seen["actions"] == ["invitation.accept", "invitation.create"]
    assert seen["href"] == "/api/audit/export/?action=invitation"
    rows = list(csv.DictReader(io.StringIO(seen["csv"])))
    assert [row["action"] for row in rows] == ["invitation.accept", "invitation.create"]
    assert rows[0]["actor"] == INVITEE.username
    assert view.errors == [] and view.dialogs == []
    found = "\n".join(f"{name}: {line}" for name, lines in view.a11y.items() for line in lines)
    assert list(view.a11y) == ["members", "accept-invitation", "audit"]
    assert found == ""


def test_admin_changes_role_gurus_and_access(
    console: Console,  # noqa: F811
    two_gurus: tuple[Guru, Guru],
):
    lions, tigers = two_gurus
    person = get_user_model().objects.create_user("kim@example.com", "kim@example.com", "x" * 12)
    membership_set(user=person, role=Role.MEMBER)
    GuruGrant.objects.create(user=person, guru=lions)
    view = console.tab

    def manage() -> None:
        page = view.page
        page.goto(f"{console.origin}/console/members")
        sign_in(page, console.staff)
        row = page.locator("tr[data-member='kim@example.com']")
        row.get_by_label("Role of kim@example.com").select_option("maintainer")
        row.get_by_role("status").get_by_text("Saved.").wait_for()
        row.get_by_label("Guru to grant kim@example.com").select_option("tigers")
        row.get_by_role("button", name="Grant").click()
        row.locator("[data-grant=tigers]").wait_for()
        row.get_by_role("button", name="Revoke lions from kim@example.com").click()
        row.locator("[data-grant=lions]").wait_for(state="detached")
        row.get_by_role("button", name="Deactivate").click()
        row.get_by_role("button", name="Deactivate kim@example.com").click()
        row.get_by_text("deactivated").wait_for()
        view.axe("members-changed")

    console.browser.run(manage)
    person.refresh_from_db()
    assert Membership.objects.get(user=person).role == Role.MAINTAINER
    assert [g.guru for g in GuruGrant.objects.filter(user=person)] == [tigers]
    assert not person.is_active
    assert view.a11y == {"members-changed": []}
    assert view.errors == []

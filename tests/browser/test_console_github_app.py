"""The console's GitHub App form in Chromium against the real backend and the loopback GitHub
API: an admin connects the app with its key and secret, sees the repositories its installation
covers, and sets one to answer every new issue with labels typed as a list (a label with a
space in it included). Neither the key nor the secret comes back to the page."""

import pytest
from openguru.integrations.models import GitHubApp

from tests.bots.github_app_fixtures import (  # noqa: F401  (fixture)
    APP_ID,
    INSTALLATION,
    REPO,
    SLUG,
    WEBHOOK_SECRET,
    github_api,
    key_pair,
)
from tests.browser.console_site import (  # noqa: F401
    Console,
    console,
    console_site,
    sign_in,
    staff,
    trusts_console,
)
from tests.browser.qa.conftest import tab  # noqa: F401
from tests.fakes.github_app_server import FakeGitHubApp
from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

GURU = "app-guide"


def test_an_admin_connects_a_github_app_and_sets_a_repository_to_answer_labelled_issues(
    console: Console,  # noqa: F811
    github_api: FakeGitHubApp,  # noqa: F811
) -> None:
    guru_make(slug=GURU, name="App guide")

    def connect() -> str:
        page = console.tab.page
        page.goto(f"{console.origin}/console/gurus/{GURU}/integrations")
        sign_in(page, console.staff)
        page.wait_for_url(f"**/console/gurus/{GURU}/integrations")
        form = page.get_by_role("form", name="New GitHub App")
        form.get_by_label("App id").fill(APP_ID)
        form.get_by_label("Installation id").fill(str(INSTALLATION))
        form.get_by_label("Private key (PEM)").fill(key_pair()[0])
        form.get_by_label("Webhook secret").fill(WEBHOOK_SECRET)
        form.get_by_role("button", name="Connect").click()
        app = page.get_by_role("form", name="GitHub App settings")
        app.get_by_label(f"{REPO} answers").select_option("all")
        # Typed key by key: a comma or a space just typed stays in the field.
        app.get_by_label(f"{REPO} labels").press_sequentially("good first issue, question")
        app.get_by_role("button", name="Save repositories").click()
        page.get_by_text("Repositories saved.").wait_for()
        console.tab.axe("github-app")
        return page.content()

    html = console.browser.run(connect, timeout=400)

    app = GitHubApp.objects.get(integration__guru__slug=GURU)
    assert (app.slug, app.integration.external_id) == (SLUG, str(INSTALLATION))
    assert app.repositories == {
        REPO: {"mode": "all", "labels": ["good first issue", "question"], "faq": False}
    }
    assert f"Repositories @{SLUG} answers in" in html
    assert "PRIVATE KEY" not in html and WEBHOOK_SECRET not in html

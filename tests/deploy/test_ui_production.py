"""The UI as production serves it: `next build` and `next start` (frontend/Dockerfile's
commands) behind the repository's nginx, in Chromium, under the Content-Security-Policy nginx
sends. The pages load, a question is answered (the loopback LLM), and the widget answers on a
third-party page, with no CSP violation and no console error anywhere. A stored question page is
served from Next's cache to anonymous visitors and dropped from it when Django says its answer
or its guru changed; a signed-in visitor's page is rendered per request with their session."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from benchmarks.chromium import BrowserThread, PageServer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from openguru.answers.models import Question
from openguru.answers.services import AnswerRecord, question_save
from openguru.gurus.models import Guru
from openguru.gurus.services import guru_update
from openguru.integrations.widget.services import widget_id_create
from playwright.sync_api import ConsoleMessage, Page

from tests.answers.test_answer_engine import IN_SCOPE
from tests.browser.answers_shown import wait_for_trust
from tests.browser.conftest import widget_built  # noqa: F401
from tests.browser.host_site import embed_page
from tests.browser.qa.helpers import lead
from tests.deploy.next_production import REVALIDATE_SECRET, NextProduction
from tests.deploy.nginx_server import NginxServer
from tests.deploy.test_dockerfiles import FRONTEND as FRONTEND_DOCKERFILE
from tests.deploy.test_dockerfiles import stages
from tests.fakes.openai_server import FakeOpenAIServer

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    # The first test also builds the UI (about half a minute idle, minutes on a busy machine).
    pytest.mark.timeout(900),
]

# Sends every CSP violation the document sees to the test, whichever page it is on.
REPORT_VIOLATIONS = """
document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(
  `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`
));
"""
BLOCKED_IMAGE = "() => { const i = new Image(); i.src = 'http://127.0.0.1:9/x.png'; }"


@pytest.fixture(scope="module")
def ui(live_api: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NextProduction]:
    log = tmp_path_factory.mktemp("next-production") / "next.log"
    production = NextProduction(api_origin=live_api, log=log)
    try:
        yield production.build()
    finally:
        production.stop()


@pytest.fixture(scope="module")
def nginx(
    live_api: str,
    ui: NextProduction,
    tmp_path_factory: pytest.TempPathFactory,
    django_db_blocker: Any,
) -> Iterator[NginxServer]:
    media = Path(settings.MEDIA_ROOT)
    media.mkdir(parents=True, exist_ok=True)
    server = NginxServer(
        tmp_path_factory.mktemp("nginx"),
        backend=live_api,
        frontend=ui.origin,
        static=tmp_path_factory.mktemp("static"),
        media=media,
    )
    server.start()
    try:
        ui.start(site_url=server.origin)
        # The backend's first request (connections, imports) is slow on a busy machine: done
        # here, not inside the 5 s the UI's server gives each API call.
        with django_db_blocker.unblock():
            httpx.get(f"{server.origin}/", timeout=60).raise_for_status()
        yield server
    finally:
        server.stop()


@dataclass
class Watched:
    """A tab and everything that went wrong in it."""

    page: Page
    violations: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return [*self.violations, *self.console_errors, *self.page_errors]


@pytest.fixture
def tab(chromium: BrowserThread, widget_built: None) -> Iterator[Watched]:  # noqa: F811
    # bypass_csp stays False (Playwright's default): the browser enforces nginx's policy.
    page = chromium.new_page(viewport={"width": 1200, "height": 900})
    seen = Watched(page)

    def watch() -> None:
        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                seen.console_errors.append(f"console: {message.text} ({message.location})")

        page.context.expose_function("reportViolation", lambda text: seen.violations.append(text))
        page.context.add_init_script(REPORT_VIOLATIONS)
        page.on("console", on_console)
        page.on("pageerror", lambda error: seen.page_errors.append(f"page error: {error}"))

    chromium.run(watch)
    yield seen
    chromium.close_page(page)


def test_the_dockerfile_builds_and_starts_the_ui_with_the_commands_used_here() -> None:
    *builders, final = stages(FRONTEND_DOCKERFILE)
    build = next(stage for stage in builders if stage[0][1].endswith(" AS build"))
    runs = [args for name, args in build if name == "RUN"]
    assert any(args.startswith("npx next build") for args in runs), runs
    command = [args for name, args in final if name == "CMD"][-1]
    assert command.startswith('["node_modules/.bin/next", "start"'), command
    env = " ".join(args for name, args in final if name == "ENV")
    assert "NODE_ENV=production" in env


def test_pages_and_an_answer_work_under_nginx_csp(
    chromium: BrowserThread,
    tab: Watched,
    nginx: NginxServer,
    ui: NextProduction,
    python_guru: Guru,
    llm_server: FakeOpenAIServer,
) -> None:
    def scenario() -> dict:
        page = tab.page
        home = page.goto(f"{nginx.origin}/")
        assert home is not None
        policies = {"home": home.headers.get("content-security-policy", "")}
        page.get_by_role("link", name="Python").first.click()
        page.wait_for_url("**/g/python")
        page.get_by_label("Ask Python a question").fill(IN_SCOPE)
        page.keyboard.press("Enter")
        wait_for_trust(page, timeout=60_000)
        answer = page.locator("[data-part=answer]").inner_text()
        permalink = page.locator("[data-part=permalink]").get_attribute("href") or ""
        question = page.goto(f"{nginx.origin}{permalink}")
        assert question is not None
        policies["question"] = question.headers.get("content-security-policy", "")
        page.locator("h1").get_by_text(IN_SCOPE).wait_for()
        sign_in = page.goto(f"{nginx.origin}/console/sign-in")
        assert sign_in is not None
        policies["sign-in"] = sign_in.headers.get("content-security-policy", "")
        page.get_by_label("Username").wait_for()
        page.wait_for_timeout(500)  # a late violation report arrives by now
        scripts = page.locator("script[src]").evaluate_all("s => s.map(e => e.src)")
        problems = tab.problems()
        # The watch itself: an image from another plain-HTTP origin is outside img-src, so the
        # browser must block it and the report must reach the test.
        page.evaluate(BLOCKED_IMAGE)
        page.wait_for_timeout(500)
        return {"policies": policies, "answer": answer, "scripts": scripts, "problems": problems}

    seen = chromium.run(scenario, timeout=180)
    for name, policy in seen["policies"].items():
        assert "script-src 'self'" in policy and "connect-src 'self'" in policy, name
    # The production build's chunks, through nginx, not a dev server's.
    assert any(src.startswith(f"{nginx.origin}/_next/static/") for src in seen["scripts"])
    question = Question.objects.get()
    assert lead(question.content) in " ".join(seen["answer"].split())
    assert seen["problems"] == [], "\n".join([*seen["problems"], ui.log()[-2000:]])
    assert any(v.startswith("img-src blocked http://127.0.0.1:9/") for v in tab.violations)


def test_the_widget_answers_on_a_third_party_page_through_nginx(
    chromium: BrowserThread,
    tab: Watched,
    nginx: NginxServer,
    python_guru: Guru,
    llm_server: FakeOpenAIServer,
) -> None:
    host = PageServer().start()
    try:
        key = widget_id_create(guru=python_guru, domain_pattern=host.origin).key
        # No data-base-url: the widget finds the API on the origin that served its script.
        host.html = embed_page(
            script_src=f"{nginx.origin}/widget.js", attrs={"data-widget-id": key}
        )

        def scenario() -> str:
            page = tab.page
            page.goto(f"{host.origin}/")
            page.locator(".launcher").click()
            page.get_by_label("Your question").fill(IN_SCOPE)
            page.keyboard.press("Enter")
            wait_for_trust(page, timeout=60_000)
            page.wait_for_timeout(300)
            return page.locator("[data-part=answer]").inner_text()

        answer = chromium.run(scenario, timeout=120)
    finally:
        host.stop()
    question = Question.objects.get()
    assert question.source == Question.Source.WIDGET
    assert lead(question.content) in " ".join(answer.split())
    assert tab.problems() == []


def _answer(guru: Guru, content: str, existing: Question | None = None) -> Question:
    record = AnswerRecord(
        slug="is-it-cached", question="Is it cached?", user_question="is it cached",
        content=content, references=[], trust_score=0.9, source=Question.Source.USER,
        extractive=True,
    )  # fmt: skip
    return question_save(guru=guru, record=record, existing=existing)


def _staff_session() -> dict[str, str]:
    user = get_user_model().objects.create_user("cache-admin", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return {"Cookie": f"{name}={client.cookies[name].value}"}


def test_question_pages_are_cached_for_visitors_and_dropped_when_django_says(
    nginx: NginxServer, ui: NextProduction, python_guru: Guru, settings: Any
) -> None:
    settings.UI_INTERNAL_URL = ui.origin
    settings.UI_REVALIDATE_SECRET = REVALIDATE_SECRET
    question = _answer(python_guru, "The first answer.")
    page = f"{ui.origin}/g/{python_guru.slug}/{question.slug}"

    first, again = httpx.get(page, timeout=60), httpx.get(page, timeout=60)
    assert "The first answer." in first.text and "The first answer." in again.text
    assert again.headers.get("x-nextjs-cache") == "HIT", again.headers

    _answer(python_guru, "The second answer.", existing=question)  # tasks run eagerly here
    assert "The second answer." in httpx.get(page, timeout=60).text

    admin = _staff_session()
    signed_in = httpx.get(page, headers=admin, timeout=60)
    assert signed_in.status_code == 200 and "The second answer." in signed_in.text
    assert "x-nextjs-cache" not in signed_in.headers  # rendered for them, not the cached copy
    assert "no-store" in signed_in.headers.get("cache-control", "")

    guru_update(guru=python_guru, data={"visibility": "private"})
    assert httpx.get(page, timeout=60).status_code == 404  # the cached copy went with it
    assert "The second answer." in httpx.get(page, headers=admin, timeout=60).text

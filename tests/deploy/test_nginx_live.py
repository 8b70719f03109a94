"""The repository's nginx configuration in front of the real backend (the ASGI app under
uvicorn, on the test database) and the real UI (Next on a free port): streams pass through as
they are written, the widget and a question page are served, a 20 MB PDF upload is accepted and
served back through X-Accel-Redirect, and the security headers are where they belong."""

import io
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pypdf
import pytest
from django.conf import settings
from openguru.answers.models import Question
from openguru.sources.models import DataSource

from tests.answers.test_answer_engine import IN_SCOPE
from tests.answers.test_streaming_http import read_events
from tests.browser.next_site import NextSite
from tests.deploy.nginx_server import NginxServer
from tests.sources.ingestion_helpers import animal_page, make_pdf

pytestmark = pytest.mark.django_db(transaction=True)

ADMIN = {"Authorization": "Bearer test-admin-token"}
UI_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "SAMEORIGIN",
    "referrer-policy": "strict-origin-when-cross-origin",
    "cross-origin-opener-policy": "same-origin",
}


@pytest.fixture(scope="module")
def ui(next_dev: NextSite) -> NextSite:
    """The UI's address, fixed up front for nginx; the server starts only for the tests that
    need it (`site`): it takes minutes to compile on a busy machine."""
    return next_dev


@pytest.fixture
def site(ui: NextSite, django_db_blocker) -> NextSite:
    with django_db_blocker.unblock():  # the pages ask the backend, which reads the database
        return ui.serve("/robots.txt", "/g/python/not-asked-yet")  # compiles the question route


@pytest.fixture(scope="module")
def static_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("static")
    (root / "collected.css").write_text("body { color: black; }\n")
    return root


@pytest.fixture(scope="module")
def nginx(
    live_api: str,
    ui: NextSite,
    static_root: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[NginxServer]:
    media = Path(settings.MEDIA_ROOT)
    media.mkdir(parents=True, exist_ok=True)
    server = NginxServer(
        tmp_path_factory.mktemp("nginx"),
        backend=live_api,
        frontend=ui.origin,
        static=static_root,
        media=media,
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_streamed_answer_reaches_the_client_while_the_llm_still_holds_the_rest(
    nginx: NginxServer, python_guru, llm_server
) -> None:
    # The fake LLM sends its role chunk and one token, then holds the rest until released: the
    # first delta can only arrive if nginx hands on each chunk as the backend writes it.
    release = llm_server.hold_streams(after_events=2)
    url = f"{nginx.origin}/api/gurus/python/answer/stream/"
    with httpx.stream("POST", url, json={"question": IN_SCOPE, "mode": "fast"}, timeout=60) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in r.headers  # gzip would hold tokens back
        events = read_events(r.iter_lines())
        names = []
        for name, _ in events:
            names.append(name)
            if name == "delta":
                break
        assert names[0] == "meta" and names[-1] == "delta", names
        assert not release.is_set()  # the answer has not ended: the LLM is still holding it
        release.set()
        rest = [name for name, _ in events]
    assert rest[-1] == "done"


def test_a_question_page_is_served_by_the_ui_through_nginx(
    nginx: NginxServer, site: NextSite, python_guru, llm_server
) -> None:
    answered = httpx.post(
        f"{nginx.origin}/api/gurus/python/answer/", json={"question": IN_SCOPE}, timeout=60
    )
    assert answered.status_code == 200, answered.text
    question = Question.objects.get(guru=python_guru)
    page = httpx.get(f"{nginx.origin}/g/python/{question.slug}", timeout=120)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert IN_SCOPE in page.text
    for header, value in UI_HEADERS.items():
        assert page.headers.get_list(header) == [value], header
    policy = page.headers["content-security-policy"]
    assert "frame-ancestors 'self'" in policy and "connect-src 'self'" in policy
    assert "strict-transport-security" not in page.headers  # plain HTTP: no HSTS


def test_the_widget_script_and_api_carry_no_frame_or_csp_restriction(nginx: NginxServer) -> None:
    script = httpx.get(f"{nginx.origin}/widget.js")
    assert script.status_code == 200
    assert script.content == Path(settings.WIDGET_JS_PATH).read_bytes()
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cross-origin-resource-policy"] == "cross-origin"
    widget_api = httpx.get(f"{nginx.origin}/api/widget/guru/", headers={"Origin": "https://a.test"})
    assert widget_api.headers["content-type"].startswith("application/json")
    for response in (script, widget_api):
        assert response.headers["x-content-type-options"] == "nosniff"
        for header in ("x-frame-options", "content-security-policy", "cross-origin-opener-policy"):
            assert header not in response.headers, (response.url, header)


def test_security_headers_appear_once_and_hsts_only_behind_tls(nginx: NginxServer) -> None:
    # Django's own middleware says DENY here: nginx's copy replaces it rather than doubling it.
    health = httpx.get(f"{nginx.origin}/api/health/", timeout=30)
    assert health.headers.get_list("x-frame-options") == ["SAMEORIGIN"]
    assert health.headers.get_list("x-content-type-options") == ["nosniff"]
    assert "permissions-policy" in health.headers
    assert "strict-transport-security" not in health.headers
    behind_tls = httpx.get(
        f"{nginx.origin}/api/health/", headers={"X-Forwarded-Proto": "https"}, timeout=30
    )
    assert behind_tls.headers["strict-transport-security"].startswith("max-age=31536000")


def test_static_files_come_from_disk_then_from_the_backend(
    nginx: NginxServer, static_root: Path
) -> None:
    collected = httpx.get(f"{nginx.origin}/static/collected.css")
    assert collected.status_code == 200 and collected.text == "body { color: black; }\n"
    fallback = httpx.get(f"{nginx.origin}/static/admin/css/base.css")  # not collected here
    assert fallback.status_code == 200 and "body" in fallback.text


def twenty_megabyte_pdf() -> bytes:
    """A real PDF (reportlab), padded to just over 20 MiB with an incompressible attachment."""
    writer = pypdf.PdfWriter(
        clone_from=pypdf.PdfReader(io.BytesIO(make_pdf([animal_page(1, "zebra")])))
    )
    writer.add_attachment("field-recordings.bin", random.Random(7).randbytes(21 * 2**20))
    buffer = io.BytesIO()
    writer.write(buffer)
    data = buffer.getvalue()
    assert 20 * 2**20 < len(data) < 50 * 2**20, len(data)
    return data


def test_a_20_mb_pdf_upload_is_accepted_and_served_back_through_nginx(
    nginx: NginxServer, python_guru, settings
) -> None:
    settings.MEDIA_ACCEL_REDIRECT_PREFIX = "/protected-media/"
    data = twenty_megabyte_pdf()
    response = httpx.post(
        f"{nginx.origin}/api/gurus/python/sources/",
        headers=ADMIN,
        files={"file": ("zebra-handbook.pdf", io.BytesIO(data), "application/pdf")},
        timeout=300,
    )
    assert response.status_code == 201, response.text
    stored = DataSource.objects.get(id=response.json()["id"]).file.name
    served = httpx.get(f"{nginx.origin}/media/{stored}", timeout=60)
    assert served.status_code == 200
    assert served.headers["content-type"] == "application/pdf"
    assert served.content == data  # the bytes came from nginx's internal location
    hidden = httpx.get(f"{nginx.origin}/protected-media/{stored}")
    assert hidden.status_code == 404  # internal: only Django's X-Accel-Redirect reaches it


def test_a_body_over_the_upload_limit_is_refused_by_nginx(nginx: NginxServer) -> None:
    response = httpx.post(
        f"{nginx.origin}/api/gurus/python/sources/",
        headers={**ADMIN, "Content-Type": "application/octet-stream"},
        content=b"\0" * (56 * 2**20),
        timeout=60,
    )
    assert response.status_code == 413


def test_admin_without_its_slash_and_mcp_reach_the_backend(nginx: NginxServer) -> None:
    bare = httpx.get(f"{nginx.origin}/admin")
    assert bare.status_code == 301 and bare.headers["location"].endswith("/admin/")
    assert "x-request-id" not in bare.headers  # nginx answered, not the UI or Django
    admin = httpx.get(f"{nginx.origin}/admin/")
    assert admin.status_code == 302 and "/admin/login/" in admin.headers["location"]
    for path in ("/mcp", "/mcp/"):
        mcp = httpx.post(f"{nginx.origin}{path}", json={}, timeout=30)
        assert mcp.status_code == 401, (path, mcp.text)  # the MCP server asks for a key
        assert mcp.headers["content-type"].startswith("application/json")

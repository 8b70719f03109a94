"""CORS as a browser meets it, through uvicorn: a preflight (which carries no widget id) is
granted to an origin some widget id allows and to no other; the request itself must come from
an origin its own widget id allows. Only the widget's endpoints speak CORS at all."""

import httpx
import pytest
from openguru.integrations.widget.services import widget_id_create

from tests.gurus.helpers import guru_make
from tests.widget.conftest import SITE

pytestmark = pytest.mark.django_db(transaction=True)

WIDGET_PATHS = (
    "/api/widget/ask/",  # served by the lean handler (a stream)
    "/api/widget/guru/",
    "/api/widget/binge/",
    "/api/python/follow_up/examples/",
    "/api/python/record_vote/",
)


def preflight(base: str, path: str, origin: str) -> httpx.Response:
    return httpx.options(
        f"{base}{path}",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type",
        },
    )


@pytest.mark.parametrize("path", WIDGET_PATHS)
def test_a_preflight_from_an_allowed_origin_is_granted(live_asgi, widget, path):
    response = preflight(live_asgi, path, SITE)
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == SITE
    assert response.headers["access-control-allow-methods"] == "GET, POST, OPTIONS"
    assert (
        response.headers["access-control-allow-headers"]
        == "authorization, content-type, x-auth-token, x-widget-token"
    )
    assert response.headers["access-control-max-age"] == "3600"
    assert "origin" in response.headers["vary"].lower()
    assert "access-control-allow-credentials" not in response.headers  # no cookies, ever
    assert response.content == b""


@pytest.mark.parametrize("path", WIDGET_PATHS)
def test_a_preflight_from_any_other_origin_gets_no_grant(live_asgi, widget, path, caplog):
    response = preflight(live_asgi, path, "https://evil.example.net")
    assert not [h for h in response.headers if h.startswith("access-control-")]
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert "Widget origin refused" in caplog.text  # the server's log names the refusal


def test_other_endpoints_never_speak_cors(live_asgi, widget):
    for path in ("/api/gurus/", "/api/gurus/python/answer/", "/api/v1/python/answer/"):
        response = preflight(live_asgi, path, SITE)
        assert "access-control-allow-origin" not in response.headers, path


def test_the_request_itself_carries_the_grant(live_asgi, widget_headers):
    response = httpx.get(f"{live_asgi}/api/widget/guru/", headers=widget_headers)
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == SITE
    assert response.headers["access-control-expose-headers"] == "retry-after"


def test_a_site_another_guru_allows_may_not_use_this_widget_id(live_asgi, widget):
    other = guru_make(slug="rust", name="Rust")
    widget_id_create(guru=other, domain_pattern="https://rust.example.org")
    # The preflight cannot know which widget id follows: the origin is known, so it passes…
    assert (
        preflight(live_asgi, "/api/widget/ask/", "https://rust.example.org").headers[
            "access-control-allow-origin"
        ]
        == "https://rust.example.org"
    )
    # …and the request with the Python widget's id is refused (readable by that page).
    for method, path in (("POST", "/api/widget/ask/"), ("GET", "/api/widget/guru/")):
        response = httpx.request(
            method,
            f"{live_asgi}{path}",
            headers={"Authorization": widget.key, "Origin": "https://rust.example.org"},
            json={"question": "How do I create a virtual environment?"},
        )
        assert response.status_code == 401, path
        assert response.json() == {
            "code": "not_authenticated",
            "msg": "This widget id may not be used on this site.",
        }


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": SITE},
        {"Origin": SITE, "Authorization": "not-a-widget-id"},
        {"Origin": SITE, "Authorization": "Bearer test-admin-token"},
    ],
)
def test_a_missing_or_wrong_widget_id_is_401(live_asgi, widget, headers):
    for method, path in (("POST", "/api/widget/ask/"), ("POST", "/api/widget/binge/")):
        response = httpx.request(
            method, f"{live_asgi}{path}", headers=headers, json={"question": "Anything here?"}
        )
        assert response.status_code == 401, path
        assert response.json()["code"] == "not_authenticated"
        assert response.json()["msg"]

"""The OpenAPI document at /api/schema/ and Swagger UI at /api/docs/: public, complete, free of
generation warnings, and drawn from files this server serves itself (no internet)."""

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from openguru.core.openapi_stand_ins import STAND_INS

from tests.answers.test_streaming_http import live_asgi  # noqa: F401  (uvicorn, as in make run)

PUBLIC_TAGS = ("answers", "v1 answers", "v1 data sources", "v1 sessions", "v1 search", "widget")


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    from django.test import Client

    response = Client().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return response.json()


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_the_schema_generates_without_warnings_and_validates(tmp_path):
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml")
    )
    assert "OpenGuru API" in (tmp_path / "schema.yaml").read_text()


def test_the_schema_is_public_even_with_bad_credentials(client):
    response = client.get(
        "/api/schema/",
        HTTP_ACCEPT="application/json",
        HTTP_X_API_KEY="og_not-a-key",
        HTTP_AUTHORIZATION="Bearer wrong",
    )
    assert response.status_code == 200
    assert response.json()["openapi"] == "3.1.0"


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            yield prefix + str(pattern.pattern), pattern.callback


def test_every_api_route_is_a_drf_view_or_has_a_stand_in():
    """A new async view under /api/ must be documented (`@documented_by`, which generates its
    stand-in), or it would silently be missing from the document."""
    undocumented = [
        route
        for route, view in _routes(get_resolver().url_patterns)
        if route.startswith("api/") and not hasattr(view, "cls") and view not in STAND_INS
    ]
    assert undocumented == []


def test_the_async_views_are_documented_at_their_own_paths(schema):
    assert "post" in schema["paths"]["/api/gurus/{slug}/answer/"]
    assert "post" in schema["paths"]["/api/gurus/{slug}/answer/stream/"]
    assert "post" in schema["paths"]["/api/v1/{guru_slug}/answer/"]
    # Routed with and without the slash; documented once, as OpenAI clients call it.
    assert "post" in schema["paths"]["/api/v1/{guru_slug}/chat/completions"]
    assert "/api/v1/{guru_slug}/chat/completions/" not in schema["paths"]
    stream = schema["paths"]["/api/gurus/{slug}/answer/stream/"]["post"]["responses"]["200"]
    assert list(stream["content"]) == ["text/event-stream"]


def test_every_public_operation_has_examples_and_its_errors(schema):
    for path, method, operation in operations(schema):
        if not set(operation["tags"]) & set(PUBLIC_TAGS):
            continue
        where = f"{method.upper()} {path}"
        responses = operation["responses"]
        errors = [code for code in responses if code.startswith("4")]
        assert errors, where
        for code in errors:
            content = responses[code]["content"]["application/json"]
            assert content["schema"]["$ref"].endswith("Error"), where
            assert content["examples"], (where, code)
        for code in (c for c in responses if c.startswith("2") and "content" in responses[c]):
            for media_type, content in responses[code]["content"].items():
                assert content.get("examples"), (where, code, media_type)
        if "requestBody" in operation:
            assert operation["requestBody"]["content"]["application/json"]["examples"], where


def test_admin_endpoints_say_how_to_authenticate(schema):
    schemes = schema["components"]["securitySchemes"]
    assert schemes["ApiKey"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-API-KEY",
        "description": schemes["ApiKey"]["description"],
    }
    assert schemes["AdminToken"]["scheme"] == "bearer"
    create = schema["paths"]["/api/gurus/"]["post"]
    assert {"AdminToken": []} in create["security"]
    assert {"ApiKey": []} in create["security"]  # a staff user's key
    keys = schema["paths"]["/api/api-keys/"]["post"]
    assert {"ApiKey": []} not in keys["security"]  # a key cannot mint keys
    assert set(create["responses"]) >= {"201", "400", "401", "403", "409"}


def test_every_reference_resolves(schema):
    text = str(schema)
    for name in set(re.findall(r"#/components/schemas/([\w.-]+)", text)):
        assert name in schema["components"]["schemas"], name


def test_the_docs_page_loads_nothing_from_the_internet(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert not re.search(r"https?://", html)
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert len(assets) >= 3
    assert all(a.startswith("/static/drf_spectacular_sidecar/") for a in assets), assets
    assert '"validatorUrl": null' in html  # Swagger UI would send the schema's URL to swagger.io
    assert 'url: "/api/schema/"' in html


def test_the_docs_assets_are_served_by_the_asgi_server(client, live_asgi):  # noqa: F811
    """uvicorn serves no files itself: Django must (SERVE_STATIC), or the page is blank."""
    html = client.get("/api/docs/").content.decode()
    for asset in re.findall(r'(?:src|href)="([^"]+)"', html):
        response = httpx.get(f"{live_asgi}{asset}")
        assert response.status_code == 200, asset
        assert len(response.content) > 500, asset
    bundle = httpx.get(f"{live_asgi}/static/drf_spectacular_sidecar/swagger-ui-dist/nothing.js")
    assert bundle.status_code == 404

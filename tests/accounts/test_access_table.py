"""Who may call each admin endpoint, as a table: every route the role rule guards has a row,
and each row is called by every kind of caller with a real credential. A new guarded route
without a row fails `test_every_guarded_route_has_a_row`."""

from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from openguru.accounts.access import GuruRolePermission
from openguru.core.auth import IsAdmin
from rest_framework.views import APIView

from tests.accounts.conftest import Org, actor_client

ACTORS = ["anonymous", "member", "maintainer_other", "maintainer", "admin", "admin_token"]
DENIED = {401, 403}

# Who is allowed, per kind of row:
# - manage: whoever manages the guru (its maintainers, admins);
# - admin: admins only (the admin token is an admin);
# - v1 manage: API v1's source writes, which take an API key only (never the admin token).
ALLOWED = {
    "manage": {"maintainer", "admin", "admin_token"},
    "admin": {"admin", "admin_token"},
    "v1 manage": {"maintainer", "admin"},
}

TEXT = {"type": "text", "title": "Notes", "content": "Use four spaces."}
# (route as the resolver names it, method, path, body, who)
ROWS: list[tuple[str, str, str, Any, str]] = [
    ("api/settings/", "get", "/api/settings/", None, "admin"),
    ("api/settings/", "patch", "/api/settings/", {"answer_cache_enabled": False}, "admin"),
    ("api/gurus/", "post", "/api/gurus/", {"slug": "new", "name": "New"}, "admin"),
    ("api/gurus/<slug:slug>/", "patch", "/api/gurus/python/", {"name": "Py"}, "manage"),
    ("api/gurus/<slug:slug>/", "delete", "/api/gurus/python/", None, "admin"),
    ("api/gurus/<slug:slug>/reembed/", "post", "/api/gurus/python/reembed/", None, "manage"),
    ("api/gurus/<slug:slug>/reanalyze/", "post", "/api/gurus/python/reanalyze/", None, "manage"),
    ("api/gurus/<slug:slug>/icon/", "post", "/api/gurus/python/icon/", {}, "manage"),
    ("api/gurus/<slug:slug>/sources/", "get", "/api/gurus/python/sources/", None, "manage"),
    ("api/gurus/<slug:slug>/sources/", "post", "/api/gurus/python/sources/", TEXT, "manage"),
    ("api/gurus/<slug:slug>/sources/<int:source_id>/", "get",
     "/api/gurus/python/sources/999/", None, "manage"),
    ("api/gurus/<slug:slug>/sources/<int:source_id>/", "delete",
     "/api/gurus/python/sources/999/", None, "manage"),
    ("api/gurus/<slug:slug>/sources/<int:source_id>/", "patch",
     "/api/gurus/python/sources/999/", {"version": "4.2"}, "manage"),
    ("api/gurus/<slug:slug>/sources/<int:source_id>/reindex/", "post",
     "/api/gurus/python/sources/999/reindex/", None, "manage"),
    ("api/gurus/<slug:slug>/sources/<int:source_id>/token/", "put",
     "/api/gurus/python/sources/999/token/", {"token": ""}, "manage"),
    ("api/gurus/<slug:slug>/questions/<int:question_id>/trace/", "get",
     "/api/gurus/python/questions/999/trace/", None, "manage"),
    ("api/gurus/<slug:slug>/refusals/<int:refusal_id>/trace/", "get",
     "/api/gurus/python/refusals/999/trace/", None, "manage"),
    ("api/gurus/<slug:slug>/analytics/", "get", "/api/gurus/python/analytics/", None, "manage"),
    ("api/gurus/<slug:slug>/analytics/refusals/", "get",
     "/api/gurus/python/analytics/refusals/", None, "manage"),
    ("api/gurus/<slug:slug>/analytics/gaps/", "get",
     "/api/gurus/python/analytics/gaps/", None, "manage"),
    ("api/gurus/<slug:slug>/widget-ids/", "get", "/api/gurus/python/widget-ids/", None, "manage"),
    ("api/gurus/<slug:slug>/widget-ids/", "post", "/api/gurus/python/widget-ids/", {}, "manage"),
    ("api/gurus/<slug:slug>/widget-ids/<int:widget_id>/", "delete",
     "/api/gurus/python/widget-ids/999/", None, "manage"),
    ("api/gurus/<slug:slug>/widget-ids/<int:widget_id>/secret/", "post",
     "/api/gurus/python/widget-ids/999/secret/", None, "manage"),
    ("api/gurus/<slug:slug>/integrations/", "get",
     "/api/gurus/python/integrations/", None, "manage"),
    ("api/gurus/<slug:slug>/integrations/", "post", "/api/gurus/python/integrations/",
     {"type": "DISCORD", "external_id": "1", "bot_token": "t"}, "manage"),
    ("api/gurus/<slug:slug>/integrations/<int:integration_id>/", "get",
     "/api/gurus/python/integrations/999/", None, "manage"),
    ("api/gurus/<slug:slug>/integrations/<int:integration_id>/", "patch",
     "/api/gurus/python/integrations/999/", {}, "manage"),
    ("api/gurus/<slug:slug>/integrations/<int:integration_id>/", "delete",
     "/api/gurus/python/integrations/999/", None, "manage"),
    ("api/gurus/<slug:slug>/integrations/<int:integration_id>/test/", "get",
     "/api/gurus/python/integrations/999/test/", None, "manage"),
    ("api/gurus/<slug:slug>/integrations/github/", "post",
     "/api/gurus/python/integrations/github/", {}, "manage"),
    ("api/gurus/<slug:slug>/integrations/<int:integration_id>/github/", "get",
     "/api/gurus/python/integrations/999/github/", None, "manage"),
    ("api/gurus/<slug:slug>/integrations/<int:integration_id>/github/", "patch",
     "/api/gurus/python/integrations/999/github/", {}, "manage"),
    ("api/gurus/<slug:slug>/integrations/slack/install/", "get",
     "/api/gurus/python/integrations/slack/install/", None, "manage"),
    ("api/gurus/<slug:slug>/integrations/<int:integration_id>/teams/manifest/", "get",
     "/api/gurus/python/integrations/999/teams/manifest/", None, "manage"),
    ("api/gurus/<slug:slug>/golden/pairs/", "get",
     "/api/gurus/python/golden/pairs/", None, "manage"),
    ("api/gurus/<slug:slug>/golden/pairs/", "post", "/api/gurus/python/golden/pairs/",
     {"question": "How?", "expected_source_id": 999}, "manage"),
    ("api/gurus/<slug:slug>/golden/pairs/<int:pair_id>/", "delete",
     "/api/gurus/python/golden/pairs/999/", None, "manage"),
    ("api/gurus/<slug:slug>/golden/runs/", "get", "/api/gurus/python/golden/runs/", None, "manage"),
    ("api/gurus/<slug:slug>/golden/runs/", "post",
     "/api/gurus/python/golden/runs/", None, "manage"),
    ("api/v1/<slug:guru_slug>/crawl/start/", "post", "/api/v1/python/crawl/start/",
     {"url": "http://127.0.0.1:9/"}, "manage"),
    ("api/v1/<slug:guru_slug>/crawl/<int:crawl_id>/status/", "get",
     "/api/v1/python/crawl/999/status/", None, "manage"),
    ("api/v1/<slug:guru_slug>/crawl/<int:crawl_id>/stop/", "post",
     "/api/v1/python/crawl/999/stop/", None, "manage"),
    ("api/v1/<slug:guru_slug>/analytics/export/", "get",
     "/api/v1/python/analytics/export/", None, "manage"),
    ("api/v1/<slug:guru_slug>/analytics/export/", "post",
     "/api/v1/python/analytics/export/", {}, "manage"),
    ("api/v1/<slug:guru_slug>/data-sources/", "post", "/api/v1/python/data-sources/",
     {"texts": [{"name": "Notes", "content": "Use four spaces."}]}, "v1 manage"),
    ("api/v1/<slug:guru_slug>/youtube/playlist/", "post", "/api/v1/python/youtube/playlist/",
     {"url": "https://example.com/"}, "v1 manage"),
    ("api/v1/<slug:guru_slug>/youtube/channel/", "post", "/api/v1/python/youtube/channel/",
     {"url": "https://example.com/"}, "v1 manage"),
    ("api/members/", "get", "/api/members/", None, "admin"),
    ("api/members/<int:user_id>/", "patch", "/api/members/999/", {"active": True}, "admin"),
    ("api/members/<int:user_id>/gurus/", "post", "/api/members/999/gurus/",
     {"guru": "python"}, "admin"),
    ("api/members/<int:user_id>/gurus/<slug:guru_slug>/", "delete",
     "/api/members/999/gurus/python/", None, "admin"),
    ("api/invitations/", "get", "/api/invitations/", None, "admin"),
    ("api/invitations/", "post", "/api/invitations/",
     {"email": "new@example.com", "role": "member"}, "admin"),
    ("api/invitations/<int:invitation_id>/", "delete", "/api/invitations/999/", None, "admin"),
    ("api/audit/", "get", "/api/audit/", None, "admin"),
    ("api/audit/export/", "get", "/api/audit/export/", None, "admin"),
]  # fmt: skip


@pytest.fixture(autouse=True)
def _slack_app(settings) -> None:
    # The install link needs a Slack app: with one, an allowed caller gets the link.
    settings.SLACK_CLIENT_ID, settings.SLACK_CLIENT_SECRET = "1.2", "secret"
    settings.SLACK_SIGNING_SECRET = "signing"


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize(
    ("route", "method", "path", "body", "who"),
    ROWS,
    ids=[f"{method.upper()} {path}" for _, method, path, _, _ in ROWS],
)
def test_who_may_call_what(org: Org, actor, route, method, path, body, who):
    response = getattr(actor_client(org, actor), method)(path, body, format="json")
    status = response.status_code
    if actor in ALLOWED[who]:
        assert status not in DENIED and status < 500, (status, response.content[:300])
    elif actor == "anonymous" or (who == "v1 manage" and actor == "admin_token"):
        assert status == 401, response.content[:300]
    else:
        assert status == 403, response.content[:300]
        assert response.json()["code"] == "permission_denied"


def _routes(patterns: list[URLPattern | URLResolver], prefix: str = "") -> list[tuple[str, Any]]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            found.append((prefix + str(pattern.pattern), pattern.callback))
    return found


def _guarded_methods(view_class: Any) -> set[str]:
    """The methods of a view that the role rule (or the admins-only check) decides."""
    methods = {m for m in ("get", "post", "patch", "put", "delete") if hasattr(view_class, m)}
    guarded = {GuruRolePermission, IsAdmin}
    if getattr(view_class, "get_permissions", None) not in (None, APIView.get_permissions):
        return methods - {"get"}  # these views let anyone read and guard the rest
    return methods if guarded & set(getattr(view_class, "permission_classes", ())) else set()


def test_every_guarded_route_has_a_row():
    in_table = {(route, method) for route, method, *_ in ROWS}
    guarded = {
        (route, method)
        for route, callback in _routes(get_resolver().url_patterns)
        if (view_class := getattr(callback, "view_class", None)) is not None
        for method in _guarded_methods(view_class)
    }
    assert guarded - in_table == set(), "guarded routes without a row in ROWS"

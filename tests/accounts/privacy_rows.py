"""Every operation of the OpenAPI schema, each with a call that reaches it about the guru
`python`, what kind of right it takes and which door reads the credential:

- kinds: read (see or ask the guru), manage (change it), admin (admins only, no guru), list
  (the gurus one may read, listed), sitemap (public answers only), widget (a widget id; a
  private guru's also needs a signed token), signed (a request its sender signs: GitHub,
  Slack), open (no guru: signing in, health, one's own keys);
- doors: site (the session cookie only), api (the admin API's credentials: key, session,
  admin token), v1 (a key only), none (no credentials at all), widget."""

from typing import Any

SOURCE = {"type": "text", "title": "Notes", "content": "Use four spaces."}
ASK = {"question": "How do I create a virtual environment?"}
CHAT = {"messages": [{"role": "user", "content": ASK["question"]}]}
G = "/api/gurus/python"
V1 = "/api/v1/python"

# The async views (asks that stream): served in threads of their own, they see committed rows.
ASYNC = {
    "/api/gurus/{slug}/answer/",
    "/api/gurus/{slug}/answer/stream/",
    "/api/v1/{guru_slug}/answer/",
    "/api/v1/{guru_slug}/chat/completions",
    "/api/widget/ask/",
}

# Calls a manager may make that change nothing the audit log keeps (it keeps changes to
# gurus, sources, settings, keys, widget ids, integrations, members and roles).
NOT_CHANGES = {
    f"{G}/reanalyze/": "moves nothing here: the guru is on the configured analyzer already",
    f"{V1}/analytics/export/": "reads the analytics",
    f"{V1}/crawl/start/": "lists a site's pages; adding them as sources is audited",
    f"{V1}/youtube/channel/": "lists a channel's videos; adding them as sources is audited",
    f"{V1}/youtube/playlist/": "lists a playlist's videos; adding them as sources is audited",
}

# (method, schema path, path called, body, kind, door); {question} and {binge} are filled in
ROWS: list[tuple[str, str, str, Any, str, str]] = [
    ("delete", "/api/api-keys/", "/api/api-keys/", {"id": 999}, "open", "api"),
    ("get", "/api/api-keys/", "/api/api-keys/", None, "open", "api"),
    ("post", "/api/api-keys/", "/api/api-keys/", {"name": "x"}, "open", "api"),
    ("delete", "/api/api-keys/{key_id}/", "/api/api-keys/999/", None, "open", "api"),
    ("get", "/api/audit/", "/api/audit/", None, "admin", "api"),
    ("get", "/api/audit/export/", "/api/audit/export/", None, "admin", "api"),
    ("post", "/api/auth/login/", "/api/auth/login/", {"username": "x", "password": "y"}, "open", "none"),
    ("post", "/api/auth/logout/", "/api/auth/logout/", None, "open", "none"),
    ("get", "/api/auth/me/", "/api/auth/me/", None, "open", "api"),
    ("get", "/api/auth/methods/", "/api/auth/methods/", None, "open", "none"),
    ("get", "/api/auth/oidc/start/", "/api/auth/oidc/start/", None, "open", "none"),
    ("get", "/api/auth/oidc/callback/", "/api/auth/oidc/callback/", None, "open", "none"),
    ("post", "/api/auth/password/", "/api/auth/password/", {}, "open", "api"),
    ("post", "/api/auth/password/reset/", "/api/auth/password/reset/", {"email": "x@example.com"}, "open", "none"),
    ("post", "/api/auth/password/reset/confirm/", "/api/auth/password/reset/confirm/", {}, "open", "none"),
    ("get", "/api/auth/session/", "/api/auth/session/", None, "open", "api"),
    ("get", "/api/gurus/", "/api/gurus/", None, "list", "api"),
    ("post", "/api/gurus/", "/api/gurus/", {"slug": "new", "name": "New"}, "admin", "api"),
    ("delete", "/api/gurus/{slug}/", f"{G}/", None, "admin guru", "api"),
    ("get", "/api/gurus/{slug}/", f"{G}/", None, "read", "api"),
    ("patch", "/api/gurus/{slug}/", f"{G}/", {"name": "Py"}, "manage", "api"),
    ("get", "/api/gurus/{slug}/analytics/", f"{G}/analytics/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/analytics/gaps/", f"{G}/analytics/gaps/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/analytics/refusals/", f"{G}/analytics/refusals/", None, "manage", "api"),
    ("post", "/api/gurus/{slug}/answer/", f"{G}/answer/", ASK, "read", "site"),
    ("post", "/api/gurus/{slug}/answer/stream/", f"{G}/answer/stream/", ASK, "read", "site"),
    ("post", "/api/gurus/{slug}/binges/", f"{G}/binges/", {"root_slug": "{question}"}, "read", "site"),
    ("get", "/api/gurus/{slug}/binges/{binge_id}/", f"{G}/binges/{{binge}}/", None, "read", "site"),
    ("get", "/api/gurus/{slug}/golden/pairs/", f"{G}/golden/pairs/", None, "manage", "api"),
    ("post", "/api/gurus/{slug}/golden/pairs/", f"{G}/golden/pairs/", {"question": "How?", "expected_source_id": 999}, "manage", "api"),
    ("delete", "/api/gurus/{slug}/golden/pairs/{pair_id}/", f"{G}/golden/pairs/999/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/golden/runs/", f"{G}/golden/runs/", None, "manage", "api"),
    ("post", "/api/gurus/{slug}/golden/runs/", f"{G}/golden/runs/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/icon.svg", f"{G}/icon.svg", None, "read", "none"),
    ("get", "/api/gurus/{slug}/icon/", f"{G}/icon/", None, "read", "api"),
    ("post", "/api/gurus/{slug}/icon/", f"{G}/icon/", {}, "manage", "api"),
    ("get", "/api/gurus/{slug}/integrations/", f"{G}/integrations/", None, "manage", "api"),
    ("post", "/api/gurus/{slug}/integrations/", f"{G}/integrations/", {"type": "DISCORD", "external_id": "1", "bot_token": "t"}, "manage", "api"),
    ("get", "/api/gurus/{slug}/integrations/slack/install/", f"{G}/integrations/slack/install/", None, "manage", "api"),
    ("delete", "/api/gurus/{slug}/integrations/{integration_id}/", f"{G}/integrations/999/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/integrations/{integration_id}/", f"{G}/integrations/999/", None, "manage", "api"),
    ("patch", "/api/gurus/{slug}/integrations/{integration_id}/", f"{G}/integrations/999/", {}, "manage", "api"),
    ("get", "/api/gurus/{slug}/integrations/{integration_id}/test/", f"{G}/integrations/999/test/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/overview/", f"{G}/overview/", None, "read", "site"),
    ("get", "/api/gurus/{slug}/questions/{question_id}/trace/", f"{G}/questions/999/trace/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/questions/{question_slug}/", f"{G}/questions/{{question}}/", None, "read", "site"),
    ("get", "/api/gurus/{slug}/questions/{question_slug}/follow-ups/", f"{G}/questions/{{question}}/follow-ups/", None, "read", "site"),
    ("post", "/api/gurus/{slug}/questions/{question_slug}/vote/", f"{G}/questions/{{question}}/vote/", {"vote_type": "upvote"}, "read", "site"),
    ("post", "/api/gurus/{slug}/reanalyze/", f"{G}/reanalyze/", None, "manage", "api"),
    ("post", "/api/gurus/{slug}/reembed/", f"{G}/reembed/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/refusals/{refusal_id}/trace/", f"{G}/refusals/999/trace/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/sources/", f"{G}/sources/", None, "manage", "api"),
    ("post", "/api/gurus/{slug}/sources/", f"{G}/sources/", SOURCE, "manage", "api"),
    ("delete", "/api/gurus/{slug}/sources/{source_id}/", f"{G}/sources/999/", None, "manage", "api"),
    ("get", "/api/gurus/{slug}/sources/{source_id}/", f"{G}/sources/999/", None, "manage", "api"),
    ("post", "/api/gurus/{slug}/sources/{source_id}/reindex/", f"{G}/sources/999/reindex/", None, "manage", "api"),
    ("put", "/api/gurus/{slug}/sources/{source_id}/token/", f"{G}/sources/999/token/", {"token": ""}, "manage", "api"),
    ("get", "/api/gurus/{slug}/widget-ids/", f"{G}/widget-ids/", None, "manage", "api"),
    ("post", "/api/gurus/{slug}/widget-ids/", f"{G}/widget-ids/", {"domain_pattern": "*"}, "manage", "api"),
    ("delete", "/api/gurus/{slug}/widget-ids/{widget_id}/", f"{G}/widget-ids/999/", None, "manage", "api"),
    ("post", "/api/gurus/{slug}/widget-ids/{widget_id}/secret/", f"{G}/widget-ids/999/secret/", None, "manage", "api"),
    ("get", "/api/health/", "/api/health/", None, "open", "none"),
    ("get", "/api/invitations/", "/api/invitations/", None, "admin", "api"),
    ("post", "/api/invitations/", "/api/invitations/", {"email": "new@example.com", "role": "member"}, "admin", "api"),
    ("post", "/api/invitations/accept/", "/api/invitations/accept/", {}, "open", "none"),
    ("post", "/api/invitations/lookup/", "/api/invitations/lookup/", {}, "open", "none"),
    ("delete", "/api/invitations/{invitation_id}/", "/api/invitations/999/", None, "admin", "api"),
    ("get", "/api/members/", "/api/members/", None, "admin", "api"),
    ("patch", "/api/members/{user_id}/", "/api/members/999/", {"active": True}, "admin", "api"),
    ("post", "/api/members/{user_id}/gurus/", "/api/members/999/gurus/", {"guru": "python"}, "admin", "api"),
    ("delete", "/api/members/{user_id}/gurus/{guru_slug}/", "/api/members/999/gurus/python/", None, "admin", "api"),
    ("get", "/api/settings/", "/api/settings/", None, "admin", "api"),
    ("patch", "/api/settings/", "/api/settings/", {"answer_cache_enabled": False}, "admin", "api"),
    ("get", "/api/sitemap/questions/", "/api/sitemap/questions/", None, "sitemap", "none"),
    ("post", "/api/slack/events/", "/api/slack/events/", {"type": "event_callback"}, "signed", "none"),
    ("get", "/api/slack/oauth/", "/api/slack/oauth/", None, "signed", "none"),
    ("post", "/api/v1/{guru_slug}/analytics/export/", f"{V1}/analytics/export/", {}, "manage", "v1"),
    ("post", "/api/v1/{guru_slug}/answer/", f"{V1}/answer/", ASK, "read", "v1"),
    ("post", "/api/v1/{guru_slug}/chat/completions", f"{V1}/chat/completions", CHAT, "read", "v1"),
    ("post", "/api/v1/{guru_slug}/crawl/start/", f"{V1}/crawl/start/", {"url": "http://127.0.0.1:9/"}, "manage", "v1"),
    ("get", "/api/v1/{guru_slug}/crawl/{crawl_id}/status/", f"{V1}/crawl/999/status/", None, "manage", "v1"),
    ("post", "/api/v1/{guru_slug}/crawl/{crawl_id}/stop/", f"{V1}/crawl/999/stop/", None, "manage", "v1"),
    ("delete", "/api/v1/{guru_slug}/data-sources/", f"{V1}/data-sources/", {"ids": [999]}, "manage", "v1"),
    ("get", "/api/v1/{guru_slug}/data-sources/", f"{V1}/data-sources/", None, "read", "v1"),
    ("post", "/api/v1/{guru_slug}/data-sources/", f"{V1}/data-sources/", {"texts": [{"name": "Notes", "content": "Use four spaces."}]}, "manage", "v1"),
    ("post", "/api/v1/{guru_slug}/data-sources/reindex/", f"{V1}/data-sources/reindex/", {"ids": [999]}, "manage", "v1"),
    ("post", "/api/v1/{guru_slug}/search/", f"{V1}/search/", {"query": "virtual environment"}, "read", "v1"),
    ("get", "/api/v1/{guru_slug}/sessions/", f"{V1}/sessions/", None, "read", "v1"),
    ("delete", "/api/v1/{guru_slug}/sessions/{session_id}/", f"{V1}/sessions/{{binge}}/", None, "read", "v1"),
    ("get", "/api/v1/{guru_slug}/sessions/{session_id}/", f"{V1}/sessions/{{binge}}/", None, "read", "v1"),
    ("post", "/api/v1/{guru_slug}/webhooks/github/", f"{V1}/webhooks/github/", {}, "signed", "none"),
    ("post", "/api/v1/{guru_slug}/youtube/channel/", f"{V1}/youtube/channel/", {"url": "https://example.com/"}, "manage", "v1"),
    ("post", "/api/v1/{guru_slug}/youtube/playlist/", f"{V1}/youtube/playlist/", {"url": "https://example.com/"}, "manage", "v1"),
    ("post", "/api/widget/ask/", "/api/widget/ask/", ASK, "widget", "widget"),
    ("post", "/api/widget/binge/", "/api/widget/binge/", {"root_slug": "{question}"}, "widget", "widget"),
    ("get", "/api/widget/guru/", "/api/widget/guru/", None, "widget", "widget"),
    ("post", "/api/{guru_slug}/follow_up/examples/", "/api/python/follow_up/examples/", {"question_slug": "{question}"}, "widget", "widget"),
    ("post", "/api/{guru_slug}/record_vote/", "/api/python/record_vote/", {"content_slug": "{question}", "vote_type": "upvote"}, "widget", "widget"),
]  # fmt: skip

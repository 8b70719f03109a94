"""The OpenAPI document (drf-spectacular) served at /api/schema/ and drawn at /api/docs/."""

_DESCRIPTION = """\
OpenGuru answers questions from a guru's indexed sources, with citations.

## Authentication

- **Public API v1** (`/api/v1/<guru_slug>/…`): send a personal API key in the `X-API-KEY`
  header. Create one in the UI or with `POST /api/api-keys/`; it is shown once. Each key has a
  per-minute request limit (`429 rate_limited`, with `Retry-After`). Changing a guru's data
  sources needs a key of a staff user.
- **Admin endpoints** (gurus, sources, API keys): a signed-in staff user's session, or
  `Authorization: Bearer <admin token>` (`OPENGURU_ADMIN_TOKEN`), or the `X-API-KEY` of a staff
  user (API keys themselves are managed only with a session or the admin token).
- **Public ask endpoints** (`/api/gurus/<slug>/answer/…`, questions, binges): no credentials;
  asks are limited per client address.

## Errors

Every error is JSON `{"msg": "<for people>", "code": "<stable, for programs>"}`, e.g.
`400 invalid_input`, `400 malformed_json`, `400 no_answer` (the guru's sources do not cover the
question), `401 not_authenticated`, `403 permission_denied`, `404 guru_not_found`,
`413 file_too_large`, `429 rate_limited`, `503 not_configured`. Invalid input may carry a
`detail` object with the problem of each field.

## Also served

`/mcp`: the same gurus as a Model Context Protocol server (streamable HTTP) for agents,
authenticated with `X-API-KEY`. It is not an HTTP+JSON API and is not described here.
"""

SPECTACULAR_SETTINGS = {
    "TITLE": "OpenGuru API",
    "VERSION": "0.1.0",
    "DESCRIPTION": _DESCRIPTION,
    # 3.1: JSON Schema 2020-12, so a stream's events can say what their `data` holds
    # (contentMediaType/contentSchema), and schemathesis checks each event against it.
    "OAS_VERSION": "3.1.0",
    # The async answer views are plain Django views; this urlconf adds stand-ins documenting them.
    "SERVE_URLCONF": "config.openapi_urls",
    "DEFAULT_GENERATOR_CLASS": "openguru.core.openapi.SchemaGenerator",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "COMPONENT_SPLIT_REQUEST": True,
    # OpenAI clients send the API key as a bearer token (/api/v1/<guru>/chat/completions).
    "APPEND_COMPONENTS": {
        "securitySchemes": {
            "ApiKeyBearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "An API key as `Authorization: Bearer <key>`, as OpenAI "
                "clients send it.",
            }
        }
    },
    # Names for choice sets that share a field name: two vocabularies of source types (ours, and
    # Gurubase's in the public API v1), and the roles of OpenAI's chat messages.
    "ENUM_NAME_OVERRIDES": {
        "ChatRoleEnum": "openguru.api_v1.openapi.CHAT_ROLES",
        "AssistantRoleEnum": ["assistant"],
        "ErrorCodeEnum": "openguru.core.errors.ErrorCode",
        "MemberRoleEnum": "openguru.accounts.models.Role",
        "SourceTypeEnum": "openguru.sources.models.DataSource.Type",
        "V1SourceTypeEnum": "openguru.api_v1.gurubase.V1_SOURCE_TYPE_NAMES",
        "IntegrationTypeEnum": "openguru.integrations.models.Integration.Type",
        "ChannelModeEnum": "openguru.integrations.bots.apis.CHANNEL_MODES",
        "SlackPayloadTypeEnum": ["url_verification", "event_callback"],
        "ExportChannelEnum": "openguru.answers.analytics.rows.CHANNEL_FILTERS",
        "AnswerModeEnum": "openguru.answers.engine.groundwork.ANSWER_MODES",
    },
    # Swagger UI and its assets come from the installed sidecar package: the docs page works
    # without internet. No validator badge: it would send the schema's address to swagger.io.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

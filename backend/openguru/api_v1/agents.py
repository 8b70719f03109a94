"""What the doors for agents share (the OpenAI-compatible chat completions and the MCP server):
the API key, which their clients send as `Authorization: Bearer <key>` as often as in
`X-API-KEY`. Their answers are the ask path's (`answers/channels/mcp.py`, `chat.py`)."""

from openguru.core.errors import DomainError, ErrorCode
from openguru.integrations.apikeys.services import api_key_authenticate
from openguru.integrations.models import APIKey


def raw_api_key(*, x_api_key: str, authorization: str) -> str:
    """`X-API-KEY` if sent, else the token of `Authorization: Bearer <token>`."""
    raw = x_api_key.strip()
    if raw:
        return raw
    scheme, _, token = authorization.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def agent_api_key(*, x_api_key: str, authorization: str) -> APIKey:
    """Blocking (database). A missing, unknown or revoked key is a 401, as with
    `api_key_from_request`."""
    raw = raw_api_key(x_api_key=x_api_key, authorization=authorization)
    if not raw:
        raise DomainError(
            ErrorCode.NOT_AUTHENTICATED,
            "Send your API key in the X-API-KEY header or as Authorization: Bearer <key>.",
        )
    key = api_key_authenticate(raw_key=raw)
    if key is None:
        raise DomainError(ErrorCode.NOT_AUTHENTICATED, "This API key is not valid.")
    return key

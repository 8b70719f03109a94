"""MCP (Model Context Protocol) over streamable HTTP at /mcp, served by the same ASGI app as
Django: agents list and call each guru's `ask_<slug>` and `search_<slug>` tools (`mcp_tools`).

Every request needs an API key, in `X-API-KEY` or as `Authorization: Bearer <key>`; a missing
or invalid one is a 401 `{"code", "msg"}` before MCP reads the request, and each request counts
against the key's rate limit like any /api/v1/ call.

Why a session manager per request: the SDK's `StreamableHTTPSessionManager` holds a task group
that must be open while it serves, and expects an ASGI lifespan to open it at start-up. Django's
ASGI handler refuses the lifespan protocol (uvicorn's default "auto" then carries on without
one) and the tests serve the app with lifespan "off", so nothing would open it; a manager
started lazily from the first request would belong to that request's event loop, and under
gunicorn each worker would keep its own sessions, which a client's next request may not reach.
So the server is stateless: each HTTP request gets a fresh manager, run for that request alone,
with a `Server` whose tools belong to the request's key. The SDK's stateless mode keeps nothing
between requests anyway; the price is a task group per request, nothing next to an answer.

No Host/Origin check (the SDK's DNS-rebinding guard): every request needs the API key, which a
page that rebinds a name to this host cannot know, and Django's ALLOWED_HOSTS does not apply
here.
"""

from functools import partial
from typing import Any

from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.datastructures import Headers
from starlette.responses import JSONResponse

from openguru.answers.channels.access import Asker, key_asker
from openguru.api_v1.agents import agent_api_key
from openguru.api_v1.mcp_tools import tool_call, tool_list
from openguru.core.asgi import ASGIApp, Scope
from openguru.core.errors import DomainError
from openguru.core.threads import run_blocking

MCP_PATH = "/mcp"

INSTRUCTIONS = (
    "Each Guru answers questions about its topic from the documentation it has read. "
    "ask_<guru> returns an answer in markdown with links to its sources (or says the sources "
    "don't cover the question); search_<guru> returns the most relevant passages of those "
    "sources, for reading them yourself."
)


def is_mcp_path(path: str) -> bool:
    return path == MCP_PATH or path.startswith(MCP_PATH + "/")


def _authorized_asker(x_api_key: str, authorization: str) -> Asker:
    """Blocking: the key, then its rate limit (once per HTTP request, whatever it calls)."""
    key = agent_api_key(x_api_key=x_api_key, authorization=authorization)
    return key_asker(key_id=key.pk, user=key.user)


def _server_for(asker: Asker) -> Server[Any]:
    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=await tool_list(asker=asker))

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return await tool_call(asker=asker, name=params.name, arguments=params.arguments or {})

    return Server(
        "openguru", instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool
    )


def _error_response(error: DomainError) -> JSONResponse:
    headers = {"Retry-After": str(error.retry_after)} if error.retry_after is not None else None
    return JSONResponse(error.as_dict(), status_code=error.http_status, headers=headers)


async def mcp_application(scope: Scope, receive: Any, send: Any) -> None:
    headers = Headers(scope=scope)
    try:
        asker = await run_blocking(
            partial(
                _authorized_asker, headers.get("x-api-key", ""), headers.get("authorization", "")
            )
        )
    except DomainError as exc:
        await _error_response(exc)(scope, receive, send)
        return
    # JSON replies: a tool's result is whole when it is sent, so there is nothing to stream.
    manager = StreamableHTTPSessionManager(
        app=_server_for(asker), json_response=True, stateless=True
    )
    async with manager.run():
        await manager.handle_request(scope, receive, send)


def with_mcp(django: ASGIApp) -> ASGIApp:
    """The ASGI app: /mcp to the MCP server, everything else (lifespan included) to Django."""

    async def application(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and is_mcp_path(scope.get("path", "")):
            await mcp_application(scope, receive, send)
        else:
            await django(scope, receive, send)

    return application

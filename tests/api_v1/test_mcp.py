"""The MCP server at /mcp, used by the `mcp` package's own client over streamable HTTP against the
ASGI app under uvicorn (served without a lifespan, as the app must work without one)."""

import json
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from django.contrib.auth import get_user_model
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from openguru.answers.engine.refusal import NO_SOURCES
from openguru.core.threads import run_blocking
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import api_key_create

from tests.answers.conftest import page_url
from tests.answers.test_answer_engine import IN_SCOPE
from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db(transaction=True)

VENV_PAGE = page_url("Virtual environments")


def with_mcp(
    url: str, headers: dict[str, str], use: Callable[[Client], Awaitable[Any]], mode: str = "legacy"
) -> Any:
    """Run `use` with a connected client; "legacy" opens with the initialize handshake, "auto"
    with the 2026 protocol's `server/discover`."""

    async def main() -> Any:
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            transport = streamable_http_client(f"{url}/mcp", http_client=http)
            async with Client(transport, mode=mode) as client:
                return await use(client)

    return anyio.run(main)


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content if block.type == "text")


def test_an_agent_lists_the_tools_asks_and_searches(live_asgi, python_guru, llm_server, api_key):
    async def use(client: Client) -> dict[str, Any]:
        assert client.protocol_version in HANDSHAKE_PROTOCOL_VERSIONS  # after `initialize`
        tools = await client.list_tools()
        answer = await client.call_tool("ask_python", {"question": IN_SCOPE})
        found = await client.call_tool(
            "search_python", {"query": "virtual environment", "limit": 2}
        )
        return {
            "server": client.server_info,
            "tools": tools.tools,
            "answer": answer,
            "found": found,
        }

    got = with_mcp(live_asgi, {"Authorization": f"Bearer {api_key}"}, use)
    assert got["server"].name == "openguru"
    tools = {tool.name: tool for tool in got["tools"]}
    assert set(tools) == {"ask_python", "search_python"}
    assert tools["ask_python"].input_schema["required"] == ["question"]
    assert not got["answer"].is_error
    answer = text_of(got["answer"])
    assert "python -m venv myenv" in answer and VENV_PAGE in answer
    assert not got["found"].is_error
    results = got["found"].structured_content["results"]
    assert 1 <= len(results) <= 2
    assert results[0]["link"].startswith(VENV_PAGE)
    assert set(results[0]) == {"title", "link", "text", "score"}
    assert json.loads(text_of(got["found"])) == got["found"].structured_content


def test_the_2026_protocol_without_a_handshake_works_too(live_asgi, python_guru, api_key):
    async def use(client: Client) -> tuple[list[str], str]:
        assert client.protocol_version in MODERN_PROTOCOL_VERSIONS
        tools = await client.list_tools()
        answer = await client.call_tool("ask_python", {"question": IN_SCOPE})  # extractive
        return [tool.name for tool in tools.tools], text_of(answer)

    names, answer = with_mcp(live_asgi, {"X-API-KEY": api_key}, use, mode="auto")
    assert names == ["ask_python", "search_python"]
    assert VENV_PAGE in answer


def test_tools_follow_the_gurus_of_the_moment(live_asgi, python_guru, api_key):
    async def use(client: Client) -> tuple[list[str], str]:
        await client.list_tools()
        await run_blocking(partial(guru_make, slug="my-docs", name="My Docs"))
        tools = await client.list_tools(cache_mode="refresh")
        declined = await client.call_tool("ask_my_docs", {"question": "What is it?"})
        assert not declined.is_error  # a refusal is an answer too
        return [tool.name for tool in tools.tools], text_of(declined)

    names, declined = with_mcp(live_asgi, {"X-API-KEY": api_key}, use)
    assert names == ["ask_my_docs", "search_my_docs", "ask_python", "search_python"]
    assert declined == NO_SOURCES


def test_inactive_gurus_are_for_staff_keys_only(live_asgi, python_guru):
    guru_make(slug="draft", name="Draft")
    Guru.objects.filter(slug="draft").update(active=False)
    user = get_user_model().objects.create_user("reader")
    _, reader_key = api_key_create(user=user, name="reader")

    async def use(client: Client) -> list[str]:
        return [tool.name for tool in (await client.list_tools()).tools]

    assert with_mcp(live_asgi, {"X-API-KEY": reader_key}, use) == ["ask_python", "search_python"]


def test_bad_calls_say_what_is_wrong(live_asgi, python_guru, api_key):
    async def use(client: Client) -> tuple[Any, Any, MCPError | None]:
        missing = await client.call_tool("ask_python", {})
        too_many = await client.call_tool("search_python", {"query": "venv", "limit": 500})
        try:
            await client.call_tool("ask_nope", {"question": IN_SCOPE})
        except MCPError as exc:
            return missing, too_many, exc
        return missing, too_many, None

    missing, too_many, unknown = with_mcp(live_asgi, {"X-API-KEY": api_key}, use)
    assert missing.is_error and "question" in text_of(missing)
    assert too_many.is_error and "limit" in text_of(too_many)
    assert unknown is not None and "Unknown tool: ask_nope" in unknown.message


def test_a_request_without_a_valid_key_is_refused_before_mcp_reads_it(live_asgi, python_guru):
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    accept = {"Accept": "application/json, text/event-stream"}
    for headers in ({}, {"X-API-KEY": "og_nope"}, {"Authorization": "Bearer og_nope"}):
        response = httpx.post(f"{live_asgi}/mcp", json=initialize, headers=accept | headers)
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"
        assert response.json()["msg"]


def test_each_request_counts_against_the_keys_rate_limit(
    live_asgi, python_guru, api_key, settings, fresh_minute
):
    settings.API_RATE_LIMIT_PER_MINUTE = 1
    headers = {"X-API-KEY": api_key, "Accept": "application/json, text/event-stream"}
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert httpx.post(f"{live_asgi}/mcp", json=ping, headers=headers).status_code == 200
    limited = httpx.post(f"{live_asgi}/mcp", json=ping, headers=headers)
    assert limited.status_code == 429
    assert limited.json()["code"] == "rate_limited"
    assert limited.headers["retry-after"]

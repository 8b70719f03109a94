"""The MCP server's tools: for each guru a key may use, `ask_<slug>` (the engine's answer with
its sources, as every channel gets it) and `search_<slug>` (passages from the same retrieval,
no LLM). Tool names are identifiers, so a slug's hyphens become underscores; slugs have no
underscores, so a name leads back to exactly one slug."""

import json
import time
from dataclasses import asdict, replace
from functools import partial
from typing import Any

from mcp import types
from mcp.shared.exceptions import MCPError

from openguru.accounts.access import gurus_visible_to
from openguru.answers.channels.access import Asker, asker_guru
from openguru.answers.channels.mcp import answer_markdown
from openguru.answers.channels.prepare import MAX_QUESTION_CHARS, Ask, ask_prepare
from openguru.answers.channels.rules import Channel
from openguru.answers.engine.providers import providers_for
from openguru.answers.engine.search import MAX_SEARCH_RESULTS, passages_search
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.threads import run_blocking
from openguru.gurus.models import Guru

ASK, SEARCH = "ask", "search"
DEFAULT_SEARCH_LIMIT = 10

ASK_INPUT = {
    "type": "object",
    "properties": {
        "question": {
            "type": "string",
            "description": "The question, in plain words.",
            "maxLength": MAX_QUESTION_CHARS,
        }
    },
    "required": ["question"],
}

SEARCH_INPUT = {
    "type": "object",
    "properties": {
        "query": {
            "type": "string",
            "description": "What to look for.",
            "maxLength": MAX_QUESTION_CHARS,
        },
        "limit": {
            "type": "integer",
            "description": "How many passages to return.",
            "minimum": 1,
            "maximum": MAX_SEARCH_RESULTS,
            "default": DEFAULT_SEARCH_LIMIT,
        },
    },
    "required": ["query"],
}


def tool_name(kind: str, slug: str) -> str:
    return f"{kind}_{slug.replace('-', '_')}"


def tool_target(name: str) -> tuple[str, str] | None:
    """(kind, guru slug) of a tool name, or None if it names no tool of ours."""
    kind, _, ident = name.partition("_")
    if kind not in (ASK, SEARCH) or not ident:
        return None
    return kind, ident.replace("_", "-")


def usable_gurus(*, asker: Asker) -> list[Guru]:
    """Blocking. The gurus the key may read (the access rule), as on /api/v1/<guru_slug>/."""
    return list(gurus_visible_to(asker.user).order_by("slug"))


def usable_guru(*, asker: Asker, slug: str) -> Guru | None:
    """Blocking. None when there is no such guru for this key."""
    try:
        return asker_guru(asker=asker, slug=slug)
    except DomainError:
        return None


def guru_tools(guru: Guru) -> list[types.Tool]:
    about = f" ({guru.domain_knowledge})" if guru.domain_knowledge else ""
    return [
        types.Tool(
            name=tool_name(ASK, guru.slug),
            title=f"Ask {guru.name} Guru",
            description=(
                f"Ask the {guru.name} Guru a question about {guru.name}{about}. It answers "
                "from the sources it has read, in markdown with links to them, and says so "
                "when they don't cover the question."
            ),
            input_schema=ASK_INPUT,
            annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
        ),
        types.Tool(
            name=tool_name(SEARCH, guru.slug),
            title=f"Search {guru.name} Guru's sources",
            description=(
                f"Search the sources of the {guru.name} Guru{about}: the passages most relevant "
                "to a query, each with its title, link, text and a relevance score from 0 to 1. "
                "Writes no answer."
            ),
            input_schema=SEARCH_INPUT,
            annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
        ),
    ]


async def tool_list(*, asker: Asker) -> list[types.Tool]:
    """Read per request: a guru added at run time is offered at once."""
    gurus = await run_blocking(partial(usable_gurus, asker=asker))
    return [tool for guru in gurus for tool in guru_tools(guru)]


async def tool_call(*, asker: Asker, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
    """An unknown tool is a protocol error; a tool that fails says why in its result, where
    the model calling it can read it (a bad argument, an unconfigured provider...)."""
    target = tool_target(name)
    guru = None
    if target is not None:
        guru = await run_blocking(partial(usable_guru, asker=asker, slug=target[1]))
    if target is None or guru is None:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {name}")
    try:
        if target[0] == ASK:
            return _text_result(await _ask(asker, guru, arguments))
        return await _search(guru, arguments)
    except DomainError as exc:
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=exc.msg)], is_error=True
        )


async def _ask(asker: Asker, guru: Guru, arguments: dict[str, Any]) -> str:
    """`guru`: the tool's, found under the asker's rules. The key was counted once for the
    whole MCP request."""
    received_at = time.perf_counter()
    question = _text_argument(arguments, "question")
    prepared = await run_blocking(
        partial(
            ask_prepare,
            channel=Channel.MCP,
            asker=replace(asker, guru=guru),
            guru_slug=guru.slug,
            ask=Ask(question=question),
            providers_for=providers_for,
            received_at=received_at,
        )
    )
    return await answer_markdown(prepared.events())


async def _search(guru: Guru, arguments: dict[str, Any]) -> types.CallToolResult:
    query = _text_argument(arguments, "query")
    limit = arguments.get("limit", DEFAULT_SEARCH_LIMIT)
    if (
        isinstance(limit, bool)
        or not isinstance(limit, int)
        or not 1 <= limit <= MAX_SEARCH_RESULTS
    ):
        raise DomainError(
            ErrorCode.INVALID_INPUT, f"limit: give a whole number from 1 to {MAX_SEARCH_RESULTS}."
        )
    passages = await run_blocking(
        partial(passages_search, guru=guru, query=query, limit=limit, providers=providers_for(guru))
    )
    found = {"results": [asdict(passage) for passage in passages]}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(found, ensure_ascii=False))],
        structured_content=found,
    )


def _text_result(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


def _text_argument(arguments: dict[str, Any], name: str) -> str:
    value = arguments.get(name)
    if not isinstance(value, str) or not value.strip():
        raise DomainError(ErrorCode.INVALID_INPUT, f"{name}: give it as a non-empty string.")
    if len(value) > MAX_QUESTION_CHARS:
        raise DomainError(
            ErrorCode.INVALID_INPUT, f"{name}: at most {MAX_QUESTION_CHARS} characters."
        )
    return value.strip()

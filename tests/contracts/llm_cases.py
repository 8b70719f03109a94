"""What the LLM contract and specifics files share: the keys of the loopback servers, the prompt
and schema asked, an LLM of each kind on a server, and `Case` (their fixtures, the servers and
`llm_case`, are in conftest.py)."""

import asyncio
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from openguru.providers.llm.base import LLM, ChatMessage, StreamChunk
from openguru.providers.llm.gemini import GeminiLLM
from openguru.providers.llm.openai_compatible import OpenAICompatibleLLM

from tests.fakes.gemini_server import FakeGeminiServer
from tests.fakes.openai_server import FakeOpenAIServer, LoopbackApp

OPENAI_KEY = "sk-test-openai-key"
GEMINI_KEY = "test-gemini-key"

PROMPT = [
    ChatMessage(
        "system",
        "Answer only from the sources and cite them.\n"
        "[1] The sky is blue because air scatters short wavelengths. Sunsets are red.\n"
        "[2] Grass is green.",
    ),
    ChatMessage("user", "Why is the sky blue?"),
]
EXPECTED_ANSWER = "The sky is blue because air scatters short wavelengths. [1]"

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "needs_retrieval": {"type": "boolean"},
        "top_k": {"type": "integer"},
        "keywords": {"type": "array", "items": {"type": "string"}},
        "language": {"type": "string", "enum": ["en", "de"]},
        "filters": {
            "type": "object",
            "properties": {"source_type": {"type": "string"}},
            "required": ["source_type"],
            "additionalProperties": False,
        },
    },
    "required": [
        "query",
        "needs_retrieval",
        "top_k",
        "keywords",
        "language",
        "filters",
    ],
    "additionalProperties": False,
}

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


async def collect(stream: AsyncIterator[StreamChunk]) -> list[StreamChunk]:
    return [chunk async for chunk in stream]


def openai_llm(server: FakeOpenAIServer, *, model: str = "fake-gpt", **options: Any) -> LLM:
    settings: dict[str, Any] = {"timeout": 10.0, "max_retries": 0, **options}
    return OpenAICompatibleLLM(
        api_key=OPENAI_KEY, base_url=server.base_url, model=model, **settings
    )


def gemini_llm(server: FakeGeminiServer, **options: Any) -> LLM:
    settings: dict[str, Any] = {"timeout": 10.0, "max_retries": 0, **options}
    return GeminiLLM(api_key=GEMINI_KEY, base_url=server.base_url, model="gemini-fake", **settings)


@dataclass(frozen=True)
class Case:
    llm: LLM
    # Where the answering calls land (failures are injected there); None: no wire at all.
    wire: LoopbackApp | None
    # SSE events a server sends up to and including the first token.
    events_to_first_token: int = 1


def wire_of(case: Case) -> LoopbackApp:
    if case.wire is None:
        pytest.skip("FakeLLM has no wire to fail")
    return case.wire

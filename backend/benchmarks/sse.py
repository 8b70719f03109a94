"""An asking client: streams an answer over HTTP and times its first `delta` event."""

import asyncio
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx


class SseParser:
    """Server-Sent Events, fed one line at a time (without its line break); a blank line ends
    an event. Only `event:` and `data:` matter here; data lines join with newlines."""

    def __init__(self) -> None:
        self._name = ""
        self._data: list[str] = []

    def feed(self, line: str) -> tuple[str, str] | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):  # a comment, e.g. a keep-alive
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self._name = value
        elif name == "data":
            self._data.append(value)
        return None

    def _dispatch(self) -> tuple[str, str] | None:
        if not self._data and not self._name:
            return None
        event = (self._name or "message", "\n".join(self._data))
        self._name, self._data = "", []
        return event


def parse_events(lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    parser = SseParser()
    for line in [*lines, ""]:
        event = parser.feed(line)
        if event is not None:
            yield event


@dataclass
class AskOutcome:
    question: str
    status: int = 0
    ttft_ms: float | None = None  # request start -> first `delta` event
    total_ms: float = 0.0
    events: list[str] = field(default_factory=list)
    slug: str | None = None
    refused: bool = False
    cached: bool = False
    error: str = ""  # "" when the answer streamed to its `done` event

    @property
    def answered(self) -> bool:
        """Streamed by the LLM: no error, not refused by the trust gate, not from the cache."""
        return not self.error and not self.refused and not self.cached


def _read_event(outcome: AskOutcome, name: str, data: dict[str, Any], started: float) -> None:
    outcome.events.append(name)
    if name == "delta" and outcome.ttft_ms is None:
        outcome.ttft_ms = (time.perf_counter() - started) * 1000
    elif name in ("meta", "done"):
        outcome.slug = data.get("slug") or outcome.slug
        outcome.refused = outcome.refused or bool(data.get("refused"))
        outcome.cached = outcome.cached or bool(data.get("cached"))
    elif name == "error":
        outcome.error = f"error event: {data.get('code', '?')}"


async def ask_stream(
    client: httpx.AsyncClient, url: str, question: str, *, mode: str, timeout: float
) -> AskOutcome:
    """POST the question to the stream endpoint; never raises (failures land in `error`)."""
    outcome = AskOutcome(question=question)
    started = time.perf_counter()
    try:
        async with asyncio.timeout(timeout):
            await _stream(client, url, {"question": question, "mode": mode}, outcome, started)
    except TimeoutError:
        outcome.error = "timeout"
    except httpx.HTTPError as exc:
        outcome.error = f"{type(exc).__name__}"
    outcome.total_ms = (time.perf_counter() - started) * 1000
    if not outcome.error and "done" not in outcome.events:
        outcome.error = "stream ended without done"
    return outcome


async def _stream(
    client: httpx.AsyncClient,
    url: str,
    body: dict[str, str],
    outcome: AskOutcome,
    started: float,
) -> None:
    async with client.stream("POST", url, json=body) as response:
        outcome.status = response.status_code
        if response.status_code != 200:
            await response.aread()
            outcome.error = f"http {response.status_code}"
            return
        parser = SseParser()
        async for line in response.aiter_lines():
            event = parser.feed(line)
            if event is not None:
                _read_event(outcome, event[0], json.loads(event[1] or "{}"), started)

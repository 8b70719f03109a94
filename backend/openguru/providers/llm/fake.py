"""A deterministic LLM with no network, for development and tests (`LLM_PROVIDER=fake`).

Its answer is a function of the prompt: when the messages hold numbered passages (`[1] text`),
it answers with the first sentence of the first one and cites it (`... [1]`); otherwise it
repeats the question. `complete_json` fills the schema with values derived from the question.
Tests can script the next answers, JSON objects or errors.
"""

import re
from collections import deque
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from openguru.core.errors import DomainError
from openguru.providers.llm.base import ChatMessage, Completion, JsonCompletion, StreamChunk, Usage

_CITED_PASSAGE = re.compile(r"\[(\d+)\][^\S\n]*([^\n]+)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_TOKEN = re.compile(r"\s*\S+\s*")


class FakeLLM:
    def __init__(
        self,
        *,
        model: str = "fake-llm",
        responses: Sequence[str] = (),
        json_responses: Sequence[Mapping[str, Any]] = (),
        errors: Sequence[DomainError] = (),
    ) -> None:
        """`responses`, `json_responses` and `errors` are used up in order by the next calls
        (an error first); after that the fake answers deterministically."""
        self._model = model
        self._responses = deque(responses)
        self._json_responses = deque(json_responses)
        self._errors = deque(errors)
        self.calls: list[list[ChatMessage]] = []  # every prompt received, for assertions

    @property
    def model(self) -> str:
        return self._model

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        text = self._next_answer(messages, max_tokens)
        return Completion(text=text, model=self._model, usage=_usage(messages, text))

    async def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> AsyncIterator[StreamChunk]:
        text = self._next_answer(messages, max_tokens)
        for token in _tokens(text):
            yield StreamChunk(delta=token, model=self._model)
        yield StreamChunk(delta="", model=self._model, usage=_usage(messages, text))

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: Mapping[str, Any],
        name: str,
        max_tokens: int | None = None,
    ) -> JsonCompletion:
        self._record(messages)
        if self._json_responses:
            data = dict(self._json_responses.popleft())
        else:
            data = _example(schema, _first_sentence(_question(messages)), schema)
        return JsonCompletion(data=data, model=self._model, usage=_usage(messages, str(data)))

    def _next_answer(self, messages: Sequence[ChatMessage], max_tokens: int | None) -> str:
        self._record(messages)
        text = self._responses.popleft() if self._responses else _answer(messages)
        if max_tokens is not None:
            text = "".join(_tokens(text)[:max_tokens])
        return text

    def _record(self, messages: Sequence[ChatMessage]) -> None:
        self.calls.append(list(messages))
        if self._errors:
            raise self._errors.popleft()


def _answer(messages: Sequence[ChatMessage]) -> str:
    passage = _CITED_PASSAGE.search("\n".join(m.content for m in messages))
    if passage:
        return f"{_first_sentence(passage.group(2))} [{passage.group(1)}]"
    return f"You asked: {_first_sentence(_question(messages)) or 'nothing'}"


def _question(messages: Sequence[ChatMessage]) -> str:
    return next((m.content for m in reversed(messages) if m.role == "user"), "")


def _first_sentence(text: str) -> str:
    return _SENTENCE_END.split(text.strip(), maxsplit=1)[0][:200].strip()


def _tokens(text: str) -> list[str]:
    """Word-sized deltas whose concatenation is exactly `text`."""
    return _TOKEN.findall(text) or ([text] if text else [])


def _usage(messages: Sequence[ChatMessage], text: str) -> Usage:
    prompt_tokens = sum(len(m.content.split()) for m in messages)
    return Usage(prompt_tokens=prompt_tokens, completion_tokens=len(_tokens(text)))


def _example(schema: Mapping[str, Any], hint: str, root: Mapping[str, Any]) -> Any:
    """A deterministic value that satisfies `schema` (types, enums, nested objects, arrays)."""
    if "$ref" in schema:
        return _example(_resolve(root, schema["$ref"]), hint, root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for combinator in ("anyOf", "oneOf", "allOf"):
        if schema.get(combinator):
            return _example(schema[combinator][0], hint, root)
    kind = _kind(schema)
    if kind == "object":
        properties = schema.get("properties") or {}
        return {key: _example(sub, f"{key}: {hint}", root) for key, sub in properties.items()}
    if kind == "array":
        count = max(int(schema.get("minItems", 1)), 1)
        return [_example(schema.get("items") or {}, hint, root) for _ in range(count)]
    return _scalar(kind, schema, hint)


def _scalar(kind: str, schema: Mapping[str, Any], hint: str) -> Any:
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 0.5))
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    text = hint.ljust(int(schema.get("minLength", 0)), ".")
    return text[: int(schema.get("maxLength", len(text)))]


def _kind(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(kind, list):  # ["string", "null"]: the first real type
        kind = next((k for k in kind if k != "null"), "null")
    return str(kind).lower()


def _resolve(root: Mapping[str, Any], ref: str) -> Mapping[str, Any]:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return dict(node)

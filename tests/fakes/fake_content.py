"""Deterministic content the fake protocol servers (OpenAI, Gemini, TEI) answer with: what the
fake model says for a prompt, how a stream splits it into tokens, a value for a JSON Schema, and
word-hash vectors that make retrieval over them behave like retrieval."""

import hashlib
import json
import math
import re
from collections.abc import Mapping
from typing import Any

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_CITED_PASSAGE = re.compile(r"\[(\d+)\][^\S\n]*([^\n]+)")
_CONTEXT = re.compile(r'<context id="(\d+)" title="[^"]*" link="[^"]*">\n(.*?)\n</context>', re.S)


def first_sentence(text: str, limit: int = 200) -> str:
    sentence = _SENTENCE_END.split(text.strip(), maxsplit=1)[0]
    return sentence[:limit].strip()


def fake_answer(prompt_text: str, question: str) -> str:
    """What the fake model says: the first sentence of the prompt's first context, cited as the
    answer prompt asks (`[n]`, the context's id), or of its first `[n]` passage."""
    context = _CONTEXT.search(prompt_text)
    if context:
        number, text = context.groups()
        return f"{first_sentence(_without_heading(text))} [{number}]"
    match = _CITED_PASSAGE.search(prompt_text)
    if match:
        return f"{first_sentence(match.group(2))} [{match.group(1)}]"
    return f"You asked: {first_sentence(question) or 'nothing'}"


def _without_heading(text: str) -> str:
    """A chunk starts with its heading path as a paragraph of its own; a model answers past it."""
    head, _, body = text.strip().partition("\n\n")
    return body or head


def split_tokens(text: str) -> list[str]:
    """Word-sized pieces whose concatenation is exactly `text` (what a stream sends)."""
    return re.findall(r"\s*\S+\s*", text) or [text]


def count_words(text: str) -> int:
    return len(text.split())


def example_for_schema(schema: Mapping[str, Any], hint: str, root: Mapping[str, Any]) -> Any:
    """A value that satisfies a JSON Schema (OpenAI or Gemini flavour) built from the prompt."""
    if "$ref" in schema:
        return example_for_schema(_resolve_ref(root, schema["$ref"]), hint, root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return example_for_schema(schema[key][0], hint, root)
    kind = _schema_type(schema)
    if kind == "object":
        properties = schema.get("properties") or {}
        return {
            name: example_for_schema(sub, f"{name}: {hint}", root)
            for name, sub in properties.items()
        }
    if kind == "array":
        count = max(int(schema.get("minItems", 1)), 1)
        return [example_for_schema(schema.get("items") or {}, hint, root) for _ in range(count)]
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 0.5))
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return hint.ljust(int(schema.get("minLength", 0)), ".")[: schema.get("maxLength", 10_000)]


def _schema_type(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type", "string")
    if isinstance(kind, list):  # ["string", "null"]: the first real type
        kind = next((k for k in kind if str(k).lower() != "null"), "null")
    if kind == "string" and "properties" in schema:
        kind = "object"
    return str(kind).lower()  # Gemini's OpenAPI flavour says "OBJECT", "STRING"


def _resolve_ref(root: Mapping[str, Any], ref: str) -> Mapping[str, Any]:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def schema_in_text(text: str) -> Mapping[str, Any] | None:
    """A JSON Schema written into a prompt (how a client asks for JSON without json_schema)."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        found = json.loads(text[start : end + 1])
    except ValueError:
        return None
    return found if isinstance(found, dict) and "properties" in found else None


_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
        "how", "i", "in", "is", "it", "of", "on", "or", "the", "to", "what", "with",
    }
)  # fmt: skip


def deterministic_vector(text: str, dimension: int) -> list[float]:
    """A unit vector from hashes of the text's words: equal texts embed equally, and texts that
    share words are close (so retrieval over these vectors behaves like retrieval)."""
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS] or [text]
    vector = [0.0] * dimension
    for word in words:
        digest = hashlib.sha256(word.encode()).digest()
        # Two buckets per word soften collisions in small dimensions.
        for offset in (0, 8):
            bucket = int.from_bytes(digest[offset : offset + 4], "big") % dimension
            vector[bucket] += 1.0 if digest[offset + 4] & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]

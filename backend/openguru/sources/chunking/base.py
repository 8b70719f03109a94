"""What chunking produces (`Chunk`), the chunk size rule, and the records the drafters share."""

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.conf import settings

from openguru.providers.embeddings.base import Embedder
from openguru.sources.loaders.base import Document

ChunkType = Literal["text", "code", "faq"]
CountTokens = Callable[[str], int]

DEFAULT_CHUNK_TOKENS = 200
# Longer chunks blur an embedding over several topics and eat the answer prompt's budget.
MAX_CHUNK_TOKENS = 512
MIN_CHUNK_TOKENS = 32
# FAQ pairs are never split; only a pair this many times over the size is cut (bounds the prompt).
FAQ_TRUNCATE_FACTOR = 4
MAX_HEADING_CHARS = 120
WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Chunk:
    text: str  # context prefix + body: what is embedded, indexed and quoted
    hash: str  # sha256 of type, link and text (NUL-separated), hex
    type: ChunkType
    metadata: Mapping[str, Any]  # title, link, doc_link, heading_path, anchor/lines + doc metadata


def default_chunk_size(embedder: Embedder) -> int:
    """Tokens per chunk: about 4/5 of the embedder window (MiniLM reads 256 and drops the rest),
    leaving room for tokenizer differences; CHUNK_SIZE_TOKENS > 0 overrides."""
    window = embedder.max_input_tokens
    configured = int(settings.CHUNK_SIZE_TOKENS)
    if configured > 0:
        # Past the window the model never sees the text; a larger size only hides that.
        return min(configured, window) if window > 0 else configured
    if window <= 0:
        return DEFAULT_CHUNK_TOKENS
    return max(MIN_CHUNK_TOKENS, min(MAX_CHUNK_TOKENS, window * 4 // 5))


@dataclass(frozen=True)
class Limits:
    size: int
    overlap: int
    min_chars: int
    count: CountTokens


@dataclass(frozen=True)
class Draft:
    """A chunk before its hash: what a format-specific drafter returns."""

    text: str
    link: str
    measure: int  # characters that count against min_chars (body + own heading, no prefix)
    metadata: dict[str, Any] = field(default_factory=dict)


Drafter = Callable[[Document, Limits], list[Draft]]


def finish(draft: Draft, document: Document, chunk_type: ChunkType) -> Chunk:
    metadata = {
        **document.metadata,
        "title": document.title,
        "link": draft.link,
        # What the loader reported: the unit of "unchanged page" (a playlist's video, whose
        # documents each link to their own minute, names it in its metadata).
        "doc_link": document.metadata.get("doc_link", document.link),
        **draft.metadata,
    }
    digest = hashlib.sha256(f"{chunk_type}\x00{draft.link}\x00{draft.text}".encode()).hexdigest()
    return Chunk(text=draft.text, hash=digest, type=chunk_type, metadata=metadata)

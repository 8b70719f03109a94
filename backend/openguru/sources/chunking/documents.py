"""Documents to chunks: pick the drafter for the document's format, drop fragments, hash."""

from collections.abc import Iterable, Iterator

from openguru.sources.chunking.base import Chunk, ChunkType, CountTokens, Drafter, Limits, finish
from openguru.sources.chunking.faq import faq_drafts
from openguru.sources.chunking.html import html_drafts
from openguru.sources.chunking.markdown import markdown_drafts
from openguru.sources.chunking.text_code import code_drafts, text_drafts
from openguru.sources.loaders.base import Document

_CHUNK_TYPES: dict[str, ChunkType] = {"code": "code", "faq": "faq"}
# Whitespace is no token: a list nested a thousand levels deep is a few hundred tokens in
# hundreds of kilobytes, and the vector store keeps 65,535 bytes of a chunk (the rest would be
# lost without a word). Counting at least one token per this many characters bounds a chunk of
# 512 tokens to 16,000 characters; real text has 4 or 5 per token, so it changes nothing there.
CHARS_PER_TOKEN_MAX = 32
_DRAFTERS: dict[str, Drafter] = {
    "html": html_drafts,
    "markdown": markdown_drafts,
    "text": text_drafts,
    "code": code_drafts,
    "faq": faq_drafts,
}


def chunk_documents(
    documents: Iterable[Document],
    *,
    size_tokens: int,
    overlap_tokens: int,
    min_chars: int,
    count_tokens: CountTokens,
) -> Iterator[Chunk]:
    limits = Limits(
        size=max(size_tokens, 8),
        # A quarter of the chunk repeated is plenty (the splitter also needs overlap < size).
        overlap=max(0, min(overlap_tokens, size_tokens // 4)),
        min_chars=min_chars,
        count=_bounded_by_length(count_tokens),
    )
    seen: set[str] = set()
    for document in documents:
        for chunk in _chunk_document(document, limits):
            if chunk.hash not in seen:
                seen.add(chunk.hash)
                yield chunk


def _bounded_by_length(count_tokens: CountTokens) -> CountTokens:
    def count(text: str) -> int:
        return max(count_tokens(text), len(text) // CHARS_PER_TOKEN_MAX)

    return count


def _chunk_document(document: Document, limits: Limits) -> list[Chunk]:
    chunk_type = _CHUNK_TYPES.get(document.format, "text")
    drafts = _DRAFTERS[document.format](document, limits)
    kept = [draft for draft in drafts if draft.measure >= limits.min_chars] or drafts
    return [finish(draft, document, chunk_type) for draft in kept]

"""Turn the loaders' Documents into chunks sized for the embedder's input window.

Each chunk's text starts with a short context prefix (page title and heading path): the embedder
sees only the chunk, and a section body such as "Return the absolute value of a number." is only
findable when "Built-in Functions > abs(x)" travels with it. Sizes count that prefix too, so no
chunk is silently cut by the model. Output is deterministic: same documents, same chunks, same
hashes, so an unchanged chunk is recognised by its hash on the next run.

Modules: `base` (Chunk, size rule, hashing), `sizing` (token budget), `sections` with `html` and
`markdown` (sectioned pages), `text_code` (prose and source files), `faq`, and `documents`
(the per-format dispatch).
"""

from openguru.sources.anchors import github_slug
from openguru.sources.chunking.base import (
    DEFAULT_CHUNK_TOKENS,
    FAQ_TRUNCATE_FACTOR,
    MAX_CHUNK_TOKENS,
    MIN_CHUNK_TOKENS,
    Chunk,
    ChunkType,
    CountTokens,
    default_chunk_size,
)
from openguru.sources.chunking.documents import chunk_documents

__all__ = [
    "DEFAULT_CHUNK_TOKENS",
    "FAQ_TRUNCATE_FACTOR",
    "MAX_CHUNK_TOKENS",
    "MIN_CHUNK_TOKENS",
    "Chunk",
    "ChunkType",
    "CountTokens",
    "chunk_documents",
    "default_chunk_size",
    "github_slug",
]

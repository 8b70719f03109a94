"""The embedder interface. Sync: embedding is CPU/IO work run in workers or threads."""

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class Embedder(Protocol):
    @property
    def model_name(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    @property
    def max_input_tokens(self) -> int:
        """Tokens the model reads per input; text past this is silently truncated by the model."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens `text` costs in this model's window (exact where a tokenizer is at hand)."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


def question_encoder(embedder: Embedder) -> str:
    """How the embedder encodes questions, where it has a choice (the local one: "onnx",
    "onnx-int8" or "torch"); "" otherwise. Reports say it: it moves both speed and quality."""
    return str(getattr(embedder, "query_backend", ""))


def passage_precision(embedder: Embedder) -> str:
    """The number format passages are embedded in, where the embedder has a choice (the local
    one: "float32" or "bfloat16", picked by the CPU under `auto`); "" otherwise. Reports say it:
    the two formats rank near-ties differently, so an index's figures depend on it."""
    return str(getattr(embedder, "precision", ""))


def embed_in_batches(
    texts: Sequence[str],
    *,
    batch_size: int,
    embed_batch: Callable[[Sequence[str]], list[list[float]]],
) -> list[list[float]]:
    """The vectors of `texts` in order, one `embed_batch` call (one request) per batch."""
    vectors: list[list[float]] = []
    for start in range(0, len(texts), batch_size):
        vectors.extend(embed_batch(texts[start : start + batch_size]))
    return vectors

"""Question-level parallelism and a query-vector memo: an evaluation asks thousands of questions,
several times each (once per mode), and most of a question's time is spent waiting on the vector
store or embedding the same text again."""

import threading
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from django.db import connections

from openguru.providers.embeddings.base import Embedder, passage_precision, question_encoder

Item = TypeVar("Item")
Result = TypeVar("Result")


def ordered_map(
    function: Callable[[Item], Result], items: Sequence[Item], *, workers: int
) -> list[Result]:
    """`[function(item) for item in items]` on `workers` threads; results keep the input order,
    so a run gives the same output whatever the thread timing."""
    if workers <= 1 or len(items) <= 1:
        return [function(item) for item in items]
    results: list[Result | None] = [None] * len(items)
    errors: list[BaseException] = []
    lock = threading.Lock()
    pending = iter(range(len(items)))

    def work() -> None:
        try:
            while not errors:
                with lock:
                    index = next(pending, None)
                if index is None:
                    return
                results[index] = function(items[index])
        except BaseException as error:  # re-raised in the calling thread
            errors.append(error)
        finally:
            connections.close_all()  # each thread opened its own database connection

    threads = [threading.Thread(target=work, daemon=True) for _ in range(min(workers, len(items)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return cast(list[Result], results)


class MemoizedQueryEmbedder:
    """An Embedder that remembers query vectors, so asking one question in four modes (and to
    the gate) embeds it once. Documents are passed through: the indexer has its own cache."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    @property
    def model_name(self) -> str:
        return self._embedder.model_name

    @property
    def dimension(self) -> int:
        return self._embedder.dimension

    @property
    def query_backend(self) -> str:
        return question_encoder(self._embedder)

    @property
    def precision(self) -> str:
        return passage_precision(self._embedder)

    @property
    def max_input_tokens(self) -> int:
        return self._embedder.max_input_tokens

    def count_tokens(self, text: str) -> int:
        return self._embedder.count_tokens(text)

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embedder.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        with self._lock:
            vector = self._vectors.get(text)
        if vector is None:
            vector = self._embedder.embed_query(text)
            with self._lock:
                self._vectors[text] = vector
        return vector

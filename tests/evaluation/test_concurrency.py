"""Question-level threads keep the input order; the query memo embeds each text once."""

import threading
import time

import pytest
from openguru.evaluation.concurrency import MemoizedQueryEmbedder, ordered_map
from openguru.providers.embeddings.fake import FakeEmbedder


def test_results_keep_the_input_order_whatever_finishes_first() -> None:
    threads_seen: set[int] = set()

    def slow_for_small(number: int) -> int:
        threads_seen.add(threading.get_ident())
        time.sleep(0.001 * (20 - number))  # early items finish last
        return number * number

    numbers = list(range(20))
    assert ordered_map(slow_for_small, numbers, workers=4) == [n * n for n in numbers]
    assert len(threads_seen) > 1


def test_an_error_in_a_worker_reaches_the_caller() -> None:
    def fail_on_seven(number: int) -> int:
        if number == 7:
            raise ValueError("seven")
        return number

    with pytest.raises(ValueError, match="seven"):
        ordered_map(fail_on_seven, list(range(12)), workers=3)


def test_one_worker_runs_in_the_calling_thread() -> None:
    caller = threading.get_ident()
    assert ordered_map(lambda _: threading.get_ident(), [1, 2, 3], workers=1) == [caller] * 3


class CountingEmbedder(FakeEmbedder):
    def __init__(self) -> None:
        super().__init__(dimension=64)
        self.queries: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return super().embed_query(text)


def test_query_vectors_are_computed_once_per_text() -> None:
    inner = CountingEmbedder()
    memo = MemoizedQueryEmbedder(inner)
    first = memo.embed_query("how do I install it")
    assert memo.embed_query("how do I install it") == first
    memo.embed_query("something else")
    assert inner.queries == ["how do I install it", "something else"]
    assert first == FakeEmbedder(dimension=64).embed_query("how do I install it")
    assert memo.model_name == inner.model_name
    assert memo.dimension == 64
    assert memo.embed_documents(["a b"]) == inner.embed_documents(["a b"])

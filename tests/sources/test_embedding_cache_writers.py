"""Two writers filling the embedding cache with the same texts at once (ranking threads do)."""

import threading

import pytest
from django.db import connection
from openguru.providers.embeddings.fake import FakeEmbedder
from openguru.sources.embedding_cache import embeddings_get_or_compute
from openguru.sources.models import EmbeddingCacheEntry

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 4
TEXTS = 1500


def _fill(texts: list[str], barrier: threading.Barrier, errors: list[BaseException]) -> None:
    try:
        barrier.wait()
        embeddings_get_or_compute(
            embedder=FakeEmbedder(dimension=8), texts=texts, text_hashes=[f"h-{t}" for t in texts]
        )
    except BaseException as error:  # the main thread asserts on it
        errors.append(error)
    finally:
        connection.close()


def test_overlapping_writes_in_opposite_orders_both_succeed() -> None:
    for round_ in range(ROUNDS):
        texts = [f"text {round_} {i}" for i in range(TEXTS)]
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []
        writers = [
            threading.Thread(target=_fill, args=(order, barrier, errors))
            for order in (texts, texts[::-1])
        ]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        assert errors == []
    assert EmbeddingCacheEntry.objects.count() == ROUNDS * TEXTS


def test_a_text_repeated_in_one_call_is_embedded_once() -> None:
    vectors, computed = embeddings_get_or_compute(
        embedder=FakeEmbedder(dimension=8),
        texts=["same", "other", "same"],
        text_hashes=["a", "b", "a"],
    )
    assert computed == 2
    assert vectors[0] == vectors[2]
    assert EmbeddingCacheEntry.objects.count() == 2

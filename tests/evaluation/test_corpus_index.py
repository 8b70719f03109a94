"""An evaluation index remembers how its passages were embedded: bfloat16 and float32 vectors
rank near-ties differently, so a report must name the precision of the index it measured, even
when a later run, on another CPU, reuses it. Real Milvus Lite, real database."""

from collections.abc import Iterator

import pytest
from openguru.evaluation.corpus_index import ChunkSettings, EvalIndex, eval_index_build
from openguru.evaluation.datasets import CorpusRecord
from openguru.gurus.services import guru_delete
from openguru.providers.embeddings.fake import FakeEmbedder
from openguru.providers.vectorstore.factory import get_vector_store

pytestmark = pytest.mark.django_db(transaction=True)

RECORDS = [
    CorpusRecord(doc_id=f"d{i}", title=f"Record {i}", text=f"record number {i} about {word}")
    for i, word in enumerate(("zorblax", "quintavel", "mirthwick"))
]
CHUNKING = ChunkSettings(size_tokens=64, overlap_tokens=0, min_chars=1)


class PrecisionEmbedder(FakeEmbedder):
    """The fake embedder, with the local embedder's choice of number format."""

    def __init__(self, precision: str) -> None:
        super().__init__()
        self.precision = precision


@pytest.fixture
def build() -> Iterator:
    built: list[EvalIndex] = []

    def _build(embedder: FakeEmbedder) -> EvalIndex:
        index = eval_index_build(
            dataset_name="precisionset",
            records=RECORDS,
            fingerprint="f" * 64,
            chunking=CHUNKING,
            embedder=embedder,
            store=get_vector_store(),
            log=lambda _message: None,
        )
        built.append(index)
        return index

    yield _build
    for guru in {index.guru.pk: index.guru for index in built}.values():
        guru_delete(guru=guru, store=get_vector_store())


def test_a_new_index_records_the_precision_it_was_embedded_in(build) -> None:
    index = build(PrecisionEmbedder("bfloat16"))
    assert not index.reused
    assert index.passage_precision == "bfloat16"


def test_a_reused_index_reports_its_own_precision_not_the_current_embedders(build) -> None:
    build(PrecisionEmbedder("bfloat16"))
    reused = build(PrecisionEmbedder("float32"))
    assert reused.reused
    assert reused.passage_precision == "bfloat16"


def test_an_embedder_without_a_choice_records_none(build) -> None:
    assert build(FakeEmbedder()).passage_precision == ""
    assert build(FakeEmbedder()).passage_precision == ""  # reused: still none

"""Ask questions to an evaluation guru through the real retrieval path.

Retrieval ranks chunks; metrics are about documents (and pages), so a ranking keeps each
document at its first chunk's place. Recall@100 needs 100 distinct documents, so the chunk
limit starts from the corpus's chunks-per-document ratio and doubles for a query whose chunks
covered too few documents.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openguru.answers.engine.context import answer_contexts
from openguru.answers.engine.extractive import extracted_quotes
from openguru.answers.engine.fusion import Candidate
from openguru.answers.engine.gate import answer_gate, guru_threshold
from openguru.answers.engine.retrieval import Mode, answer_mode, retrieve
from openguru.evaluation.corpus_index import EvalIndex
from openguru.evaluation.metrics import DEEPEST_CUTOFF
from openguru.evaluation.refusal import GateSettings, Refusals, refusals
from openguru.providers.embeddings.base import Embedder
from openguru.providers.rerank.base import Reranker
from openguru.providers.vectorstore.base import VectorStore

# Milvus refuses a top-k above 16384; a few thousand chunks already cover any page ranking.
MAX_CHUNK_LIMIT = 4096
LIMIT_HEADROOM = 1.5


@dataclass(frozen=True)
class Ranked:
    docs: tuple[str, ...]  # document ids, best first, at most DEEPEST_CUTOFF
    pages: tuple[str, ...]  # page ids (a document's `page`, else its id), same rule
    refusals: Refusals | None  # the gate's decision per threshold, when asked for


def initial_chunk_limit(index: EvalIndex) -> int:
    chunks_per_doc = max(1.0, index.chunks / max(index.documents, 1))
    return min(MAX_CHUNK_LIMIT, math.ceil(DEEPEST_CUTOFF * chunks_per_doc * LIMIT_HEADROOM))


def ranked_ids(candidates: Sequence[Candidate]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    docs: dict[str, None] = {}
    pages: dict[str, None] = {}
    for candidate in candidates:
        metadata = candidate.hit.metadata
        doc_id = str(metadata.get("doc_id", ""))
        if not doc_id:
            continue
        docs.setdefault(doc_id)
        pages.setdefault(str(metadata.get("page") or doc_id))
    return tuple(docs)[:DEEPEST_CUTOFF], tuple(pages)[:DEEPEST_CUTOFF]


class QueryRunner:
    def __init__(
        self,
        *,
        index: EvalIndex,
        embedder: Embedder,
        store: VectorStore,
        reranker: Reranker | None,
        gate: GateSettings,
        rank_pages: bool,
    ) -> None:
        self.index = index
        self.embedder = embedder
        self.store = store
        self.reranker = reranker
        self.gate = gate
        self.rank_pages = rank_pages
        self.chunk_limit = initial_chunk_limit(index)

    def rank(self, text: str, mode: Mode, *, gate: bool) -> Ranked:
        """Documents (and pages) for one question; with `gate`, also the refusal decisions."""
        limit = self.chunk_limit
        while True:
            candidates = self._retrieve(text, mode, limit)
            docs, pages = ranked_ids(candidates)
            if not self._too_shallow(candidates, limit, docs, pages):
                break
            limit *= 2
        return Ranked(
            docs=docs, pages=pages, refusals=refusals(candidates, self.gate) if gate else None
        )

    def refusals(self, text: str, mode: Mode) -> Refusals:
        """Only the gate's decisions: retrieve as many candidates as the answer engine does."""
        return refusals(self._retrieve(text, mode, self.gate.candidates), self.gate)

    def quotes(self, text: str) -> list[str] | None:
        """What the extractive answer quotes for one question, best first, as the answer engine
        gets there (its retrieval mode and depth, the gate at the guru's threshold, its
        contexts); None when the gate refuses."""
        candidates = self._retrieve(text, answer_mode(self.reranker), self.gate.candidates)
        threshold = guru_threshold(self.index.guru, setting=self.gate.threshold)
        decision = answer_gate(candidates, threshold=threshold, margin=self.gate.margin)
        if not decision.passed:
            return None
        contexts = answer_contexts(decision.kept)
        quotes = extracted_quotes(question=text, contexts=contexts, embedder=self.embedder)
        return [quote.text for quote in quotes]

    def _retrieve(self, text: str, mode: Mode, limit: int) -> list[Candidate]:
        return retrieve(
            collection=self.index.collection,
            queries=[text],
            mode=mode,
            limit=limit,
            embedder=self.embedder,
            store=self.store,
            reranker=self.reranker if mode == "hybrid_rerank" else None,
        ).candidates

    def _too_shallow(
        self,
        candidates: Sequence[Candidate],
        limit: int,
        docs: Sequence[str],
        pages: Sequence[str],
    ) -> bool:
        if len(candidates) < limit or limit >= MAX_CHUNK_LIMIT:
            return False  # the collection has nothing more to give, or the cap is reached
        if len(docs) < DEEPEST_CUTOFF:
            return True
        return self.rank_pages and len(pages) < DEEPEST_CUTOFF

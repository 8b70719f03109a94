"""Build (or reuse) the throwaway guru that holds one evaluation corpus.

The guru's slug carries a fingerprint of everything that shapes its index (corpus bytes, the
documents kept, chunk settings, embedding model), so a rerun with the same inputs finds the
finished index and searches it as it is: fast, and the same chunks give the same metrics.
"""

import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from django.utils import timezone

from openguru.evaluation.corpus_loader import CorpusLoader
from openguru.evaluation.datasets import CorpusRecord
from openguru.gurus.models import Guru
from openguru.gurus.services import guru_create
from openguru.providers.embeddings.base import Embedder, passage_precision
from openguru.providers.vectorstore.base import VectorStore
from openguru.sources.indexing import IndexStats, IndexTarget, index_source
from openguru.sources.loaders.base import LoadRequest
from openguru.sources.models import DataSource

SLUG_PREFIX = "eval-"
# Bump when the way a corpus becomes documents changes, so old indexes are not reused.
INDEX_FORMAT = 1
PROGRESS_EVERY_SECONDS = 10.0
PRECISION_KEY = "passage_precision"  # in the corpus source's last_result

Log = Callable[[str], None]


@dataclass(frozen=True)
class ChunkSettings:
    size_tokens: int  # resolved: never 0
    overlap_tokens: int
    min_chars: int


@dataclass(frozen=True)
class EvalIndex:
    guru: Guru
    source_id: int
    documents: int
    chunks: int
    chunks_embedded: int  # vectors computed in this run (the rest came from the cache)
    reused: bool
    seconds: float
    # How the index's passages were embedded ("float32", "bfloat16"; "" for an embedder with no
    # choice or an index built before it was recorded): near-ties, and so figures, depend on it.
    # It is the embedder's at build time; vectors the embedding cache already held (same model,
    # same chunk text, from an earlier build in the same data folder) keep the format that made
    # them, which on one CPU is the same one.
    passage_precision: str

    @property
    def collection(self) -> str:
        return self.guru.collection_name


def index_fingerprint(
    *,
    corpus_sha256: str,
    doc_ids: Sequence[str] | None,
    chunking: ChunkSettings,
    embedder_model: str,
    bm25_analyzer: str,
) -> str:
    """`doc_ids` is None when the whole corpus is indexed."""
    subset = None if doc_ids is None else hashlib.sha256("\n".join(doc_ids).encode()).hexdigest()
    payload = {
        "format": INDEX_FORMAT,
        "corpus": corpus_sha256,
        "subset": subset,
        "chunking": asdict(chunking),
        "model": embedder_model,
        "bm25_analyzer": bm25_analyzer,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def eval_guru_slug(dataset_name: str, fingerprint: str) -> str:
    safe = re.sub(r"[^a-z0-9]+", "-", dataset_name.lower()).strip("-")[:40] or "dataset"
    return f"{SLUG_PREFIX}{safe}-{fingerprint[:12]}"


def eval_index_build(
    *,
    dataset_name: str,
    records: Sequence[CorpusRecord],
    fingerprint: str,
    chunking: ChunkSettings,
    embedder: Embedder,
    store: VectorStore,
    log: Log,
) -> EvalIndex:
    started = time.monotonic()
    slug = eval_guru_slug(dataset_name, fingerprint)
    guru = Guru.objects.filter(slug=slug).first() or guru_create(
        slug=slug,
        name=f"Eval: {dataset_name}"[:100],
        domain_knowledge=f"evaluation corpus {dataset_name}"[:200],
        embedder=embedder,
        store=store,
    )
    source = _corpus_source(guru, dataset_name)
    if _index_is_complete(guru, source, store):
        log(f"[{dataset_name}] reusing index {guru.slug} ({source.chunk_count} chunks)")
        return EvalIndex(
            guru=guru,
            source_id=source.pk,
            documents=len(records),
            chunks=source.chunk_count,
            chunks_embedded=0,
            reused=True,
            seconds=time.monotonic() - started,
            passage_precision=str(source.last_result.get(PRECISION_KEY, "")),
        )
    log(f"[{dataset_name}] indexing {len(records)} documents into {guru.slug}")
    stats = _index(guru, source, records, chunking, embedder, store, log, dataset_name)
    precision = passage_precision(embedder)
    _mark_indexed(source, stats, precision)
    seconds = time.monotonic() - started
    log(
        f"[{dataset_name}] indexed {stats.chunks_total} chunks in {seconds:.0f}s "
        f"({stats.chunks_embedded} embedded, {stats.chunks_embedded / max(seconds, 1e-9):.1f}/s)"
    )
    return EvalIndex(
        guru=guru,
        source_id=source.pk,
        documents=len(records),
        chunks=stats.chunks_total,
        chunks_embedded=stats.chunks_embedded,
        reused=False,
        seconds=seconds,
        passage_precision=precision,
    )


def _corpus_source(guru: Guru, dataset_name: str) -> DataSource:
    # Created directly rather than through `source_create`, which would queue a worker run:
    # this source is indexed right here, from the corpus file, not from its own content.
    source, _created = DataSource.objects.get_or_create(
        guru=guru,
        url=f"eval://{guru.slug}",
        defaults={"type": DataSource.Type.TEXT, "title": f"{dataset_name} corpus"[:500]},
    )
    return source


def _index_is_complete(guru: Guru, source: DataSource, store: VectorStore) -> bool:
    if source.status != DataSource.Status.SUCCESS or not source.chunk_count:
        return False
    # The database may outlive the vector store's data (another Milvus, a wiped data folder).
    if not store.has_collection(guru.collection_name):
        return False
    return store.count(guru.collection_name, source_id=source.pk) == source.chunk_count


def _index(
    guru: Guru,
    source: DataSource,
    records: Sequence[CorpusRecord],
    chunking: ChunkSettings,
    embedder: Embedder,
    store: VectorStore,
    log: Log,
    dataset_name: str,
) -> IndexStats:
    stats, _fetch_state = index_source(
        request=LoadRequest(source_id=source.pk, url=source.url, title=source.title),
        target=IndexTarget(guru.collection_name, guru.embedding_dimension, source.pk),
        loader=CorpusLoader(records),
        embedder=embedder,
        store=store,
        on_progress=_progress_printer(dataset_name, len(records), log),
        chunk_size_tokens=chunking.size_tokens,
        chunk_overlap_tokens=chunking.overlap_tokens,
        chunk_min_chars=chunking.min_chars,
    )
    return stats


def _progress_printer(dataset_name: str, total: int, log: Log) -> Callable[[dict[str, int]], None]:
    started = time.monotonic()
    last = [started]

    def report(progress: dict[str, int]) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_EVERY_SECONDS:
            return
        last[0] = now
        embedded = progress.get("chunks_embedded", 0)
        log(
            f"[{dataset_name}] {progress.get('pages_fetched', 0)}/{total} documents, "
            f"{progress.get('chunks_total', 0)} chunks, {embedded} embedded "
            f"({embedded / (now - started):.1f}/s)"
        )

    return report


def _mark_indexed(source: DataSource, stats: IndexStats, precision: str) -> None:
    # The per-document fetch state is not kept: the index is rebuilt from the file, never
    # re-crawled, and thousands of entries would only bloat the row.
    source.status = DataSource.Status.SUCCESS
    source.chunk_count = stats.chunks_total
    source.progress = stats.as_dict()
    source.last_result = stats.as_dict() | {PRECISION_KEY: precision}
    source.last_indexed_at = timezone.now()
    source.save(
        update_fields=[
            "status",
            "chunk_count",
            "progress",
            "last_result",
            "last_indexed_at",
            "updated_at",
        ]
    )

"""Small gurus: what a new user adds first (one short text, FAQ or PDF), asked paraphrased
questions its source answers and unrelated ones it should refuse.

Each guru of the dev set (`evaluation/small_gurus/*.json`) is built fresh through the ingestion
path (the source type's loader, the chunker and the indexer at the deployment's chunk settings;
a PDF is written with reportlab from the set's text, its lines wrapped as a word processor
would), its trust threshold is calibrated as after an ingestion, and every question is gated
exactly as the answer engine decides to refuse: its retrieval mode and depth, the guru's
threshold, the deployment default margin.
"""

import io
import json
import textwrap
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from openguru.answers.engine.gate import answer_gate, gate_score, guru_threshold
from openguru.answers.engine.retrieval import answer_mode, retrieve
from openguru.answers.quality.calibration import guru_trust_calibrate
from openguru.evaluation.concurrency import ordered_map
from openguru.evaluation.refusal import GateSettings
from openguru.gurus.models import Guru
from openguru.gurus.services import guru_create, guru_delete
from openguru.providers.embeddings.base import Embedder
from openguru.providers.rerank.base import Reranker
from openguru.providers.vectorstore.base import VectorStore
from openguru.sources.indexing import IndexTarget, index_source
from openguru.sources.loaders.base import LoadRequest
from openguru.sources.loaders.registry import loader_for
from openguru.sources.models import DataSource
from openguru.sources.uploads import upload_store

SMALL_GURUS_DIR = Path(__file__).resolve().parent / "small_gurus"
SLUG_PREFIX = "eval-small-"
KINDS = ("text", "faq", "pdf")
PDF_LINE_CHARS = 90  # about what fits a line of 11-point Helvetica on A4

Log = Callable[[str], None]


@dataclass(frozen=True)
class SmallGuru:
    name: str
    kind: str  # text | faq | pdf
    title: str
    content: Any  # text: markdown; faq: a list of {question, answer} or Q:/A: text; pdf: pages
    in_scope: tuple[str, ...]
    unrelated: tuple[str, ...]


@dataclass(frozen=True)
class Asked:
    question: str
    in_scope: bool
    score: float  # the gate's score (`gate_score`)
    refused: bool  # the gate kept nothing at the guru's threshold


@dataclass(frozen=True)
class SmallGuruResult:
    guru: SmallGuru
    chunks: int
    threshold: float  # what its questions were gated at
    calibrated: float | None
    asked: Sequence[Asked]

    def record(self) -> dict[str, Any]:
        return {
            "guru": self.guru.name,
            "kind": self.guru.kind,
            "chunks": self.chunks,
            "threshold": self.threshold,
            "calibrated_threshold": self.calibrated,
            **refused_rates(self.asked),
            "refused": [a.question for a in self.asked if a.in_scope and a.refused],
            "answered_unrelated": [
                a.question for a in self.asked if not a.in_scope and not a.refused
            ],
        }


def small_gurus_load(folder: Path = SMALL_GURUS_DIR) -> list[SmallGuru]:
    gurus = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["kind"] not in KINDS:
            raise ValueError(f"{path.name}: kind must be one of {', '.join(KINDS)}")
        gurus.append(
            SmallGuru(
                name=path.stem,
                kind=data["kind"],
                title=data["title"],
                content=data["content"],
                in_scope=tuple(data["in_scope"]),
                unrelated=tuple(data["unrelated"]),
            )
        )
    return gurus


def refused_rates(asked: Sequence[Asked]) -> dict[str, Any]:
    inside = [a for a in asked if a.in_scope]
    outside = [a for a in asked if not a.in_scope]
    return {
        "in_scope": len(inside),
        "unrelated": len(outside),
        "refused_in_scope": _share(sum(a.refused for a in inside), len(inside)),
        "refused_unrelated": _share(sum(a.refused for a in outside), len(outside)),
    }


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def small_gurus_summary(results: Sequence[SmallGuruResult]) -> list[dict[str, Any]]:
    """Refused rates per kind of source, then over all small gurus."""
    rows = []
    for kind in (*KINDS, "all"):
        kept = [r for r in results if kind in ("all", r.guru.kind)]
        if kept:
            asked = [a for r in kept for a in r.asked]
            rows.append({"kind": kind, "gurus": len(kept), **refused_rates(asked)})
    return rows


def small_guru_evaluate(
    spec: SmallGuru,
    *,
    embedder: Embedder,
    store: VectorStore,
    reranker: Reranker | None,
    gate: GateSettings,
    workers: int = 1,
) -> SmallGuruResult:
    guru = _fresh_guru(spec, embedder, store)
    source = _source(guru, spec)
    chunks = _index(guru, source, embedder, store)
    calibrated = guru_trust_calibrate(guru=guru, embedder=embedder, store=store, reranker=reranker)
    threshold = guru_threshold(guru, setting=gate.threshold)

    def ask(item: tuple[str, bool]) -> Asked:
        question, in_scope = item
        candidates = retrieve(
            collection=guru.collection_name,
            queries=[question],
            mode=answer_mode(reranker),
            limit=gate.candidates,
            embedder=embedder,
            store=store,
            reranker=reranker,
        ).candidates
        decision = answer_gate(candidates, threshold=threshold, margin=gate.margin)
        return Asked(question, in_scope, round(gate_score(candidates), 4), not decision.passed)

    items = [(q, True) for q in spec.in_scope] + [(q, False) for q in spec.unrelated]
    asked = ordered_map(ask, items, workers=workers)
    return SmallGuruResult(spec, chunks, threshold, calibrated, asked)


def small_gurus_run(
    specs: Sequence[SmallGuru],
    *,
    embedder: Embedder,
    store: VectorStore,
    reranker: Reranker | None,
    gate: GateSettings,
    log: Log,
    workers: int = 1,
) -> list[SmallGuruResult]:
    results = []
    for spec in specs:
        started = time.monotonic()
        result = small_guru_evaluate(
            spec, embedder=embedder, store=store, reranker=reranker, gate=gate, workers=workers
        )
        rates = refused_rates(result.asked)
        log(
            f"[small:{spec.name}] {result.chunks} chunks, threshold {result.threshold}: refused "
            f"{rates['refused_in_scope']:.2f} in scope, {rates['refused_unrelated']:.2f} "
            f"unrelated ({time.monotonic() - started:.1f}s)"
        )
        results.append(result)
    for row in small_gurus_summary(results):
        log(
            f"[small gurus] {row['kind']}: refused {row['refused_in_scope']:.3f} of "
            f"{row['in_scope']} in scope, {row['refused_unrelated']:.3f} of {row['unrelated']} "
            "unrelated"
        )
    return results


def _fresh_guru(spec: SmallGuru, embedder: Embedder, store: VectorStore) -> Guru:
    """Rebuilt every run: one short source is quick to index, and a reused index would hide a
    change in how sources are chunked."""
    slug = f"{SLUG_PREFIX}{spec.name}"[:50]
    old = Guru.objects.filter(slug=slug).first()
    if old is not None:
        guru_delete(guru=old, store=store)
    return guru_create(
        slug=slug,
        name=f"Eval: {spec.title}"[:100],
        domain_knowledge=spec.title[:200],
        embedder=embedder,
        store=store,
    )


def _source(guru: Guru, spec: SmallGuru) -> DataSource:
    # Created directly, as the evaluation's corpus sources are: `source_create` would also queue
    # a worker run, while the source is indexed right here.
    source = DataSource(guru=guru, type=spec.kind, title=spec.title)
    if spec.kind == DataSource.Type.PDF:
        name = f"{spec.name}.pdf"
        upload_store(source=source, upload=SimpleUploadedFile(name, pdf_bytes(spec)))
        source.url = source.file.url
    else:
        source.url = f"{spec.kind}://{uuid.uuid4().hex}"
        content = spec.content
        source.content = content if isinstance(content, str) else json.dumps(content)
    source.save()
    return source


def _index(guru: Guru, source: DataSource, embedder: Embedder, store: VectorStore) -> int:
    stats, _fetch_state = index_source(
        request=LoadRequest(
            source_id=source.pk,
            url=source.url,
            file_path=source.file.path if source.file else "",
            content=source.content,
            title=source.title,
        ),
        target=IndexTarget(guru.collection_name, guru.embedding_dimension, source.pk),
        loader=loader_for(source.type),
        embedder=embedder,
        store=store,
        on_progress=lambda _progress: None,
        chunk_size_tokens=settings.CHUNK_SIZE_TOKENS,
        chunk_overlap_tokens=settings.CHUNK_OVERLAP_TOKENS,
        chunk_min_chars=settings.CHUNK_MIN_CHARS,
    )
    DataSource.objects.filter(pk=source.pk).update(
        status=DataSource.Status.SUCCESS,
        chunk_count=stats.chunks_total,
        last_result=stats.as_dict(),
        last_indexed_at=timezone.now(),
    )
    return stats.chunks_total


def pdf_bytes(spec: SmallGuru) -> bytes:
    """A real PDF, one page per entry of `content`, paragraphs wrapped into lines (reportlab is
    a development requirement, as `make eval` is)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setTitle(spec.title)
    for page in spec.content:
        text = pdf.beginText(50, 790)
        text.setFont("Helvetica", 10)
        for paragraph in str(page).split("\n\n"):
            for line in textwrap.wrap(paragraph, PDF_LINE_CHARS) or [""]:
                text.textLine(line)
            text.textLine("")
        pdf.drawText(text)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def small_gurus_report(results: Sequence[SmallGuruResult]) -> dict[str, Any]:
    """eval.json's `small_gurus`: the rates per kind and overall, then each guru's."""
    return {
        "summary": small_gurus_summary(results),
        "gurus": [result.record() for result in results],
    }

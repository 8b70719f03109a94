"""Relevance on units that hold one topic: a chunk's sentences (an FAQ entry's question and its
answer, a list's items), scored against the question after retrieval.

A chunk of a short text or a PDF page mixes several topics, and its one vector is the average
of them all: a question that one sentence answers word for word scores low against the whole
("where is the cache stored?" against a paragraph on installing, configuring and caching). So
the top candidates are cut into units, each unit is embedded (once: the embedding cache keeps
them by hash) and a candidate's `unit` relevance is the best cosine of its units; the gate reads
the better of it and the chunk's own cosine (`Candidate.relevance`). The chunk stays what is
quoted and handed to the LLM: matched small, answered with its context. `make eval` measures it
on small gurus and the documentation pairs (docs/evaluation.md, "Refusal").
"""

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from openguru.answers.engine.context import without_prefix
from openguru.answers.engine.fusion import Candidate
from openguru.providers.embeddings.base import Embedder
from openguru.sources.embedding_cache import embeddings_get_or_compute

UNIT_CANDIDATES = 6  # rescored: this many best by cosine, and this many best by the fusion
MIN_UNIT_WORDS = 3  # shorter fragments ("Installation.", "Q: Why?") say too little alone
MAX_UNITS = 12  # per chunk: a long chunk's first sentences, bounding the embedding work
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'`(\[]?[A-Z0-9])")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|Q:|A:)\s+")
_HYPHEN_BREAK = re.compile(r"(\w)-\n(\w)")


def text_units(text: str) -> list[str]:
    """The sentences of `text`: paragraphs split on blank lines, a list's items and an FAQ's
    Q:/A: lines kept apart, other line breaks (a PDF's wrapped lines) joined."""
    units: list[str] = []
    for paragraph in re.split(r"\n\s*\n", _HYPHEN_BREAK.sub(r"\1\2", text)):
        for line in _logical_lines(paragraph):
            units += [s.strip() for s in _SENTENCE_END.split(line) if s.strip()]
    return [u for u in dict.fromkeys(units) if len(u.split()) >= MIN_UNIT_WORDS][:MAX_UNITS]


def _logical_lines(paragraph: str) -> list[str]:
    lines: list[str] = []
    for line in paragraph.splitlines():
        if lines and not _LIST_ITEM.match(line):
            lines[-1] = f"{lines[-1]} {line.strip()}"
        else:
            lines.append(line.strip())
    return lines


def candidate_units(candidate: Candidate) -> list[str]:
    heading = str(candidate.hit.metadata.get("heading_path") or "")
    units = text_units(without_prefix(candidate.hit.text, {heading} if heading else set()))
    return units if len(units) > 1 else []  # one unit is the chunk itself: nothing to add


def units_rescore(
    candidates: Sequence[Candidate], *, query_vector: Sequence[float], embedder: Embedder
) -> None:
    """Set `unit` on the candidates worth a closer look, in place."""
    by_cosine = sorted(candidates, key=lambda c: c.dense or 0.0, reverse=True)
    picked = list(
        {id(c): c for c in [*candidates[:UNIT_CANDIDATES], *by_cosine[:UNIT_CANDIDATES]]}.values()
    )
    units = {id(c): candidate_units(c) for c in picked}
    texts = list(dict.fromkeys(u for found in units.values() for u in found))
    if not texts:
        return
    hashes = [_unit_hash(text) for text in texts]
    vectors, _computed = embeddings_get_or_compute(
        embedder=embedder, texts=texts, text_hashes=hashes
    )
    matrix = np.asarray(vectors, dtype=float)
    query = np.asarray(query_vector, dtype=float)
    norms = np.linalg.norm(matrix, axis=1) * (np.linalg.norm(query) or 1.0)
    cosine = dict(zip(texts, (matrix @ query) / np.where(norms > 0, norms, 1.0), strict=True))
    for candidate in picked:
        if units[id(candidate)]:
            candidate.unit = float(max(cosine[u] for u in units[id(candidate)]))


def _unit_hash(text: str) -> str:
    # Its own namespace: a unit that happens to equal a whole chunk's text is embedded alike,
    # but the chunk hashes also carry type and link, so the two never collide.
    return hashlib.sha256(f"unit\x00{text}".encode()).hexdigest()

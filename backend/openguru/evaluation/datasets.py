"""Readers for BEIR-format dataset folders.

A folder holds `corpus.jsonl[.gz]` (`_id, title, text`, optional `url`, `page`), `queries.jsonl`
(`_id, text`) and `qrels.tsv` (`query-id, corpus-id, score`, header line); optionally
`qrels_page.tsv` (gold at page level: corpus-id is a corpus record's `page`) and `answers.jsonl`
(records with `is_impossible: true` mark questions the corpus cannot answer; `answers`, a list of
short gold strings as in SQuAD, or `answer`, a written reference answer as in an FAQ, say what a
good answer contains).
"""

import gzip
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from config.env import REPO_DIR, env

# Graded relevance per query: {query id: {corpus id: grade}}.
Qrels = dict[str, dict[str, int]]

CORPUS_FILES = ("corpus.jsonl.gz", "corpus.jsonl")
QUERIES_FILE = "queries.jsonl"
QRELS_FILE = "qrels.tsv"
PAGE_QRELS_FILE = "qrels_page.tsv"
ANSWERS_FILE = "answers.jsonl"


def default_eval_dir() -> Path:
    """Where `manage.py eval` looks for dataset folders when none is named.

    The data sits beside the repository (`<repo>/../shared/eval`), both in a developer checkout
    and in CI, where a copy of `shared/` is placed next to the clone. OPENGURU_EVAL_DIR points
    somewhere else.
    """
    return Path(env.str("OPENGURU_EVAL_DIR", default=str(REPO_DIR.parent / "shared" / "eval")))


@dataclass(frozen=True)
class CorpusRecord:
    doc_id: str
    title: str
    text: str
    url: str = ""
    page: str = ""


@dataclass(frozen=True)
class Query:
    query_id: str
    text: str


@dataclass(frozen=True)
class ReferenceAnswer:
    spans: tuple[str, ...] = ()  # short gold strings: a good answer contains one of them
    prose: str = ""  # a written reference answer


@dataclass(frozen=True)
class BeirDataset:
    name: str
    path: Path
    corpus_path: Path
    queries: tuple[Query, ...]
    qrels: Qrels
    page_qrels: Qrels | None
    unanswerable_ids: frozenset[str]
    answers: dict[str, ReferenceAnswer]  # by query id, for answerable questions that have one

    def corpus(self) -> Iterator[CorpusRecord]:
        with _open_text(self.corpus_path) as lines:
            for line in lines:
                if line.strip():
                    yield _corpus_record(json.loads(line))

    def corpus_sha256(self) -> str:
        digest = hashlib.sha256()
        with self.corpus_path.open("rb") as raw:
            for block in iter(lambda: raw.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()


def is_dataset_dir(path: Path) -> bool:
    return (
        (path / QUERIES_FILE).is_file()
        and (path / QRELS_FILE).is_file()
        and any((path / name).is_file() for name in CORPUS_FILES)
    )


def discover_datasets(root: Path) -> list[Path]:
    """Dataset folders directly under `root`, by name."""
    if not root.is_dir():
        return []
    return sorted(child for child in root.iterdir() if child.is_dir() and is_dataset_dir(child))


def load_dataset(path: Path) -> BeirDataset:
    path = path.resolve()
    if not is_dataset_dir(path):
        raise ValueError(
            f"{path} is not a BEIR dataset folder (needs {QUERIES_FILE}, {QRELS_FILE} "
            f"and {' or '.join(CORPUS_FILES)})"
        )
    corpus_path = next(path / name for name in CORPUS_FILES if (path / name).is_file())
    page_qrels = path / PAGE_QRELS_FILE
    unanswerable_ids, answers = read_answers(path / ANSWERS_FILE)
    return BeirDataset(
        name=path.name,
        path=path,
        corpus_path=corpus_path,
        queries=tuple(read_queries(path / QUERIES_FILE)),
        qrels=read_qrels(path / QRELS_FILE),
        page_qrels=read_qrels(page_qrels) if page_qrels.is_file() else None,
        unanswerable_ids=unanswerable_ids,
        answers=answers,
    )


def read_queries(path: Path) -> Iterator[Query]:
    with _open_text(path) as lines:
        for line in lines:
            if line.strip():
                record = json.loads(line)
                yield Query(query_id=str(record["_id"]), text=str(record["text"]))


def read_qrels(path: Path) -> Qrels:
    qrels: Qrels = {}
    with _open_text(path) as lines:
        for number, line in enumerate(lines):
            fields = line.rstrip("\r\n").split("\t")
            if len(fields) < 3 or (number == 0 and not _is_number(fields[2])):
                continue  # the header line, or a blank one
            query_id, corpus_id, score = fields[0], fields[1], fields[2]
            qrels.setdefault(query_id, {})[corpus_id] = int(float(score))
    return qrels


def read_answers(path: Path) -> tuple[frozenset[str], dict[str, ReferenceAnswer]]:
    """The questions marked impossible, and the reference answers of the others."""
    if not path.is_file():
        return frozenset(), {}
    impossible: set[str] = set()
    answers: dict[str, ReferenceAnswer] = {}
    with _open_text(path) as lines:
        for line in lines:
            if not line.strip():
                continue
            record = json.loads(line)
            query_id = str(record["_id"])
            if record.get("is_impossible") is True:
                impossible.add(query_id)
                continue
            reference = ReferenceAnswer(
                spans=tuple(str(a) for a in record.get("answers") or () if str(a).strip()),
                prose=str(record.get("answer") or "").strip(),
            )
            if reference.spans or reference.prose:
                answers[query_id] = reference
    return frozenset(impossible), answers


def _corpus_record(record: dict[str, Any]) -> CorpusRecord:
    return CorpusRecord(
        doc_id=str(record["_id"]),
        title=str(record.get("title") or ""),
        text=str(record.get("text") or ""),
        url=str(record.get("url") or ""),
        page=str(record.get("page") or ""),
    )


def _open_text(path: Path) -> IO[str]:
    if path.name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True

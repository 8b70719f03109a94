"""The BEIR folder reader and the corpus loader, on small folders written to disk."""

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from openguru.evaluation.corpus_loader import CorpusLoader
from openguru.evaluation.datasets import (
    CorpusRecord,
    ReferenceAnswer,
    default_eval_dir,
    discover_datasets,
    load_dataset,
)
from openguru.sources.loaders.base import LoadProgress, LoadRequest

CORPUS = [
    {"_id": "lib/os#path", "title": "os.path", "text": "Path helpers.", "url": "https://d/os#p",
     "page": "lib/os", "kind": "section"},
    {"_id": "lib/os#walk", "title": "os.walk", "text": "Walk a tree.", "page": "lib/os"},
    {"_id": "glossary#gil", "title": "GIL", "text": "Global interpreter lock."},
]  # fmt: skip


def _jsonl(records: list[dict]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def write_folder(root: Path, *, gzipped: bool = True, page_qrels: bool = True) -> Path:
    root.mkdir(parents=True)
    if gzipped:
        with gzip.open(root / "corpus.jsonl.gz", "wt", encoding="utf-8") as out:
            out.write(_jsonl(CORPUS) + "\n")  # a trailing blank line is tolerated
    else:
        (root / "corpus.jsonl").write_text(_jsonl(CORPUS), encoding="utf-8")
    (root / "queries.jsonl").write_text(
        _jsonl(
            [
                {"_id": "q1", "text": "How do I walk a directory?"},
                {"_id": "q2", "text": "What is the GIL?"},
                {"_id": "q3", "text": "Who won the cup?"},
            ]
        )
    )
    (root / "qrels.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\tlib/os#walk\t1\nq1\tlib/os#path\t2\nq2\tglossary#gil\t1\n"
    )
    if page_qrels:
        (root / "qrels_page.tsv").write_text("query-id\tcorpus-id\tscore\nq1\tlib/os\t1\n")
    (root / "answers.jsonl").write_text(
        _jsonl(
            [
                {"_id": "q1", "is_impossible": False, "answers": ["os.walk", " ", "os.walk()"]},
                {"_id": "q2", "answer": "The global interpreter lock.\n"},
                {"_id": "q3", "is_impossible": True, "answers": []},
            ]
        )
    )
    return root


def test_reads_a_gzipped_folder_with_page_qrels(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "tiny")
    dataset = load_dataset(folder)
    assert dataset.name == "tiny"
    assert dataset.corpus_path.name == "corpus.jsonl.gz"
    assert list(dataset.corpus()) == [
        CorpusRecord("lib/os#path", "os.path", "Path helpers.", "https://d/os#p", "lib/os"),
        CorpusRecord("lib/os#walk", "os.walk", "Walk a tree.", "", "lib/os"),
        CorpusRecord("glossary#gil", "GIL", "Global interpreter lock.", "", ""),
    ]
    assert [q.query_id for q in dataset.queries] == ["q1", "q2", "q3"]
    assert dataset.queries[1].text == "What is the GIL?"
    assert dataset.qrels == {
        "q1": {"lib/os#walk": 1, "lib/os#path": 2},
        "q2": {"glossary#gil": 1},
    }
    assert dataset.page_qrels == {"q1": {"lib/os": 1}}
    assert dataset.unanswerable_ids == frozenset({"q3"})
    assert dataset.answers == {
        "q1": ReferenceAnswer(spans=("os.walk", "os.walk()")),
        "q2": ReferenceAnswer(prose="The global interpreter lock."),
    }


def test_reads_a_plain_folder_without_page_qrels(tmp_path: Path) -> None:
    dataset = load_dataset(write_folder(tmp_path / "plain", gzipped=False, page_qrels=False))
    assert dataset.corpus_path.name == "corpus.jsonl"
    assert len(list(dataset.corpus())) == 3
    assert dataset.page_qrels is None


def test_corpus_hash_is_the_file_hash(tmp_path: Path) -> None:
    dataset = load_dataset(write_folder(tmp_path / "tiny"))
    expected = hashlib.sha256(dataset.corpus_path.read_bytes()).hexdigest()
    assert dataset.corpus_sha256() == expected


def test_qrels_without_header_and_with_float_scores(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "tiny")
    (folder / "qrels.tsv").write_text("q1\tlib/os#walk\t1.0\r\nq2\tglossary#gil\t0\n")
    assert load_dataset(folder).qrels == {
        "q1": {"lib/os#walk": 1},
        "q2": {"glossary#gil": 0},
    }


def test_discovery_lists_dataset_folders_only(tmp_path: Path) -> None:
    write_folder(tmp_path / "b-set")
    write_folder(tmp_path / "a-set", gzipped=False)
    (tmp_path / "notes").mkdir()
    (tmp_path / "README.md").write_text("data")
    assert [p.name for p in discover_datasets(tmp_path)] == ["a-set", "b-set"]
    assert discover_datasets(tmp_path / "missing") == []


def test_a_folder_without_qrels_is_rejected(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "tiny")
    (folder / "qrels.tsv").unlink()
    with pytest.raises(ValueError, match="not a BEIR dataset folder"):
        load_dataset(folder)


def test_default_eval_dir_sits_beside_the_repository(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENGURU_EVAL_DIR", raising=False)
    repo = Path(__file__).resolve().parents[2]
    assert default_eval_dir() == repo.parent / "shared" / "eval"
    monkeypatch.setenv("OPENGURU_EVAL_DIR", "/data/other-eval")
    assert default_eval_dir() == Path("/data/other-eval")


def test_corpus_loader_yields_one_text_document_per_record(tmp_path: Path) -> None:
    dataset = load_dataset(write_folder(tmp_path / "tiny"))
    reports: list[int] = []

    def on_progress(progress: LoadProgress) -> None:
        reports.append(progress.fetched)

    result = CorpusLoader(dataset.corpus()).load(
        LoadRequest(source_id=1, url="eval://tiny"), on_progress=on_progress
    )
    documents = list(result.documents)
    assert [d.format for d in documents] == ["text"] * 3
    assert documents[0].title == "os.path"
    assert documents[0].text == "Path helpers."
    assert documents[0].link == "https://d/os#p"  # the record's url when it has one
    assert documents[1].link == "lib/os#walk"  # else its id
    assert dict(documents[1].metadata) == {"doc_id": "lib/os#walk", "page": "lib/os"}
    assert dict(documents[2].metadata) == {"doc_id": "glossary#gil", "page": ""}
    assert reports[-1] == 3

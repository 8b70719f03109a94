"""`manage.py eval`: retrieval quality and refusal behaviour on BEIR-format datasets.

Each corpus is indexed through the real ingestion path into a guru of its own (kept and reused
by later runs with the same corpus, chunking and embedding model), every question goes through
the real retrieval path, and the results land in reports/eval.json, reports/eval.md and charts.
"""

import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from config.env import DATA_DIR, REPO_DIR
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from openguru.answers.engine.retrieval import MODES, Mode
from openguru.core.errors import DomainError
from openguru.evaluation.charts import draw_charts
from openguru.evaluation.concurrency import MemoizedQueryEmbedder
from openguru.evaluation.corpus_index import ChunkSettings
from openguru.evaluation.datasets import BeirDataset, default_eval_dir, discover_datasets
from openguru.evaluation.datasets import load_dataset as read_dataset
from openguru.evaluation.engine_runs import engine_answer_runs
from openguru.evaluation.golden_eval import (
    golden_arguments,
    golden_eval,
    golden_eval_lines,
    golden_eval_write,
)
from openguru.evaluation.refusal import GateSettings, RefusalPair, default_gate_settings
from openguru.evaluation.report import (
    StageTime,
    eval_report,
    git_commit,
    write_json,
    write_markdown,
)
from openguru.evaluation.small_gurus import (
    SMALL_GURUS_DIR,
    small_gurus_load,
    small_gurus_report,
    small_gurus_run,
)
from openguru.evaluation.suite import (
    DatasetResult,
    Providers,
    RunOptions,
    cross_refusal_pair,
    evaluate_dataset,
    own_refusal_pair,
)
from openguru.evaluation.vector_server import milvus_for_eval
from openguru.gurus.services import guru_delete
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.rerank.factory import get_reranker
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.chunking import default_chunk_size

# Threads asking questions: while one waits for the vector store, another embeds or scores.
DEFAULT_WORKERS = 2
# Without --out-of-scope, these corpora are asked each other's questions (corpus, asked).
DEFAULT_CROSS_PAIRS = (
    ("python-docs-faq", "django-docs-faq"),
    ("django-docs-faq", "python-docs-faq"),
)


class Command(BaseCommand):
    help = "Measure retrieval quality (nDCG, recall, MRR) and refusal rates on BEIR datasets."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        # `--version` is a documentation version here: it takes the place of Django's own.
        return super().create_parser(prog_name, subcommand, conflict_handler="resolve", **kwargs)

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--dataset",
            action="append",
            default=[],
            metavar="DIR",
            help="A BEIR-format folder (repeatable). Default: every folder of the eval data "
            f"directory ({default_eval_dir()}; OPENGURU_EVAL_DIR overrides it).",
        )
        parser.add_argument(
            "--mode",
            action="append",
            default=[],
            choices=MODES,
            help="Retrieval mode (repeatable). Default: all, hybrid_rerank when a reranker is set.",
        )
        parser.add_argument("--chunk-size", type=int, default=None, metavar="TOKENS")
        parser.add_argument("--chunk-overlap", type=int, default=None, metavar="TOKENS")
        parser.add_argument("--chunk-min-chars", type=int, default=None, metavar="CHARS")
        parser.add_argument(
            "--out-of-scope",
            action="append",
            default=[],
            metavar="DIR",
            help="Ask this dataset's questions to every evaluated corpus's guru and report "
            "refusal rates (repeatable). Default: python-docs-faq and django-docs-faq both ways.",
        )
        parser.add_argument("--limit-queries", type=_positive, default=None, metavar="N")
        parser.add_argument(
            "--max-docs",
            type=_positive,
            default=None,
            metavar="N",
            help="Index only the first N corpus records, plus the gold documents of the "
            "evaluated questions (quick runs).",
        )
        parser.add_argument(
            "--workers",
            type=_positive,
            default=DEFAULT_WORKERS,
            metavar="N",
            help="Questions asked at the same time (the results do not depend on it).",
        )
        parser.add_argument(
            "--engine-answers",
            type=_positive,
            default=None,
            metavar="N",
            help="Also ask up to N in-scope questions with a reference answer and N out-of-scope "
            "questions of each dataset through the answer engine, with the configured LLM, and "
            "score its answers and refusals (costs LLM calls).",
        )
        parser.add_argument(
            "--small-gurus",
            default=str(SMALL_GURUS_DIR),
            metavar="DIR",
            help="Gurus of one short text, FAQ or PDF each, asked in-scope and unrelated "
            "questions (default: the built-in set; 'none' skips them).",
        )
        parser.add_argument("--reports-dir", default=str(REPO_DIR / "reports"), metavar="DIR")
        parser.add_argument(
            "--drop-gurus",
            action="store_true",
            help="Delete the evaluation gurus at the end instead of keeping them for reruns.",
        )
        golden_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["golden"] or options["version"]:
            return self._golden(options["golden"], options["version"], options["reports_dir"])
        started = time.monotonic()
        commit = git_commit(REPO_DIR)  # now: the tree may change while a long run goes on
        datasets = _datasets(options["dataset"])
        outside = [_read(Path(path)) for path in options["out_of_scope"]]
        reranker = get_reranker()
        modes = _modes(options["mode"], reranker_configured=reranker is not None)
        self._ensure_migrated()
        embedder = MemoizedQueryEmbedder(get_embedder())
        run = RunOptions(
            modes=modes,
            chunking=_chunking(options, default_size=default_chunk_size(embedder)),
            limit_queries=options["limit_queries"],
            max_docs=options["max_docs"],
            workers=options["workers"],
        )
        gate = default_gate_settings()
        with milvus_for_eval(DATA_DIR, self._log):
            providers = Providers(embedder, get_vector_store(), reranker, gate)
            results = [evaluate_dataset(d, run, providers, self._log) for d in datasets]
            pairs = _refusal_pairs(results, outside, run, self._log)
            small = self._small_gurus(options["small_gurus"], providers, run)
            cross = _cross_pairs([r.dataset for r in results], outside)
            per_dataset = options["engine_answers"]
            engine_runs = (
                engine_answer_runs(results, cross, per_dataset, run, self._log)
                if per_dataset
                else []
            )
            if options["drop_gurus"]:
                for result in results:
                    guru_delete(guru=result.index.guru, store=providers.store)
        report = eval_report(
            commit=commit,
            records=[record for result in results for record in result.records],
            comparisons=[record for result in results for record in result.comparisons],
            refusal=[record for pair in pairs for record in pair.records()],
            refusal_summary=[pair.summary(default=gate.threshold) for pair in pairs],
            answers=[record for result in results for record in result.answers],
            near_duplicates=[r.near_duplicates for r in results if r.near_duplicates is not None],
            engine_answers=[engine_run.record() for engine_run in engine_runs],
            small_gurus=small_gurus_report(small),
        )
        reports_dir = Path(options["reports_dir"]).resolve()
        json_path = _write_reports(report, results, pairs, gate, reports_dir, started)
        self._print_summary(report, json_path, time.monotonic() - started)

    def _golden(self, slug: str, version: str, reports_dir: str) -> None:
        if not slug:
            raise CommandError("--version measures a golden set: name its guru with --golden.")
        with milvus_for_eval(DATA_DIR, self._log):
            try:
                report = golden_eval(slug=slug, version=version)
            except DomainError as exc:
                raise CommandError(exc.msg) from exc
        path = golden_eval_write(report, Path(reports_dir).resolve())
        self.stdout.write("\n".join([*golden_eval_lines(report), f"wrote {path}"]))

    def _small_gurus(self, folder: str, providers: Providers, run: RunOptions) -> list[Any]:
        if folder == "none":
            return []
        return small_gurus_run(
            small_gurus_load(Path(folder)),
            embedder=providers.embedder,
            store=providers.store,
            reranker=providers.reranker,
            gate=providers.gate,
            log=self._log,
            workers=run.workers,
        )

    def _log(self, message: str) -> None:
        self.stderr.write(message)
        self.stderr.flush()

    def _ensure_migrated(self) -> None:
        # `make eval` on a fresh checkout has an empty SQLite file: create the tables first.
        executor = MigrationExecutor(connection)
        if executor.migration_plan(executor.loader.graph.leaf_nodes()):
            self._log("applying database migrations")
            call_command("migrate", interactive=False, verbosity=0)

    def _print_summary(self, report: dict[str, Any], json_path: Path, seconds: float) -> None:
        for r in report["records"]:
            self.stdout.write(
                f"{r['dataset']:<20} {r['mode']:<14} {r['level']:<4} "
                f"nDCG@10 {r['ndcg@10']:.4f}  R@10 {r['recall@10']:.4f}  "
                f"R@100 {r['recall@100']:.4f}  MRR@10 {r['mrr@10']:.4f}  ({r['queries']} q)"
            )
        for a in report["answers"]:
            scores = "  ".join(f"{k} {v:.4f}" for k, v in a.items() if "@" in k)
            self.stdout.write(
                f"{a['dataset']:<20} {a['answerer']:<14} answers  answered {a['answered']:.4f}  "
                f"{scores}  ({a['questions']} q)"
            )
        for e in report["engine_answers"]:
            scores = "  ".join(f"{kind} {e[kind]:.4f}" for kind in ("hit", "f1") if kind in e)
            self.stdout.write(
                f"{e['dataset']:<20} engine {e['answerer']:<7} answered {e['answered']:.4f}  "
                f"{scores}  ({e['questions']} q); refused {e['refused_out_of_scope']:.4f} of "
                f"{e['out_of_scope_questions']} out of scope; {e['errors']} errors"
            )
        for d in report["near_duplicates"]:
            self.stdout.write(
                f"{d['dataset']:<20} near-duplicates  {d['similar_pairs']} pairs at cosine >= "
                f"{d['threshold']}, {d['reused_pairs']} reused  ({d['questions']} q)"
            )
        self.stdout.write(f"wrote {json_path} and the report beside it in {seconds:.0f}s")


def _positive(value: str) -> int:
    number = int(value)
    if number <= 0:
        raise ValueError(value)
    return number


def _read(path: Path) -> BeirDataset:
    try:
        return read_dataset(path)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc


def _datasets(paths: list[str]) -> list[BeirDataset]:
    if paths:
        folders = [Path(p) for p in paths]
    else:
        root = default_eval_dir()
        folders = discover_datasets(root)
        if not folders:
            raise CommandError(f"No dataset folders under {root}; pass --dataset DIR.")
    datasets = [_read(folder) for folder in folders]
    names = [d.name for d in datasets]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise CommandError(f"Dataset folder names must differ: {', '.join(duplicates)}.")
    return datasets


def _modes(requested: list[str], *, reranker_configured: bool) -> tuple[Mode, ...]:
    if not requested:
        return tuple(m for m in MODES if m != "hybrid_rerank" or reranker_configured)
    if "hybrid_rerank" in requested and not reranker_configured:
        raise CommandError("hybrid_rerank needs a reranker: set RERANK_API_URL.")
    return tuple(m for m in MODES if m in requested)


def _chunking(options: dict[str, Any], *, default_size: int) -> ChunkSettings:
    def pick(option: str, setting: int) -> int:
        value = options[option]
        return setting if value is None else int(value)

    return ChunkSettings(
        size_tokens=pick("chunk_size", settings.CHUNK_SIZE_TOKENS) or default_size,
        overlap_tokens=pick("chunk_overlap", settings.CHUNK_OVERLAP_TOKENS),
        min_chars=pick("chunk_min_chars", settings.CHUNK_MIN_CHARS),
    )


def _refusal_pairs(
    results: list[DatasetResult], outside: list[BeirDataset], run: RunOptions, log: Any
) -> list[RefusalPair]:
    pairs = [pair for result in results if (pair := own_refusal_pair(result)) is not None]
    by_name = {result.dataset.name: result for result in results}
    for corpus, other in _cross_pairs([r.dataset for r in results], outside):
        result = by_name[corpus.name]
        if result.refusal_measured:
            pairs.append(cross_refusal_pair(result, other, run, log))
    return pairs


def _cross_pairs(
    datasets: list[BeirDataset], outside: list[BeirDataset]
) -> list[tuple[BeirDataset, BeirDataset]]:
    """(corpus, dataset whose questions it is asked): every --out-of-scope dataset, else the
    default pairs among the evaluated datasets."""
    if outside:
        return [(d, other) for d in datasets for other in outside if other.name != d.name]
    by_name = {d.name: d for d in datasets}
    return [
        (by_name[corpus], by_name[other])
        for corpus, other in DEFAULT_CROSS_PAIRS
        if corpus in by_name and other in by_name
    ]


def _write_reports(
    report: dict[str, Any],
    results: list[DatasetResult],
    pairs: list[RefusalPair],
    gate: GateSettings,
    reports_dir: Path,
    started: float,
) -> Path:
    reports_dir.mkdir(parents=True, exist_ok=True)
    json_path = write_json(report, reports_dir)
    charts = draw_charts(report, reports_dir)
    write_markdown(
        report,
        gate=gate,
        times=_stage_times(results),
        total_seconds=time.monotonic() - started,
        pair_sizes={(p.corpus, p.out_of_scope): (len(p.in_scope), len(p.outside)) for p in pairs},
        charts=charts,
        reports_dir=reports_dir,
    )
    return json_path


def _stage_times(results: list[DatasetResult]) -> list[StageTime]:
    times = []
    for result in results:
        index = result.index
        note = "reused" if index.reused else f"{index.chunks} chunks"
        name = result.dataset.name
        times.append(StageTime(name, "index", index.seconds, index.chunks_embedded, note))
        for stage, seconds in result.seconds.items():
            if stage != "index":
                times.append(StageTime(name, stage, seconds, result.queries_run.get(stage, 0)))
    return times

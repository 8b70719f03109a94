"""reports/eval.json (the machine-readable result) and reports/eval.md (the same as tables)."""

import json
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openguru.evaluation.answer_quality import QUOTE_CUTOFFS
from openguru.evaluation.metrics import METRIC_NAMES
from openguru.evaluation.refusal import GateSettings

JSON_NAME = "eval.json"
MARKDOWN_NAME = "eval.md"
METRIC_TITLES = {
    "ndcg@10": "nDCG@10",
    "recall@1": "R@1",
    "recall@5": "R@5",
    "recall@10": "R@10",
    "recall@100": "R@100",
    "mrr@10": "MRR@10",
}


def git_commit(repo_dir: Path) -> str:
    try:
        completed = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=repo_dir,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return completed.stdout.strip() or "unknown"


def eval_report(
    *,
    commit: str,
    records: Sequence[dict[str, Any]],
    refusal: Sequence[dict[str, Any]],
    refusal_summary: Sequence[dict[str, Any]],
    answers: Sequence[dict[str, Any]],
    near_duplicates: Sequence[dict[str, Any]],
    engine_answers: Sequence[dict[str, Any]],
    comparisons: Sequence[dict[str, Any]],
    small_gurus: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "commit": commit,
        "records": list(records),
        "comparisons": list(comparisons),  # hybrid minus each single mode, with intervals
        "refusal": list(refusal),
        "refusal_summary": list(refusal_summary),  # per pair: AUC, operating points
        "answers": list(answers),
        "near_duplicates": list(near_duplicates),
        "engine_answers": list(engine_answers),  # empty unless --engine-answers
        "small_gurus": small_gurus or {"summary": [], "gurus": []},
    }


def write_json(report: dict[str, Any], reports_dir: Path) -> Path:
    path = reports_dir / JSON_NAME
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


@dataclass(frozen=True)
class StageTime:
    dataset: str
    stage: str  # "index", a mode, "refusal", ...
    seconds: float
    items: int  # chunks embedded for "index", questions otherwise
    note: str = ""


def write_markdown(
    report: dict[str, Any],
    *,
    gate: GateSettings,
    times: Sequence[StageTime],
    total_seconds: float,
    pair_sizes: Mapping[tuple[str, str], tuple[int, int]],
    charts: Sequence[str],
    reports_dir: Path,
) -> Path:
    lines = [
        "# Retrieval evaluation",
        "",
        f"Commit `{report['commit']}`. Produced by `make eval` (`manage.py eval`).",
        "",
    ]
    lines += _metric_tables(report["records"])
    lines += _comparison_table(report["comparisons"])
    lines += _refusal_summary_table(report["refusal_summary"])
    lines += _small_gurus_table(report.get("small_gurus", {}).get("summary", []))
    lines += _refusal_tables(report["refusal"], gate, pair_sizes)
    lines += _answer_table(report["answers"], gate)
    lines += _near_duplicate_table(report["near_duplicates"])
    lines += _engine_answer_table(report["engine_answers"])
    lines += [f"![{name}]({name})" for name in charts]
    lines += ["", *_time_table(times, total_seconds)]
    path = reports_dir / MARKDOWN_NAME
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _metric_tables(records: Sequence[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    for dataset in dict.fromkeys(r["dataset"] for r in records):
        rows = [r for r in records if r["dataset"] == dataset]
        lines += [f"## {dataset}", "", _settings_line(rows[0]["settings"]), ""]
        header = ["mode", "level", "queries", "skipped", *(METRIC_TITLES[m] for m in METRIC_NAMES)]
        lines += [_row(header), _row(["---"] * 2 + ["---:"] * (len(header) - 2))]
        for r in rows:
            cells = [r["mode"], r["level"], str(r["queries"]), str(r["skipped_queries"])]
            lines.append(_row(cells + [f"{r[m]:.4f}" for m in METRIC_NAMES]))
        lines.append("")
    return lines


def _comparison_table(comparisons: Sequence[dict[str, Any]]) -> list[str]:
    if not comparisons:
        return []
    lines = [
        "## Modes compared question by question",
        "",
        "Mean of the per-question differences (the mode minus the other) and its paired "
        "bootstrap 95% interval; an interval that holds 0 cannot tell the two apart. n: the "
        "questions whose value differs, of those both modes scored.",
        "",
        _row(["dataset", "level", "metric", "mode", "versus", "difference", "95% interval", "n"]),
        _row(["---"] * 5 + ["---:"] * 3),
    ]
    for c in comparisons:
        lower, upper = c["interval"]
        cells = [c["dataset"], c["level"], c["metric"], c["mode"], c["versus"]]
        cells.append(f"{c['difference']:+.4f}")
        cells += [f"{lower:+.4f} … {upper:+.4f}", f"{c['changed']} of {c['questions']} changed"]
        lines.append(_row(cells))
    return [*lines, ""]


def _settings_line(settings: dict[str, Any]) -> str:
    parts = [f"{key} `{value}`" for key, value in settings.items() if value is not None]
    return "Settings: " + ", ".join(parts) + "."


def _refusal_summary_table(summary: Sequence[dict[str, Any]]) -> list[str]:
    if not summary:
        return []
    lines = [
        "## Refusal: how well the gate's score separates the sets",
        "",
        "AUC: the chance an in-scope question scores above an out-of-scope one. At budget: the "
        "highest threshold refusing at most 10 % of in-scope questions. Calibrated: the guru's "
        "own threshold (`answers.quality.calibration`). Rates are refused out-of-scope / in-scope.",
        "",
        _row(["guru", "out of scope", "AUC", "at budget", "default", "calibrated"]),
        _row(["---", "---", "---:", "---", "---", "---"]),
    ]
    for r in summary:
        calibrated = "none"
        if r["calibrated_threshold"] is not None:
            calibrated = _operating_point(r, "calibrated", r["calibrated_threshold"])
        lines.append(
            _row(
                [
                    r["corpus"],
                    r["out_of_scope"],
                    f"{r['auc']:.3f}",
                    _operating_point(r, "at_budget", r["budget_threshold"]),
                    _operating_point(r, "default", r["default_threshold"]),
                    calibrated,
                ]
            )
        )
    return [*lines, ""]


def _small_gurus_table(summary: Sequence[dict[str, Any]]) -> list[str]:
    if not summary:
        return []
    lines = [
        "## Refusal: small gurus",
        "",
        "Gurus of one short text, FAQ or PDF (`evaluation/small_gurus/`), each asked paraphrased "
        "questions its source answers and unrelated ones, gated as the answer engine gates them "
        "(the guru's threshold, calibrated after ingestion).",
        "",
        _row(["kind", "gurus", "in scope", "refused", "unrelated", "refused"]),
        _row(["---", "---:", "---:", "---:", "---:", "---:"]),
    ]
    for r in summary:
        cells = [r["kind"], str(r["gurus"]), str(r["in_scope"]), f"{r['refused_in_scope']:.3f}"]
        lines.append(_row([*cells, str(r["unrelated"]), f"{r['refused_unrelated']:.3f}"]))
    return [*lines, ""]


def _operating_point(record: dict[str, Any], suffix: str, threshold: float) -> str:
    outside, inside = (record[f"refused_{kind}_{suffix}"] for kind in ("out_of_scope", "in_scope"))
    return f"{outside:.3f} / {inside:.3f} at {threshold:.3f}"


def _refusal_tables(
    refusal: Sequence[dict[str, Any]],
    gate: GateSettings,
    pair_sizes: Mapping[tuple[str, str], tuple[int, int]],
) -> list[str]:
    if not refusal:
        return []
    lines = [
        "## Refusal (trust gate)",
        "",
        f"Hybrid retrieval, top {gate.candidates} candidates, margin {gate.margin}; "
        "refused = the gate keeps nothing at that threshold.",
        "",
    ]
    pairs = dict.fromkeys((r["corpus"], r["out_of_scope"]) for r in refusal)
    for corpus, outside in pairs:
        rows = [r for r in refusal if (r["corpus"], r["out_of_scope"]) == (corpus, outside)]
        in_scope, out_of_scope = pair_sizes.get((corpus, outside), (0, 0))
        lines += [
            f"### {corpus} guru, out of scope: {outside}",
            "",
            f"{in_scope} in-scope and {out_of_scope} out-of-scope questions.",
            "",
        ]
        lines += [_row(["threshold", "refused out-of-scope", "refused in-scope"])]
        lines += [_row(["---:", "---:", "---:"])]
        for r in rows:
            lines.append(
                _row(
                    [
                        f"{r['threshold']:.2f}",
                        f"{r['refused_out_of_scope']:.4f}",
                        f"{r['refused_in_scope']:.4f}",
                    ]
                )
            )
        lines.append("")
    return lines


def _answer_table(answers: Sequence[dict[str, Any]], gate: GateSettings) -> list[str]:
    if not answers:
        return []
    lines = [
        "## Extractive answers",
        "",
        "The answer without an LLM, per in-scope question with a reference answer: hit@k, the "
        "first k quoted sentences contain a gold answer string; f1@k, their token F1 against "
        f"the reference answer. Refused at the gate (threshold {gate.threshold}) scores 0.",
        "",
    ]
    header = ["dataset", "questions", "answered", "metric", *(f"@{k}" for k in QUOTE_CUTOFFS)]
    lines += [_row(header), _row(["---"] + ["---:"] * 2 + ["---"] + ["---:"] * len(QUOTE_CUTOFFS))]
    for record in answers:
        for kind in ("hit", "f1"):  # a dataset may hold both kinds of reference
            if f"{kind}@{QUOTE_CUTOFFS[0]}" not in record:
                continue
            cells = [record["dataset"], str(record["questions"]), f"{record['answered']:.4f}"]
            cells += [kind, *(f"{record[f'{kind}@{k}']:.4f}" for k in QUOTE_CUTOFFS)]
            lines.append(_row(cells))
    return [*lines, ""]


def _near_duplicate_table(near_duplicates: Sequence[dict[str, Any]]) -> list[str]:
    if not near_duplicates:
        return []
    lines = [
        "## Near-duplicate questions",
        "",
        "Pairs of a dataset's distinct questions whose embeddings are at least the similarity "
        "setting alike, and how many the wording guard still lets the cache reuse an answer "
        "for (each is a wrong answer unless the two are one question written twice).",
        "",
        _row(["dataset", "questions", "threshold", "similar pairs", "reused pairs"]),
        _row(["---", "---:", "---:", "---:", "---:"]),
    ]
    examples: list[str] = []
    for r in near_duplicates:
        cells = [r["dataset"], str(r["questions"]), str(r["threshold"])]
        lines.append(_row([*cells, str(r["similar_pairs"]), str(r["reused_pairs"])]))
        examples += [f"* {r['dataset']}: {a} / {b}" for a, b in r["reused_examples"]]
    if examples:
        lines += ["", "Reused pairs:", "", *examples]
    return [*lines, ""]


def _engine_answer_table(records: Sequence[dict[str, Any]]) -> list[str]:
    if not records:
        return []
    lines = [
        "## Answers through the answer engine",
        "",
        "Questions asked as a channel asks them (`answers.engine.ask.ask`, answer cache emptied "
        "first): hit, the answer contains a gold string; f1, its token F1 against the reference "
        "answer; a refused question scores 0. First text: from the request to the first words.",
        "",
        _row(
            [
                "dataset",
                "answerer",
                "questions",
                "answered",
                "hit",
                "f1",
                "out of scope",
                "refused out of scope",
                "errors",
                "first text p50 ms",
            ]
        ),
        _row(["---", "---"] + ["---:"] * 4 + ["---"] + ["---:"] * 3),
    ]
    for r in records:
        scores = [f"{r[kind]:.4f}" if kind in r else "" for kind in ("hit", "f1")]
        cells = [r["dataset"], r["answerer"], str(r["questions"]), f"{r['answered']:.4f}"]
        cells += [*scores, f"{r['out_of_scope'] or 'none'} ({r['out_of_scope_questions']})"]
        cells += [f"{r['refused_out_of_scope']:.4f}", str(r["errors"]), str(r["first_text_ms_p50"])]
        lines.append(_row(cells))
    lines += ["", "Decisions (from the stored decision traces):", ""]
    for r in records:
        decisions = ", ".join(f"{k} {n}" for k, n in r.get("decisions", {}).items()) or "none"
        lines.append(
            f"* {r['dataset']}: {decisions}; per question {r.get('llm_calls_mean', 0)} LLM calls "
            f"({r.get('sequential_llm_calls_mean', 0)} before the first token), "
            f"{r.get('prompt_tokens_mean', 0)} prompt and "
            f"{r.get('completion_tokens_mean', 0)} completion tokens"
        )
    grounded = [r for r in records if r.get("grounding")]
    if grounded:
        lines += ["", "Grounding (claims checked against the answer's sources):", ""]
    for r in grounded:
        g = r["grounding"]
        lines.append(
            f"* {r['dataset']}: {g['flagged']} of {g['checked']} checked answers flagged; "
            f"{g['unsupported_claims']} unsupported and {g['partly_claims']} partly supported "
            f"of {g['claims']} claims; {g['unchecked']} unchecked"
        )
    return [*lines, ""]


def _time_table(times: Sequence[StageTime], total_seconds: float) -> list[str]:
    lines = [
        "## Run time",
        "",
        "Wall time of this run (varies between runs; the metrics above do not).",
        "",
        _row(["dataset", "stage", "seconds", "items", "items/s", "note"]),
        _row(["---", "---", "---:", "---:", "---:", "---"]),
    ]
    for t in times:
        rate = f"{t.items / t.seconds:.1f}" if t.seconds > 0 and t.items else ""
        lines.append(_row([t.dataset, t.stage, f"{t.seconds:.1f}", str(t.items), rate, t.note]))
    lines += ["", f"Total wall time: {total_seconds:.0f}s."]
    return lines


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"

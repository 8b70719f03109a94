"""PNG charts of an evaluation report: metrics per mode, and the refusal trade-off."""

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display on servers and in CI

import matplotlib.pyplot as plt

from openguru.evaluation.metrics import METRIC_NAMES

METRICS_CHART = "eval_metrics.png"
REFUSAL_CHART = "eval_refusal.png"
# No software version or date in the file: the same report draws the same bytes.
_PNG_METADATA: dict[str, Any] = {"Software": None}
_PANEL_INCHES = (7.0, 3.2)


def draw_charts(report: dict[str, Any], reports_dir: Path) -> list[str]:
    """Write the charts the report has data for; returns their file names."""
    names = []
    if report["records"]:
        _metrics_chart(report["records"], reports_dir / METRICS_CHART)
        names.append(METRICS_CHART)
    if report["refusal"]:
        _refusal_chart(report["refusal"], reports_dir / REFUSAL_CHART)
        names.append(REFUSAL_CHART)
    return names


def _metrics_chart(records: Sequence[dict[str, Any]], path: Path) -> None:
    panels = list(dict.fromkeys((r["dataset"], r["level"]) for r in records))
    width, height = _PANEL_INCHES
    figure, axes = plt.subplots(
        len(panels), 1, figsize=(width, height * len(panels)), squeeze=False
    )
    for axis, (dataset, level) in zip(axes[:, 0], panels, strict=True):
        rows = [r for r in records if (r["dataset"], r["level"]) == (dataset, level)]
        bar_width = 0.8 / len(rows)
        for offset, row in enumerate(rows):
            positions = [i + offset * bar_width for i in range(len(METRIC_NAMES))]
            axis.bar(positions, [row[m] for m in METRIC_NAMES], bar_width, label=row["mode"])
        axis.set_xticks([i + 0.4 - bar_width / 2 for i in range(len(METRIC_NAMES))])
        axis.set_xticklabels(METRIC_NAMES)
        axis.set_ylim(0, 1.15)  # headroom for the legend above bars that reach 1
        axis.set_title(f"{dataset} ({level} level)")
        axis.legend(fontsize="small", ncols=len(rows), loc="upper left")
    figure.tight_layout()
    figure.savefig(path, format="png", metadata=_PNG_METADATA)
    plt.close(figure)


def _refusal_chart(refusal: Sequence[dict[str, Any]], path: Path) -> None:
    pairs = list(dict.fromkeys((r["corpus"], r["out_of_scope"]) for r in refusal))
    figure, (trade_off, sweep) = plt.subplots(1, 2, figsize=(11, 4.5))
    for corpus, outside in pairs:
        rows = sorted(
            (r for r in refusal if (r["corpus"], r["out_of_scope"]) == (corpus, outside)),
            key=lambda r: r["threshold"],
        )
        label = f"{corpus} vs {outside}"
        in_scope = [r["refused_in_scope"] for r in rows]
        outside_rates = [r["refused_out_of_scope"] for r in rows]
        thresholds = [r["threshold"] for r in rows]
        trade_off.plot(in_scope, outside_rates, marker=".", label=label)
        (line,) = sweep.plot(thresholds, outside_rates, label=f"{label}: out of scope")
        sweep.plot(thresholds, in_scope, linestyle="--", color=line.get_color(), label="in scope")
    trade_off.plot([0, 1], [0, 1], color="grey", linewidth=0.5)  # a gate that refuses at random
    trade_off.set_xlabel("in-scope questions refused (wrongly)")
    trade_off.set_ylabel("out-of-scope questions refused (rightly)")
    trade_off.set_title("Refusal trade-off over the threshold sweep")
    sweep.set_xlabel("trust threshold")
    sweep.set_ylabel("refusal rate")
    sweep.set_title("Refusal rate by threshold")
    for axis in (trade_off, sweep):
        axis.set_xlim(0, 1)
        axis.set_ylim(0, 1.02)
        axis.legend(fontsize="x-small")
    figure.tight_layout()
    figure.savefig(path, format="png", metadata=_PNG_METADATA)
    plt.close(figure)

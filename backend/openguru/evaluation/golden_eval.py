"""`manage.py eval --golden SLUG [--version LABEL]`: a guru's golden set measured now, from the
command line, as the run after a re-index measures it (`golden_measure.py`), optionally only
the pairs of one documentation version. Nothing is stored on the guru; the figures go to
`reports/golden-<slug>.json` and the terminal."""

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from openguru.answers.engine.providers import providers_for
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.models import PlatformSettings
from openguru.evaluation.golden import golden_pair_list
from openguru.evaluation.golden_measure import golden_by_version, golden_measure
from openguru.gurus.selectors import guru_get
from openguru.sources.versions import version_checked


def golden_arguments(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--golden",
        default="",
        metavar="SLUG",
        help="Measure this guru's golden set (recall@5, refusal rate, per version) instead of "
        "the datasets.",
    )
    parser.add_argument(
        "--version",
        default="",
        metavar="LABEL",
        help="With --golden: only the pairs of this documentation version (a pair whose "
        "source has no version counts in the guru's default).",
    )


def golden_eval(*, slug: str, version: str) -> dict[str, Any]:
    """Blocking: the guru's pairs retrieved and gated in their versions. Raises DomainError for
    an unknown guru or version, or a guru without pairs in it."""
    guru = guru_get(slug=slug)
    label = version_checked(guru=guru, version=version)
    measured = golden_measure(
        guru=guru,
        pairs=list(golden_pair_list(guru=guru)),
        providers=providers_for(guru),
        platform=PlatformSettings.objects.get_or_create(pk=1)[0],
        only_version=label,
    )
    if not measured.details:
        where = f" in version {label}" if label else ""
        raise DomainError(ErrorCode.INVALID_INPUT, f"The guru '{slug}' has no golden pairs{where}.")
    return {
        "guru": slug,
        "version": label,
        "pairs": len(measured.details),
        "recall_at_5": measured.recall_at_5,
        "refusal_rate": measured.refusal_rate,
        "by_version": golden_by_version(measured.details),
        "details": measured.details,
    }


def golden_eval_write(report: dict[str, Any], reports_dir: Path) -> Path:
    reports_dir.mkdir(parents=True, exist_ok=True)
    suffix = f"-{report['version']}" if report["version"] else ""
    path = reports_dir / f"golden-{report['guru']}{suffix}.json"
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def golden_eval_lines(report: dict[str, Any]) -> list[str]:
    scope = f"version {report['version']}" if report["version"] else "every version"
    lines = [
        f"golden {report['guru']} ({scope}): recall@5 {report['recall_at_5']:.4f}  refused "
        f"{report['refusal_rate']:.4f}  ({report['pairs']} pairs)"
    ]
    for label, figures in report["by_version"].items():
        lines.append(
            f"  version {label:<10} recall@5 {figures['recall_at_5']:.4f}  refused "
            f"{figures['refusal_rate']:.4f}  ({figures['pairs']:.0f} pairs)"
        )
    return lines

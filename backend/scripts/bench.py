"""`make bench`: the speed harness. Writes `reports/bench.json` (see docs/benchmarks.md).

    python backend/scripts/bench.py                          # every section, default sizes
    python backend/scripts/bench.py --sections ingest,search # a subset
    python backend/scripts/bench.py --quick                  # small sizes: a smoke run
    python backend/scripts/bench.py --full                   # whole docs site, 100k search rows
    python backend/scripts/bench.py --sections volume --volume-questions 1000000
    python backend/scripts/bench.py --sections capacity --full --capacity-parts shared
    python backend/scripts/bench.py --sections search --search-parts recall  # recall to 1M
    python backend/scripts/bench.py --paced-llm              # the fake LLM paced per token
    python backend/scripts/bench.py --sections overload --profile  # where the server's CPU goes

Needs no network once the docs package is in data/bench/downloads (the first run fetches it with
`apt-get download`). Everything it starts runs in its own process group and is stopped at the
end, on failure and on Ctrl-C. Progress goes to stderr.
"""

import argparse
import sys
import warnings
from pathlib import Path

BACKEND = Path(__file__).resolve().parent.parent
REPO = BACKEND.parent
sys.path[:0] = [str(BACKEND), str(REPO)]
# milvus-lite 2.5 imports pkg_resources; the warning says nothing about this run.
warnings.filterwarnings("ignore", message="pkg_resources is deprecated")

from benchmarks.capacity import CAPACITY_PARTS  # noqa: E402
from benchmarks.config import SECTIONS, BenchConfig  # noqa: E402
from benchmarks.runner import run  # noqa: E402
from benchmarks.search import SEARCH_PARTS  # noqa: E402


def _parse() -> BenchConfig:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--sections",
        default=",".join(SECTIONS),
        help=f"comma-separated, from: {', '.join(SECTIONS)} (default: all)",
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--quick", action="store_true", help="small sizes: minutes, not a measurement"
    )
    size.add_argument(
        "--full", action="store_true", help="the whole docs site and 100k search rows"
    )
    parser.add_argument("--output", type=Path, default=REPO / "reports" / "bench.json")
    parser.add_argument("--deb", type=Path, help="a python3.11-doc .deb to use instead of apt")
    parser.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL database to use (dropped and re-created by the ingest section) "
        "instead of SQLite under data/bench/state/",
    )
    parser.add_argument(
        "--paced-llm",
        action="store_true",
        help="the fake LLM also spends its per-token time before a stream's first token and "
        "on each token of a structured-output answer (default: a fixed time per call)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="sample the server with py-spy during the overload and cached sections: a flame "
        "graph SVG beside the report, the top functions by own time in it",
    )
    parser.add_argument(
        "--volume-questions",
        type=int,
        default=0,
        help="questions the volume section generates (default: 10 million; --quick: 20,000)",
    )
    parser.add_argument(
        "--volume-reuse",
        action="store_true",
        help="the volume section measures the rows an earlier run left in its scratch database",
    )
    parser.add_argument(
        "--capacity-parts",
        default="",
        help=f"the capacity section's parts to run, from: {', '.join(CAPACITY_PARTS)} "
        "(default: all)",
    )
    parser.add_argument(
        "--capacity-gurus",
        type=int,
        default=0,
        help="gurus of 200 chunks (and as many empty ones) the shared-layout part adds "
        "(default: 200; --quick: 50; --full: 1,000)",
    )
    parser.add_argument(
        "--search-parts",
        default="",
        help=f"the search section's parts to run, from: {', '.join(SEARCH_PARTS)} "
        "(default: latency; --full: both)",
    )
    parser.add_argument(
        "--recall-sizes",
        default="",
        help="the recall curve's sizes of one growing collection, comma-separated "
        "(default: 100000,250000,500000,1000000), cut short when the next would overrun "
        "its time budget",
    )
    args = parser.parse_args()
    sections = tuple(s.strip() for s in args.sections.split(",") if s.strip())
    try:
        return BenchConfig.build(
            sections=sections,
            output=args.output,
            quick=args.quick,
            full=args.full,
            deb=args.deb,
            database_url=args.database_url,
            paced_llm=args.paced_llm,
            profile=args.profile,
            volume_questions=args.volume_questions,
            volume_reuse=args.volume_reuse,
            capacity_parts=_names(args.capacity_parts),
            capacity_gurus=args.capacity_gurus,
            search_parts=_names(args.search_parts),
            recall_sizes=tuple(int(n) for n in _names(args.recall_sizes)),
        )
    except ValueError as exc:
        parser.error(str(exc))


def _names(value: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in value.split(",") if n.strip())


def main() -> int:
    config = _parse()
    try:
        return run(config)
    except KeyboardInterrupt:
        print("bench interrupted; every server it started was stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

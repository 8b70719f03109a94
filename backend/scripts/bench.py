"""`make bench`: the speed harness. Writes `reports/bench.json` (see docs/benchmarks.md).

    python backend/scripts/bench.py                          # every section, default sizes
    python backend/scripts/bench.py --sections ingest,search # a subset
    python backend/scripts/bench.py --quick                  # small sizes: a smoke run
    python backend/scripts/bench.py --full                   # whole docs site, 100k search rows
    python backend/scripts/bench.py --paced-llm              # the fake LLM paced per token

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

from benchmarks.config import SECTIONS, BenchConfig  # noqa: E402
from benchmarks.runner import run  # noqa: E402


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
        )
    except ValueError as exc:
        parser.error(str(exc))


def main() -> int:
    config = _parse()
    try:
        return run(config)
    except KeyboardInterrupt:
        print("bench interrupted; every server it started was stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

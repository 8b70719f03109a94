"""What one bench run measures, and at which sizes (`--quick` for a smoke run, `--full` for the
whole site and the 100k search level)."""

from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.api_server import LlmLatency
from benchmarks.capacity import QUICK_CAPACITY, CapacityPlan
from benchmarks.search import SearchPlan

SECTIONS = (
    "ingest", "search", "capacity", "ttft", "concurrency", "cached", "api", "widget", "ui",
    "slack", "overload",
)  # fmt: skip
ASKING_SECTIONS = frozenset(
    {"ttft", "concurrency", "cached", "api", "widget", "ui", "slack", "overload"}
)
WARMUP_QUESTIONS = 6
SLACK_ONE_AT_A_TIME = 5  # events sent one at a time before the burst, for the unloaded floor
# The default subset: prose sections with real questions in them (tutorial, FAQ, how-tos, the
# language reference). The whole site is ~25k chunks: over twenty minutes of local embedding here.
PROSE_SUBSET = ("/tutorial/*", "/faq/*", "/howto/*", "/reference/*")
QUICK_SUBSET = ("/tutorial/*",)


@dataclass(frozen=True)
class SiteScope:
    include_patterns: tuple[str, ...]  # () = the whole site
    max_pages: int = 1000

    @property
    def label(self) -> str:
        if not self.include_patterns:
            return "whole site"
        return "only " + ", ".join(self.include_patterns)


@dataclass(frozen=True)
class OverloadPlan:
    """The overload section's arrival rates (answers per second, each for `seconds`); it stops
    after `shed_levels` rates in a row that shed asks: what shedding does is shown by then."""

    rates: tuple[float, ...] = (2, 4, 6, 8, 12, 16, 24, 32)
    seconds: float = 30.0
    shed_levels: int = 2
    seed: int = 7


@dataclass(frozen=True)
class BenchConfig:
    sections: tuple[str, ...] = SECTIONS
    output: Path = Path("reports/bench.json")
    deb: Path | None = None
    database_url: str = ""  # "" = SQLite under data/bench/state/
    scope: SiteScope = SiteScope(PROSE_SUBSET)
    raw_sample: int = 1000
    search: SearchPlan = field(default_factory=SearchPlan)
    capacity: CapacityPlan = field(default_factory=CapacityPlan)
    ttft_questions: int = 30
    concurrency_levels: tuple[int, ...] = (100, 500)
    concurrency_modes: tuple[str, ...] = ("default", "fast")
    concurrency_timeout_s: float = 300.0
    ask_timeout_s: float = 60.0
    cached_requests: int = 500
    cached_concurrency: int = 20
    api_stream_questions: int = 20  # alternating: half through v1, half through the SSE stream
    widget_questions: int = 20  # alternating: half in the widget (Chromium), half through SSE
    ui_questions: int = 20  # alternating: half on the Q&A site (Chromium), half through SSE
    ui_page_gets: int = 200  # timed GETs of a stored question page from `next start`
    slack_events: int = 50  # signed Slack events sent at once (after 5 sent one at a time)
    overload: OverloadPlan = field(default_factory=OverloadPlan)
    workers: int = 2
    latency: LlmLatency = field(default_factory=LlmLatency)

    @classmethod
    def build(
        cls,
        *,
        sections: tuple[str, ...],
        output: Path,
        quick: bool = False,
        full: bool = False,
        deb: Path | None = None,
        database_url: str = "",
        paced_llm: bool = False,
    ) -> "BenchConfig":
        unknown = set(sections) - set(SECTIONS)
        if unknown:
            raise ValueError(f"unknown sections: {', '.join(sorted(unknown))}")
        ordered = tuple(s for s in SECTIONS if s in sections)
        latency = LlmLatency(fixed_call=not paced_llm)
        if quick:
            return cls(
                sections=ordered,
                output=output,
                deb=deb,
                database_url=database_url,
                scope=SiteScope(QUICK_SUBSET),
                raw_sample=200,
                search=SearchPlan(small=2_000, large=0, queries=30),
                capacity=QUICK_CAPACITY,
                ttft_questions=5,
                concurrency_levels=(10, 20),
                concurrency_timeout_s=120.0,
                cached_requests=50,
                cached_concurrency=10,
                api_stream_questions=6,
                widget_questions=6,
                ui_questions=6,
                ui_page_gets=50,
                slack_events=20,
                overload=OverloadPlan(rates=(2, 4, 8, 16, 32), seconds=10.0),
                latency=latency,
            )
        scope = SiteScope(()) if full else SiteScope(PROSE_SUBSET)
        return cls(
            sections=ordered,
            output=output,
            deb=deb,
            database_url=database_url,
            scope=scope,
            search=SearchPlan(force_large=full),
            latency=latency,
        )

    @property
    def asks(self) -> bool:
        return bool(ASKING_SECTIONS & set(self.sections))

    @property
    def needs_docs_guru(self) -> bool:
        return "ingest" in self.sections or self.asks

    @property
    def needs_database(self) -> bool:
        """The capacity section's worker processes index into the bench database too."""
        return self.needs_docs_guru or "capacity" in self.sections

    def questions_needed(self) -> int:
        count = WARMUP_QUESTIONS
        if "ttft" in self.sections:
            count += 2 * self.ttft_questions
        if "concurrency" in self.sections:
            count += sum(self.concurrency_levels) * len(self.concurrency_modes)
        if "api" in self.sections:
            count += self.api_stream_questions
        if "widget" in self.sections:
            count += self.widget_questions
        if "ui" in self.sections:
            count += self.ui_questions
        if "slack" in self.sections:
            count += self.slack_events + SLACK_ONE_AT_A_TIME + 1
        return count + 1  # the cached section's question, when ttft did not answer one

    def as_dict(self) -> dict[str, object]:
        return {
            "sections": list(self.sections),
            "database": self.database_url.split(":", 1)[0] if self.database_url else "sqlite",
            "site_scope": self.scope.label,
            "max_pages": self.scope.max_pages,
            "raw_sample": self.raw_sample,
            "search_sizes": [self.search.small, self.search.large or None],
            "search_queries_per_mode": self.search.queries,
            "capacity_embed_chunks": self.capacity.embed_chunks,
            "capacity_search_sizes": list(self.capacity.growth_sizes),
            "capacity_guru_levels": list(self.capacity.guru_levels),
            "capacity_chunks_per_guru": self.capacity.chunks_per_guru,
            "ttft_questions_per_mode": self.ttft_questions,
            "concurrency_levels": list(self.concurrency_levels),
            "concurrency_modes": list(self.concurrency_modes),
            "concurrency_timeout_s": self.concurrency_timeout_s,
            "cached_requests": self.cached_requests,
            "cached_concurrency": self.cached_concurrency,
            "api_stream_questions": self.api_stream_questions,
            "widget_questions": self.widget_questions,
            "ui_questions": self.ui_questions,
            "ui_page_gets": self.ui_page_gets,
            "slack_events": self.slack_events,
            "overload_rates": list(self.overload.rates),
            "overload_seconds_per_rate": self.overload.seconds,
            "gunicorn_workers": self.workers,
            "llm_call_ms": self.latency.call_ms,
            "llm_token_ms": self.latency.token_ms,
            "llm_latency_profile": self.latency.profile,
        }

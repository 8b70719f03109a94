"""What one bench run measures, and at which sizes (`--quick` for a smoke run, `--full` for the
whole site and the 100k search level)."""

from dataclasses import dataclass, field, replace
from pathlib import Path

from benchmarks.api_server import LlmLatency
from benchmarks.capacity import FULL_CAPACITY, QUICK_CAPACITY, CapacityPlan
from benchmarks.search import SEARCH_PARTS, SearchPlan
from benchmarks.volume import QUICK_VOLUME, VolumePlan

SECTIONS = (
    "ingest", "connectors", "search", "capacity", "ttft", "concurrency", "cached", "api",
    "widget", "ui", "slack", "overload", "scaleout", "refusal", "volume",
)  # fmt: skip
ASKING_SECTIONS = frozenset(
    {"ttft", "concurrency", "cached", "api", "widget", "ui", "slack", "overload", "scaleout"}
)
WARMUP_QUESTIONS = 6
SLACK_ONE_AT_A_TIME = 5  # events sent one at a time before the burst, for the unloaded floor
# The default subset: prose sections with real questions in them (tutorial, FAQ, how-tos, the
# language reference). The whole site is ~25k chunks: over twenty minutes of local embedding here.
PROSE_SUBSET = ("/tutorial/*", "/faq/*", "/howto/*", "/reference/*")
QUICK_SUBSET = ("/tutorial/*",)
# The refusal section asks the Python FAQ: its crawl includes the FAQ pages.
QUICK_REFUSAL_SUBSET = ("/tutorial/*", "/faq/*")


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
class RefusalPlan:
    """The refusal section's crawl and how many FAQ questions it asks (0: all of them)."""

    scope: SiteScope = SiteScope(PROSE_SUBSET)
    own_questions: int = 0
    other_questions: int = 0


@dataclass(frozen=True)
class OverloadPlan:
    """The overload section's arrival rates (answers per second, each for `seconds`); it stops
    after `shed_levels` rates in a row that shed asks: what shedding does is shown by then."""

    rates: tuple[float, ...] = (2, 4, 6, 8, 12, 16, 24, 32)
    seconds: float = 30.0
    shed_levels: int = 2
    seed: int = 7


@dataclass(frozen=True)
class ScaleoutPlan:
    """Process counts the scaleout section compares, each API count asked at the overload
    section's rising rates; each ingestion worker indexes `topics_share` of the reference topics."""

    api_processes: tuple[int, ...] = (1, 2, 4)
    worker_processes: tuple[int, ...] = (1, 2, 4)
    overload: OverloadPlan = OverloadPlan(rates=(4, 8, 12, 16, 24, 32, 48, 64), seconds=20.0)
    topics_share: float = 0.5


QUICK_SCALEOUT = ScaleoutPlan(
    api_processes=(1, 2),
    worker_processes=(1, 2),
    overload=OverloadPlan(rates=(4, 8, 16, 32), seconds=8.0),
    topics_share=0.05,
)


@dataclass(frozen=True)
class BenchConfig:
    sections: tuple[str, ...] = SECTIONS
    output: Path = Path("reports/bench.json")
    deb: Path | None = None
    database_url: str = ""  # "" = SQLite under data/bench/state/
    scope: SiteScope = SiteScope(PROSE_SUBSET)
    raw_sample: int = 1000
    connector_items: int = 1000  # items each connector's loopback stand-in serves
    search: SearchPlan = field(default_factory=SearchPlan)
    capacity: CapacityPlan = field(default_factory=CapacityPlan)
    volume: VolumePlan = field(default_factory=VolumePlan)
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
    scaleout: ScaleoutPlan = field(default_factory=ScaleoutPlan)
    refusal: RefusalPlan = field(default_factory=RefusalPlan)
    workers: int = 2
    latency: LlmLatency = field(default_factory=LlmLatency)
    profile: bool = False  # sample the server during the overload and cached sections

    def profile_svg(self, section: str) -> Path | None:
        """Where a section's flame graph goes (beside the report), or None unless profiling."""
        if not self.profile:
            return None
        return self.output.with_name(f"{self.output.stem}-{section}-profile.svg")

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
        profile: bool = False,
        volume_questions: int = 0,
        volume_reuse: bool = False,
        capacity_parts: tuple[str, ...] = (),
        capacity_gurus: int = 0,
        search_parts: tuple[str, ...] = (),
        recall_sizes: tuple[int, ...] = (),
    ) -> "BenchConfig":
        unknown = set(sections) - set(SECTIONS)
        if unknown:
            raise ValueError(f"unknown sections: {', '.join(sorted(unknown))}")
        ordered = tuple(s for s in SECTIONS if s in sections)
        latency = LlmLatency(fixed_call=not paced_llm)
        volume = QUICK_VOLUME if quick else VolumePlan()
        if volume_questions:
            volume = replace(volume, questions=volume_questions)
        volume = replace(volume, reuse=volume_reuse)
        capacity = QUICK_CAPACITY if quick else FULL_CAPACITY if full else CapacityPlan()
        capacity = capacity.only(parts=capacity_parts, shared_gurus=capacity_gurus)
        search = SearchPlan(small=2_000, large=0, queries=30) if quick else SearchPlan()
        if full:
            search = replace(search, force_large=True, parts=SEARCH_PARTS)
        search = search.only(parts=search_parts, recall_sizes=recall_sizes)
        if quick:
            return cls(
                sections=ordered,
                output=output,
                deb=deb,
                database_url=database_url,
                scope=SiteScope(QUICK_SUBSET),
                raw_sample=200,
                connector_items=100,
                search=search,
                capacity=capacity,
                volume=volume,
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
                scaleout=QUICK_SCALEOUT,
                refusal=RefusalPlan(SiteScope(QUICK_REFUSAL_SUBSET), own_questions=30),
                latency=latency,
                profile=profile,
            )
        scope = SiteScope(()) if full else SiteScope(PROSE_SUBSET)
        return cls(
            sections=ordered,
            output=output,
            deb=deb,
            database_url=database_url,
            scope=scope,
            search=search,
            capacity=capacity,
            refusal=RefusalPlan(scope),
            volume=volume,
            latency=latency,
            profile=profile,
        )

    @property
    def asks(self) -> bool:
        return bool(ASKING_SECTIONS & set(self.sections))

    @property
    def needs_docs_guru(self) -> bool:
        return "ingest" in self.sections or self.asks

    @property
    def needs_database(self) -> bool:
        """The capacity section's worker processes and the connectors index into it too."""
        return self.needs_docs_guru or bool(
            {"capacity", "connectors", "scaleout", "refusal"} & set(self.sections)
        )

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
            "connector_items": self.connector_items,
            "search_sizes": [self.search.small, self.search.large or None],
            "search_queries_per_mode": self.search.queries,
            "capacity_embed_chunks": self.capacity.embed_chunks,
            "capacity_search_sizes": list(self.capacity.growth_sizes),
            "capacity_guru_levels": list(self.capacity.guru_levels),
            "capacity_chunks_per_guru": self.capacity.chunks_per_guru,
            "capacity_parts": list(self.capacity.parts),
            "capacity_shared_gurus": self.capacity.shared_gurus,
            "search_parts": list(self.search.parts),
            "recall_sizes": list(self.search.recall_sizes) if "recall" in self.search.parts else [],
            "volume_gurus": self.volume.gurus,
            "volume_questions": self.volume.questions,
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
            "scaleout_api_processes": list(self.scaleout.api_processes),
            "scaleout_worker_processes": list(self.scaleout.worker_processes),
            "refusal_scope": self.refusal.scope.label,
            "refusal_own_questions": self.refusal.own_questions or "all",
            "gunicorn_workers": self.workers,
            "llm_call_ms": self.latency.call_ms,
            "llm_token_ms": self.latency.token_ms,
            "llm_latency_profile": self.latency.profile,
            "profile": self.profile,
        }

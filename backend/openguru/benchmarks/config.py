"""What one bench run measures, and at which sizes (`--quick` for a smoke run, `--full` for the
whole site and the 100k search level)."""

from dataclasses import dataclass, field
from pathlib import Path

from openguru.benchmarks.api_server import LlmLatency
from openguru.benchmarks.search import SearchPlan

SECTIONS = ("ingest", "search", "ttft", "concurrency", "cached", "api", "widget", "ui")
ASKING_SECTIONS = frozenset({"ttft", "concurrency", "cached", "api", "widget", "ui"})
WARMUP_QUESTIONS = 6
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
class BenchConfig:
    sections: tuple[str, ...] = SECTIONS
    output: Path = Path("reports/bench.json")
    deb: Path | None = None
    database_url: str = ""  # "" = SQLite under data/bench/state/
    scope: SiteScope = SiteScope(PROSE_SUBSET)
    raw_sample: int = 1000
    search: SearchPlan = field(default_factory=SearchPlan)
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
                ttft_questions=5,
                concurrency_levels=(10, 20),
                concurrency_timeout_s=120.0,
                cached_requests=50,
                cached_concurrency=10,
                api_stream_questions=6,
                widget_questions=6,
                ui_questions=6,
                ui_page_gets=50,
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
            "gunicorn_workers": self.workers,
            "llm_call_ms": self.latency.call_ms,
            "llm_token_ms": self.latency.token_ms,
            "llm_latency_profile": self.latency.profile,
        }

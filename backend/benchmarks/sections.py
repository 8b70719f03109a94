"""Runs the chosen sections in order on a configured Django (imported only after setup)."""

import asyncio
import traceback
from collections.abc import Callable
from typing import Any

from openguru.answers.models import OutOfContextQuestion, Question
from openguru.core.models import PlatformSettings
from openguru.gurus.models import Guru
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.providers.vectorstore.naming import collection_name_for

from benchmarks.api import run_api
from benchmarks.api_server import ApiServer, start_api, warm_every_worker
from benchmarks.cached import run_cached
from benchmarks.capacity import run_capacity
from benchmarks.collection import source_chunks
from benchmarks.concurrency import ask_all_at_once, run_concurrency
from benchmarks.config import SLACK_ONE_AT_A_TIME, WARMUP_QUESTIONS, BenchConfig
from benchmarks.connectors import run_connectors
from benchmarks.docs_guru import (
    GURU_SLUG,
    create_guru,
    docs_guru,
    index_first_time,
    serve_docs,
)
from benchmarks.ingest import run_ingest
from benchmarks.overload import overload_section
from benchmarks.paths import BenchPaths
from benchmarks.processes import ChildProcesses
from benchmarks.profiling import profiled_if
from benchmarks.python_docs import python_docs_root
from benchmarks.questions import QuestionSupply, question_pool
from benchmarks.refusal import run_refusal
from benchmarks.scaleout import scaleout_section
from benchmarks.search import run_search
from benchmarks.search_recall import run_recall
from benchmarks.slack import run_slack
from benchmarks.sse import AskOutcome
from benchmarks.ttft import run_ttft
from benchmarks.ui import run_ui
from benchmarks.volume import run_volume
from benchmarks.widget import run_widget

Log = Callable[[str], None]


class SectionRunner:
    def __init__(
        self,
        config: BenchConfig,
        paths: BenchPaths,
        processes: ChildProcesses,
        log: Log,
        *,
        start_search_milvus: Callable[[], str],
    ) -> None:
        self.config = config
        self.paths = paths
        self.processes = processes
        self.log = log
        self.start_search_milvus = start_search_milvus
        self.results: dict[str, Any] = {}
        self.notes: dict[str, Any] = {}
        self.failed: list[str] = []
        self._contexts: list[str] = []  # chunk texts for the LLM floor's relevance prompt

    def run(self) -> None:
        sections = self.config.sections
        if "ingest" in sections:
            self._guarded("ingest", self._ingest)
        if "connectors" in sections:
            self._guarded("connectors", self._connectors)
        if "search" in sections:
            self._guarded("search", self._search)
        if "capacity" in sections:
            self._guarded("capacity", self._capacity)
        if "volume" in sections:
            self._guarded("volume", self._volume)
        if self.config.asks:
            self._guarded("answers", self._answers)
        if "refusal" in sections:
            self._guarded("refusal", self._refusal)

    def _guarded(self, name: str, step: Callable[[], None]) -> None:
        """A failing section is reported and the next one still runs (Ctrl-C still stops)."""
        try:
            step()
        except Exception as exc:
            self.failed.append(name)
            self.notes[f"{name}_error"] = f"{type(exc).__name__}: {exc}"
            self.log(f"{name} failed:\n{traceback.format_exc()}")

    # --- sections --------------------------------------------------------------------------------

    def _serve_site(self) -> tuple[str, Any]:
        html = python_docs_root(
            downloads=self.paths.downloads,
            extract_to=self.paths.site,
            log=self.log,
            deb=self.config.deb,
        )
        return serve_docs(html, self.processes, self.paths.logs)

    def _ingest(self) -> None:
        site_url, site = self._serve_site()
        try:
            self.results["ingest"] = run_ingest(
                site_url=site_url,
                scope=self.config.scope,
                raw_sample=self.config.raw_sample,
                log=self.log,
            )
        finally:
            self.processes.stop(site)

    def _refusal(self) -> None:
        site_url, site = self._serve_site()
        try:
            self.results["refusal"] = run_refusal(
                site_url=site_url, plan=self.config.refusal, log=self.log
            )
        finally:
            self.processes.stop(site)

    def _connectors(self) -> None:
        self.results["connectors"] = run_connectors(
            n_items=self.config.connector_items, log=self.log
        )

    def _search(self) -> None:
        plan = self.config.search
        if "latency" in plan.parts:
            uri = self.start_search_milvus()
            rows, notes = run_search(uri=uri, plan=plan, log=self.log)
            self.results["search"] = rows
            self.notes["search"] = notes
        if "recall" in plan.parts:
            self.results["search_recall"] = run_recall(
                plan=plan,
                root=self.paths.root / "search-recall",
                processes=self.processes,
                log=self.log,
            )

    def _capacity(self) -> None:
        self.results["capacity"] = run_capacity(
            plan=self.config.capacity, paths=self.paths, processes=self.processes, log=self.log
        )

    def _volume(self) -> None:
        self.results["volume"] = run_volume(
            plan=self.config.volume,
            database_url=self.config.database_url,
            paths=self.paths,
            processes=self.processes,
            log=self.log,
        )

    def _answers(self) -> None:
        guru = docs_guru() or self._index_unmeasured()
        supply = QuestionSupply(self._questions(guru))
        self.log(f"answers: {supply.left} distinct in-scope questions")
        api = start_api(
            self.processes,
            latency=self.config.latency,
            workers=self.config.workers,
            logs=self.paths.logs,
        )
        self.log(f"answers: gunicorn ({self.config.workers} uvicorn workers) on {api.url}")
        warm = warm_every_worker(api)
        self.log(f"answers: the embedding model is loaded in {warm} of {api.workers} workers")
        warmed_up = self._warm_up(api, guru, supply.take(WARMUP_QUESTIONS))
        if "ttft" in self.config.sections:
            self._guarded("ttft", lambda: self._ttft(api, guru, supply))
        if "concurrency" in self.config.sections:
            self._guarded("concurrency", lambda: self._concurrency(api, guru, supply))
        if "cached" in self.config.sections:
            self._guarded("cached", lambda: self._cached(api, guru, warmed_up))
        if "api" in self.config.sections:
            self._guarded("api", lambda: self._api(api, guru, warmed_up, supply))
        if "widget" in self.config.sections:
            self._guarded("widget", lambda: self._widget(api, guru, supply))
        if "ui" in self.config.sections:
            self._guarded("ui", lambda: self._ui(api, guru, supply))
        if "slack" in self.config.sections:
            self._guarded("slack", lambda: self._slack(api, guru, supply))
        if "overload" in self.config.sections:
            self._guarded("overload", lambda: self._overload(api, guru, warmed_up))
        if "scaleout" in self.config.sections:
            self._guarded("scaleout", lambda: self._scaleout(api, guru, warmed_up))

    def _overload(self, api: ApiServer, guru: Guru, warm: list[AskOutcome]) -> None:
        self.results["overload"] = overload_section(
            api=api,
            guru=guru,
            questions=_answered(warm),
            contexts=self._contexts,
            plan=self.config.overload,
            timeout=self.config.ask_timeout_s,
            processes=self.processes,
            logs=self.paths.logs,
            log=self.log,
            profile_svg=self.config.profile_svg("overload"),
        )

    def _scaleout(self, api: ApiServer, guru: Guru, warm: list[AskOutcome]) -> None:
        self.results["scaleout"] = scaleout_section(
            api=api,
            guru=guru,
            questions=_answered(warm),
            contexts=self._contexts,
            plan=self.config.scaleout,
            timeout=self.config.ask_timeout_s,
            processes=self.processes,
            paths=self.paths,
            log=self.log,
        )

    def _slack(self, api: ApiServer, guru: Guru, supply: QuestionSupply) -> None:
        self.results["slack"] = run_slack(
            api=api,
            guru=guru,
            questions=supply.take(1 + SLACK_ONE_AT_A_TIME + self.config.slack_events),
            processes=self.processes,
            logs=self.paths.logs,
            log=self.log,
        )

    def _index_unmeasured(self) -> Guru:
        self.log("answers: no indexed docs guru in the bench state; indexing it (not measured)")
        site_url, site = self._serve_site()
        # Chunks another database's guru left in the shared Milvus state would be searched too.
        get_vector_store().drop_collection(collection_name_for(GURU_SLUG))
        try:
            guru = create_guru()
            index_first_time(guru, site_url=site_url, scope=self.config.scope)
        finally:
            self.processes.stop(site)
        return guru

    def _questions(self, guru: Guru) -> list[str]:
        # Answers from an earlier run would be served from the cache instead of the LLM.
        Question.objects.filter(guru=guru).delete()
        OutOfContextQuestion.objects.filter(guru=guru).delete()
        chunks = [
            chunk
            for source in guru.sources.all()
            for chunk in source_chunks(collection=guru.collection_name, source_id=source.pk)
        ]
        self._contexts = [chunk.text for chunk in chunks[:8]]
        threshold = PlatformSettings.objects.get_or_create(pk=1)[0].similar_question_threshold
        return question_pool(
            get_embedder(),
            (str((chunk.metadata or {}).get("heading_path", "")) for chunk in chunks),
            cache_threshold=threshold,
            needed=self.config.questions_needed(),
        )

    def _warm_up(self, api: ApiServer, guru: Guru, questions: list[str]) -> list[AskOutcome]:
        """Both workers load the embedding model and open their connections before timing."""
        self.log(f"answers: warming up with {len(questions)} answers")
        outcomes = asyncio.run(
            ask_all_at_once(
                api.stream_url(guru.slug),
                questions,
                mode="default",
                timeout=self.config.concurrency_timeout_s,
            )
        )
        problems = [o.error for o in outcomes if o.error]
        if len(problems) == len(outcomes):
            raise RuntimeError(f"every warm-up answer failed: {problems[:3]}")
        return outcomes

    def _ttft(self, api: ApiServer, guru: Guru, supply: QuestionSupply) -> None:
        count = self.config.ttft_questions
        rows, floor, _ = run_ttft(
            api=api,
            guru=guru,
            questions={"fast": supply.take(count), "default": supply.take(count)},
            timeout=self.config.ask_timeout_s,
            contexts=self._contexts,
            log=self.log,
        )
        self.results["ttft"] = rows
        self.notes["ttft_llm_floor"] = floor

    def _concurrency(self, api: ApiServer, guru: Guru, supply: QuestionSupply) -> None:
        self.results["concurrency"] = run_concurrency(
            api=api,
            slug=guru.slug,
            levels=self.config.concurrency_levels,
            modes=self.config.concurrency_modes,
            take=supply.take,
            timeout=self.config.concurrency_timeout_s,
            log=self.log,
        )

    def _api(
        self, api: ApiServer, guru: Guru, warm: list[AskOutcome], supply: QuestionSupply
    ) -> None:
        self.results["api"] = run_api(
            api=api,
            guru=guru,
            cached_question=_answered(warm)[0],
            stream_questions=supply.take(self.config.api_stream_questions),
            requests=self.config.cached_requests,
            concurrency=self.config.cached_concurrency,
            timeout=self.config.ask_timeout_s,
            log=self.log,
        )

    def _widget(self, api: ApiServer, guru: Guru, supply: QuestionSupply) -> None:
        self.results["widget"] = run_widget(
            api=api,
            guru=guru,
            questions=supply.take(self.config.widget_questions),
            timeout=self.config.ask_timeout_s,
            log=self.log,
        )

    def _ui(self, api: ApiServer, guru: Guru, supply: QuestionSupply) -> None:
        self.results["ui"] = run_ui(
            api=api,
            guru=guru,
            questions=supply.take(self.config.ui_questions),
            page_gets=self.config.ui_page_gets,
            timeout=self.config.ask_timeout_s,
            processes=self.processes,
            logs=self.paths.logs,
            log=self.log,
        )

    def _cached(self, api: ApiServer, guru: Guru, warm: list[AskOutcome]) -> None:
        answered = _answered(warm)
        self.log(
            f"cached: {self.config.cached_requests} JSON asks of an answered question, "
            f"{self.config.cached_concurrency} at a time"
        )
        with profiled_if(api.pid, self.config.profile_svg("cached")) as profile:
            measured = run_cached(
                url=api.json_url(guru.slug),
                server_pid=api.pid,
                question=answered[0],
                requests=self.config.cached_requests,
                concurrency=self.config.cached_concurrency,
            )
        if profile is not None:
            measured["profile"] = profile.summary()
        self.results["cached_answer_rps"] = measured.pop("cached_answer_rps")
        self.notes["cached"] = measured
        self.log(f"cached: {self.results['cached_answer_rps']} answers/s ({measured})")


def _answered(warm: list[AskOutcome]) -> list[str]:
    answered = [o.question for o in warm if o.answered]
    if not answered:
        raise RuntimeError("no warm-up question was answered: nothing to serve from cache")
    return answered

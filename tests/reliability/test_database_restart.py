"""PostgreSQL restarts while twenty answers stream and a website is being crawled: every stream
ends (a complete answer or an `error` event), new asks answer again within seconds without
restarting anything, and the crawl finishes with the chunks of a clean run."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

from tests.answers.conftest import PAGES, page_url
from tests.fakes.docs_site import DocsSite
from tests.fakes.openai_server import FakeOpenAIServer
from tests.gurus.helpers import guru_make
from tests.integration.worker import REDIS_BROKER, purge, wait_until
from tests.integration.worker import test_database_url as shared_database_url
from tests.reliability.platform import (
    HTTP_TIMEOUT,
    llm_env,
    read_events,
    running_platform,
    scalar,
)
from tests.reliability.services import DisposablePostgres, disposable
from tests.sources.ingestion_helpers import source_process_now

# Several processes start on a busy machine: allow more than the suite's default timeout.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(900)]

STREAMS = 20
OUTAGE_SECONDS = 3.0
RECOVERY_SECONDS = 20.0
WAIT_SECONDS = 300  # processes start in seconds on an idle machine, a minute on a busy one
# Three slow pages keep the crawl running while the streams start (under the fetch timeout).
SLOW_PAGE_SECONDS = 6.0
QUESTIONS = "SELECT count(*) FROM answers_question"
SLOW_PAGES = ("tutorial/index.html", "api.html", "faq.html")


@pytest.fixture
def llm() -> FakeOpenAIServer:
    with FakeOpenAIServer(token_ms=20) as server:
        yield server


def _clean_chunk_count(site: DocsSite) -> int:
    """The crawl's chunks when nothing goes wrong (in this process, on the test database)."""
    source = DataSource.objects.create(
        guru=guru_make(slug="pg-clean", name="Clean"),
        type="website",
        url=site.url_for("index.html"),
        crawl_mode="crawl",
    )
    assert source_process_now(source_id=source.pk, token="clean-run").status == "done"
    source.refresh_from_db()
    return source.chunk_count


class Streams:
    """Answers streamed side by side; `started` is set once every one has its `meta`."""

    def __init__(self, origin: str, count: int) -> None:
        self.origin, self.count = origin, count
        self.started = threading.Event()
        self._metas = 0
        self._lock = threading.Lock()

    def one(self, index: int) -> list[tuple[str, dict]]:
        question = f"How do I create a virtual environment for project number {index}?"
        url = f"{self.origin}/api/gurus/pg-drill/answer/stream/"
        seen: list[tuple[str, dict]] = []
        with httpx.stream("POST", url, json={"question": question}, timeout=HTTP_TIMEOUT) as r:
            assert r.status_code == 200, r.read()
            for name, data in read_events(r.iter_lines()):
                seen.append((name, data))
                if name == "meta":
                    with self._lock:
                        self._metas += 1
                        if self._metas == self.count:
                            self.started.set()
        return seen


def _asks_answer(api: httpx.Client, first: int, count: int) -> list[int]:
    statuses = []
    for index in range(first, first + count):
        question = f"How do I activate the virtual environment in shell number {index}?"
        response = api.post("/api/gurus/pg-drill/answer/", json={"question": question})
        statuses.append(response.status_code)
    return statuses


def test_a_database_restart_loses_no_answer_and_no_chunk(llm, site, tmp_path):
    purge(REDIS_BROKER)
    pg = DisposablePostgres()
    with disposable(pg):
        pg.load(shared_database_url())  # before this test writes anything there
        clean_chunks = _clean_chunk_count(site)
        for path in SLOW_PAGES:
            site.add_slow(f"/{path}", SLOW_PAGE_SECONDS)  # still crawling when the database goes
        env = llm_env(llm, DATABASE_URL=pg.url, CRAWLER_CONCURRENCY="1")
        log = str(tmp_path / "worker.log")
        with running_platform(REDIS_BROKER, log=log, guru="pg-drill", **env) as platform:
            for title, text in PAGES.items():
                added = platform.add_source(
                    type="text", url=page_url(title), title=title, content=f"# {title}\n\n{text}"
                )
                assert platform.finished(added["id"], timeout=WAIT_SECONDS)["status"] == "SUCCESS"
            crawl = platform.add_source(
                type="website", url=site.url_for("index.html"), crawl_mode="crawl"
            )
            wait_until(
                lambda: platform.source(crawl["id"])["progress"].get("pages_fetched", 0) >= 1,
                timeout=WAIT_SECONDS,
            )
            questions_before = scalar(pg.url, QUESTIONS)

            gate = llm.hold_streams(after_events=3)  # every answer is mid-stream
            streams = Streams(str(platform.api.base_url).rstrip("/"), STREAMS)
            with ThreadPoolExecutor(max_workers=STREAMS) as pool:
                futures = [pool.submit(streams.one, i) for i in range(STREAMS)]
                assert streams.started.wait(timeout=WAIT_SECONDS)
                assert platform.source(crawl["id"])["status"] == "PROCESSING"
                pg.kill()
                gate.set()
                outage_ends = time.monotonic() + OUTAGE_SECONDS
                down = platform.api.post("/api/gurus/pg-drill/answer/", json={"question": "Up?"})
                time.sleep(max(0.0, outage_ends - time.monotonic()))
                pg.start()
                ended = [future.result(timeout=WAIT_SECONDS) for future in futures]

            back = time.monotonic()
            wait_until(lambda: _asks_answer(platform.api, 0, 1) == [200], timeout=60)
            recovered_after = time.monotonic() - back
            assert _asks_answer(platform.api, 1, 12) == [200] * 12  # no dead pooled connection

            crawled = platform.finished(crawl["id"], timeout=WAIT_SECONDS)

        questions_after = scalar(pg.url, QUESTIONS)
        collection = scalar(
            pg.url, "SELECT collection_name FROM gurus_guru WHERE slug = 'pg-drill'"
        )

    terminal = [events[-1] for events in ended]
    kinds = [name for name, _ in terminal]
    assert set(kinds) <= {"done", "error"}, kinds
    for name, data in terminal:
        if name == "error":  # the outage, in words: not an internal error
            assert data["code"] == "provider_unavailable" and data["msg"], data
    completed = kinds.count("done")
    # Every answer that said `done` was kept, and nothing else: 13 asks after the restart.
    assert questions_after == questions_before + completed + 13
    assert recovered_after < RECOVERY_SECONDS
    # An ask while the database is down is told so in words, with when to try again.
    assert down.status_code == 503, down.text
    assert down.json()["code"] == "provider_unavailable" and down.headers["Retry-After"]
    assert crawled["status"] == "SUCCESS", crawled
    assert crawled["chunk_count"] == clean_chunks
    store = get_vector_store()
    assert store.count(str(collection), source_id=crawl["id"]) == clean_chunks

"""Which queue a source's processing goes to, so a long crawl never keeps a small source waiting.

A website crawl (whole site or sitemap) can take an hour; a PDF, a text, a YouTube transcript,
a GitHub repo or a single page takes seconds to minutes. Crawls go to the `ingest` queue, the
rest to the `light` queue with the summaries and beat's bookkeeping, and each queue has a worker
of its own (`config/workers.py`), so a small source of another guru starts at once while a
crawl runs. Two queues rather than a crawl that stops every N pages to re-enqueue itself: a
crawl keeps one claim, one fetch state and one run from start to end, and nothing has to
resume it; the price is one more worker process.

A crawl's discovery run (API v1 `crawls`: list a site's pages, up to half an hour of fetching)
is long work too, so it goes to `ingest` as well: on `light` it would hold the only slot there,
and every small source and summary would wait behind it.

A Celery router decides, not each place that sends the task, so every send (a new source, a
re-index, beat's sweeps and resyncs, a retry, a wait behind the guru's other source) lands on the
same queue. An explicit `queue=` in a send still wins.
"""

from typing import Any

from openguru.core.queues import CRAWL_QUEUE, LIGHT_QUEUE

SOURCE_TASK = "openguru.sources.tasks.source_process_task"
CRAWL_DISCOVERY_TASK = "openguru.sources.tasks.crawl_run_task"
SUMMARY_TASK = "openguru.sources.tasks.source_summarize_task"


def source_queue(*, source_id: int) -> str:
    from openguru.sources.models import DataSource

    crawl = DataSource.objects.filter(
        pk=source_id,
        type=DataSource.Type.WEBSITE,
        crawl_mode__in=(DataSource.CrawlMode.CRAWL, DataSource.CrawlMode.SITEMAP),
    ).exists()
    return CRAWL_QUEUE if crawl else LIGHT_QUEUE


def route_source_task(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any], options: dict[str, Any], **_: Any
) -> dict[str, str] | None:
    """A Celery router (`task_routes`): the processing task by its source, a crawl's discovery
    to the crawl queue; others untouched."""
    if name == CRAWL_DISCOVERY_TASK:
        return {"queue": CRAWL_QUEUE}
    if name != SOURCE_TASK:
        return None
    source_id = args[0] if args else kwargs.get("source_id")
    if not isinstance(source_id, int):
        return {"queue": CRAWL_QUEUE}  # unknown: the queue that expects long work
    return {"queue": source_queue(source_id=source_id)}

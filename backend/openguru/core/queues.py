"""The Celery queues beside the default one: long work (crawls, crawl discovery) on `ingest`,
short work (small sources, summaries, checks, beat's bookkeeping) on `light`. Which task goes
where is decided in `sources/routing.py`; `/metrics` reports the length of each."""

CRAWL_QUEUE = "ingest"
LIGHT_QUEUE = "light"

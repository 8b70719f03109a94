"""Prometheus series, and the few functions that record them.

With PROMETHEUS_MULTIPROC_DIR set (read by prometheus_client itself when it is imported), every
process (each ASGI/WSGI worker, each Celery worker) writes its samples to files in that
directory and /metrics sums them, so a scrape of any web process sees the whole host. Unset:
each process keeps its own, which is right for one process (tests, `make run`'s API server).
"""

from prometheus_client import Counter, Histogram

# Answers and LLM calls: from fractions of a second to a long, slow generation.
_SECONDS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0, 13.0, 21.0, 34.0, 60.0)

HTTP_REQUESTS = Counter(
    "openguru_http_requests",
    "HTTP requests answered, by route pattern, method and status code.",
    ["route", "method", "status"],
)
HTTP_LATENCY = Histogram(
    "openguru_http_request_duration_seconds",
    "Time until the response is ready (for a stream: its headers; the body may go on).",
    ["route", "method"],
    buckets=_SECONDS,
)
ANSWER_TTFT = Histogram(
    "openguru_answer_ttft_seconds",
    "From the ask reaching Django to the answer's first token (new answers, not replays).",
    ["channel"],
    buckets=_SECONDS,
)
ANSWER_REFUSALS = Counter(
    "openguru_answer_refusals",
    "Questions refused by the trust gate, by reason (low_relevance, not_valid).",
    ["reason"],
)
LLM_LATENCY = Histogram(
    "openguru_llm_request_duration_seconds",
    "LLM calls, to the last streamed chunk, by model, operation and outcome (ok, error).",
    ["model", "operation", "outcome"],
    buckets=_SECONDS,
)
LLM_TOKENS = Counter(
    "openguru_llm_tokens",
    "Tokens the LLM reported using, by model and kind (prompt, completion).",
    ["model", "kind"],
)
INGESTION_PAGES = Counter(
    "openguru_ingestion_pages",
    "Pages (documents, files, transcripts) fetched by finished indexing runs, by source type.",
    ["source_type"],
)
INGESTION_CHUNKS = Counter(
    "openguru_ingestion_chunks",
    "Chunks written to the vector store by finished indexing runs, by source type.",
    ["source_type"],
)
INGESTION_FAILURES = Counter(
    "openguru_ingestion_failures",
    "Indexing runs that ended FAILED, by source type.",
    ["source_type"],
)

CACHE_ERRORS = Counter(
    "openguru_cache_errors",
    "Calls to the Django cache that failed (its server unreachable), by use; the requests went "
    "on without it (rate limits not applied).",
    ["use"],
)


def ingestion_record(*, source_type: str, pages: int, chunks: int) -> None:
    INGESTION_PAGES.labels(source_type=source_type).inc(pages)
    INGESTION_CHUNKS.labels(source_type=source_type).inc(chunks)


def ingestion_failure_record(*, source_type: str) -> None:
    INGESTION_FAILURES.labels(source_type=source_type).inc()


def answer_record(*, channel: str, trace: dict) -> None:
    """A new answer: its time to first token, from the timings its trace keeps (an extractive
    answer is written at once after the references: its first token is the `meta` event)."""
    timings = trace.get("timings_ms") or {}
    first_token_ms = timings.get("first_token_ms", timings.get("meta_ms"))
    if first_token_ms is not None:
        ANSWER_TTFT.labels(channel=channel).observe(float(first_token_ms) / 1000)


def refusal_record(*, reason: str) -> None:
    ANSWER_REFUSALS.labels(reason=reason or "unknown").inc()


def llm_call_record(
    *, model: str, operation: str, outcome: str, seconds: float, prompt: int, completion: int
) -> None:
    LLM_LATENCY.labels(model=model, operation=operation, outcome=outcome).observe(seconds)
    if prompt:
        LLM_TOKENS.labels(model=model, kind="prompt").inc(prompt)
    if completion:
        LLM_TOKENS.labels(model=model, kind="completion").inc(completion)


def cache_error_record(*, use: str) -> None:
    CACHE_ERRORS.labels(use=use).inc()

"""Recursive summaries (Gurubase's three stages): groups of chunks -> a source summary, source
summaries -> the guru summary. Only with an LLM; without one, summaries are simply not made (the
task that calls these skips them)."""

import asyncio
import logging
from collections.abc import Sequence

from openguru.gurus.models import Guru
from openguru.providers.llm.base import LLM, ChatMessage
from openguru.providers.vectorstore.base import VectorStore
from openguru.sources.models import DataSource

logger = logging.getLogger(__name__)

GROUP_CHARS = 6000  # what one summarization call reads
MAX_SOURCE_CHUNKS = 300  # bound the cost for huge sources: their first chunks in reading order
SUMMARY_WORDS = 120

PROMPT = """Summarize the following {what} in at most {words} words, as plain prose.
Say what it covers and what a reader can learn from it; keep names of APIs, commands and
concepts. Do not invent anything.

{text}"""


def _groups(texts: Sequence[str], limit: int) -> list[str]:
    groups: list[str] = []
    current = ""
    for text in texts:
        if current and len(current) + len(text) > limit:
            groups.append(current)
            current = ""
        current = f"{current}\n\n{text[:limit]}".strip()
    if current:
        groups.append(current)
    return groups


async def _summarize_once(llm: LLM, text: str, what: str) -> str:
    prompt = PROMPT.format(what=what, words=SUMMARY_WORDS, text=text)
    completion = await llm.complete([ChatMessage("user", prompt)], max_tokens=400)
    return completion.text.strip()


async def summarize_recursively(llm: LLM, texts: Sequence[str], *, what: str) -> str:
    """Summarize groups, then summaries of summaries, until one remains."""
    level = list(texts)
    while True:
        groups = _groups(level, GROUP_CHARS)
        if not groups:
            return ""
        level = list(await asyncio.gather(*(_summarize_once(llm, g, what) for g in groups)))
        if len(level) == 1:
            return level[0]
        what = "partial summaries of one document"


def _reading_order(source: DataSource, store: VectorStore) -> list[str]:
    hits = store.source_chunks(
        source.guru.collection_name, source_id=source.pk, limit=MAX_SOURCE_CHUNKS
    )
    hits.sort(key=lambda h: (str(h.metadata.get("link", "")), h.metadata.get("start_line", 0)))
    return [hit.text for hit in hits]


def source_summarize(*, source_id: int, llm: LLM, store: VectorStore) -> str | None:
    """Summarize one source; None when it is gone."""
    source = DataSource.objects.select_related("guru").filter(pk=source_id).first()
    if source is None:
        return None
    summary = asyncio.run(
        summarize_recursively(llm, _reading_order(source, store), what=f"source '{source.title}'")
    )
    DataSource.objects.filter(pk=source_id).update(summary=summary)
    return summary


def guru_summarize(*, guru_id: int, llm: LLM) -> str | None:
    guru = Guru.objects.filter(pk=guru_id).first()
    if guru is None:
        return None
    summaries = [s for s in guru.sources.values_list("summary", flat=True) if s]
    summary = asyncio.run(
        summarize_recursively(llm, summaries, what=f"sources of the {guru.name} knowledge base")
    )
    Guru.objects.filter(pk=guru_id).update(summary=summary)
    return summary

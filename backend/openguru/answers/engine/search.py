"""Passages for a query from the same hybrid retrieval answers use, with no LLM call: for agents
(MCP, the v1 search endpoint) and people who only want the links."""

from dataclasses import dataclass

from django.conf import settings

from openguru.answers.engine.ask import check_index_model
from openguru.answers.engine.context import build_contexts
from openguru.answers.engine.providers import Providers
from openguru.answers.engine.retrieval import answer_mode, retrieve
from openguru.gurus.models import Guru

MAX_SEARCH_RESULTS = 50


@dataclass(frozen=True)
class Passage:
    title: str
    link: str
    text: str
    score: float  # relevance in [0, 1]: the reranker's, else the cosine similarity


def passages_search(
    *, guru: Guru, query: str, providers: Providers, limit: int = 10
) -> list[Passage]:
    """Blocking. The best `limit` passages, chunks of one section merged as answers read them."""
    check_index_model(guru, providers.embedder)
    result = retrieve(
        collection=guru.collection_name,
        queries=[query],
        mode=answer_mode(providers.reranker),
        limit=max(limit, settings.RETRIEVAL_CANDIDATES),
        embedder=providers.embedder,
        store=providers.store,
        reranker=providers.reranker,
    )
    contexts = build_contexts(result.candidates, max_text=limit, max_code=limit)[:limit]
    return [
        Passage(title=c.title, link=c.link, text=c.body_text, score=round(c.relevance, 4))
        for c in contexts
    ]

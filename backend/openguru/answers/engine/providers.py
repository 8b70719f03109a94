"""The providers an answer runs on, chosen at the channel's edge: every channel (the Q&A site's
answer views, API v1, MCP, the widget, the bots, the eval harness and the bench) calls
`providers_for(guru)` and hands the result to `answers.engine.ask.ask`, so the engine itself builds
no provider and a test can run it on a fake LLM, a fake embedder and the in-memory vector store.
Its tunables it does read itself: Django settings (`RETRIEVAL_*`, `ANSWER_MODE`, …, which tests
and `make eval` change with `override_settings`) and the platform settings row."""

from collections.abc import Callable
from dataclasses import dataclass

from openguru.gurus.models import Guru
from openguru.providers.embeddings.base import Embedder
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.llm.base import LLM
from openguru.providers.llm.factory import get_llm
from openguru.providers.rerank.base import Reranker
from openguru.providers.rerank.factory import get_reranker
from openguru.providers.vectorstore.base import VectorStore
from openguru.providers.vectorstore.factory import get_vector_store


@dataclass(frozen=True)
class Providers:
    embedder: Embedder
    store: VectorStore
    llm: LLM | None = None  # None: extractive answers, no understanding or relevance calls
    reranker: Reranker | None = None  # None: relevance from one LLM call, else from cosine


ProvidersFor = Callable[[Guru], Providers]  # what an edge hands a service that picks the guru


def providers_for(guru: Guru) -> Providers:
    """The configured providers (every guru shares them today; the guru is the seam where a
    per-guru model would be chosen). Cheap: each factory builds its provider once."""
    return Providers(
        embedder=get_embedder(),
        store=get_vector_store(),
        llm=get_llm(),
        reranker=get_reranker(),
    )

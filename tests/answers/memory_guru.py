"""A guru indexed into the in-memory vector store with the deterministic fake embedder, and the
providers to answer it with: the engine's stages run on it with no Milvus, no loopback server
and no HTTP, on SQLite or PostgreSQL alike."""

import asyncio
import uuid
from collections.abc import Sequence

from django.utils import timezone
from openguru.answers.engine.ask import AskRequest, ask
from openguru.answers.engine.events import AnswerEvent
from openguru.answers.engine.providers import Providers
from openguru.gurus.models import Guru
from openguru.providers.embeddings.fake import FakeEmbedder
from openguru.providers.llm.fake import FakeLLM
from openguru.providers.vectorstore.memory import MemoryVectorStore
from openguru.sources.indexing import IndexTarget, index_source
from openguru.sources.loaders.base import LoadRequest
from openguru.sources.loaders.registry import loader_for
from openguru.sources.models import DataSource

from tests.answers.conftest import PAGES, page_url


def memory_providers(*, llm: FakeLLM | None = None) -> Providers:
    return Providers(embedder=FakeEmbedder(), store=MemoryVectorStore(), llm=llm)


def indexed_guru(providers: Providers, *, slug: str = "python") -> Guru:
    """The Python guru of `tests/answers/conftest.py`, its pages indexed by `index_source`
    itself (so the embedding cache holds their vectors, as after a real run)."""
    embedder = providers.embedder
    guru = Guru.objects.create(
        slug=slug,
        name=slug.title(),
        domain_knowledge="The Python language",
        embedding_model=embedder.model_name,
        embedding_dimension=embedder.dimension,
        collection_name=f"memory_{slug}_{uuid.uuid4().hex[:8]}",
    )
    providers.store.create_collection(guru.collection_name, dimension=embedder.dimension)
    for title, text in PAGES.items():
        content = f"# {title}\n\n{text}\n"
        source = DataSource.objects.create(
            guru=guru, type="text", url=page_url(title), title=title, content=content
        )
        index_source(
            request=LoadRequest(source_id=source.pk, url=source.url, content=content, title=title),
            target=IndexTarget(guru.collection_name, embedder.dimension, source.pk),
            loader=loader_for("text"),
            embedder=embedder,
            store=providers.store,
            on_progress=lambda _progress: None,
        )
        DataSource.objects.filter(pk=source.pk).update(
            status=DataSource.Status.SUCCESS, last_indexed_at=timezone.now()
        )
    return guru


def answer_events(request: AskRequest, providers: Providers) -> list[AnswerEvent]:
    """Every event of one answer, from a fresh event loop (as a plain thread would run it)."""

    async def collect() -> list[AnswerEvent]:
        return [event async for event in ask(request, providers)]

    return asyncio.run(collect())


def text_of(events: Sequence[AnswerEvent]) -> str:
    return "".join(e.data["text"] for e in events if e.name == "delta")

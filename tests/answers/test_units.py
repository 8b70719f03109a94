"""Relevance on small units: how a chunk is cut into sentences, and a question one sentence of a
mixed-topic text answers scoring on that sentence rather than on the whole chunk."""

import uuid

import pytest
from django.test.utils import override_settings
from django.utils import timezone
from openguru.answers.engine.gate import gate_score
from openguru.answers.engine.retrieval import retrieve
from openguru.answers.engine.units import MAX_UNITS, text_units
from openguru.gurus.models import Guru
from openguru.providers.embeddings.fake import FakeEmbedder
from openguru.providers.vectorstore.memory import MemoryVectorStore
from openguru.sources.indexing import IndexTarget, index_source
from openguru.sources.loaders.base import LoadRequest
from openguru.sources.loaders.registry import loader_for
from openguru.sources.models import DataSource

pytestmark = pytest.mark.fast

OPS_NOTE = (
    "# Operations\n\n"
    "Install it with pip into a virtualenv; it needs Python 3.10 or newer and the PostgreSQL "
    "client headers. The workers key sets how many gunicorn workers run on each host, and the "
    "timeout key how long a request may take. Rendered pages are cached on disk under "
    "/var/cache/flaskr. Backups run nightly with pg_dump and are kept for fourteen days in the "
    "bucket. Reload the service after editing the configuration file.\n"
)


def test_a_pdfs_wrapped_and_hyphenated_lines_make_one_sentence():
    text = (
        "Once a month, turn the filter anti-\nclockwise, lift it out and\nrinse it. E1: no water."
    )
    assert text_units(text) == [
        "Once a month, turn the filter anticlockwise, lift it out and rinse it.",
        "E1: no water.",
    ]


def test_faq_lines_and_list_items_are_units_of_their_own():
    faq = "Q: How are seats counted?\nA: Every member who logged in counts. Guests are free."
    assert text_units(faq) == [
        "Q: How are seats counted?",
        "A: Every member who logged in counts.",
        "Guests are free.",
    ]
    listed = "Steps to follow:\n- open the settings page\n- pick a new plan there"
    assert text_units(listed) == ["Steps to follow:", "- open the settings page",
                                  "- pick a new plan there"]  # fmt: skip


def test_fragments_too_short_to_hold_a_topic_are_left_out_and_long_chunks_bounded():
    assert text_units("Installation.\n\nRun the installer from the disk.") == [
        "Run the installer from the disk."
    ]
    many = " ".join(f"Sentence number {n} is here." for n in range(40))
    assert len(text_units(many)) == MAX_UNITS


def _ops_guru(store: MemoryVectorStore, embedder: FakeEmbedder) -> Guru:
    guru = Guru.objects.create(
        slug="ops",
        name="Ops",
        embedding_model=embedder.model_name,
        embedding_dimension=embedder.dimension,
        collection_name=f"memory_ops_{uuid.uuid4().hex[:8]}",
    )
    store.create_collection(guru.collection_name, dimension=embedder.dimension)
    source = DataSource.objects.create(guru=guru, type="text", url="text://ops", content=OPS_NOTE)
    stats, _ = index_source(
        request=LoadRequest(source_id=source.pk, url=source.url, content=OPS_NOTE),
        target=IndexTarget(guru.collection_name, embedder.dimension, source.pk),
        loader=loader_for("text"),
        embedder=embedder,
        store=store,
        on_progress=lambda _progress: None,
    )
    assert stats.chunks_total == 1  # one chunk holding every topic
    DataSource.objects.filter(pk=source.pk).update(
        status=DataSource.Status.SUCCESS, last_indexed_at=timezone.now()
    )
    return guru


@pytest.mark.django_db
def test_a_question_one_sentence_answers_scores_on_that_sentence():
    store, embedder = MemoryVectorStore(), FakeEmbedder()
    guru = _ops_guru(store, embedder)

    def best(question: str) -> float:
        found = retrieve(
            collection=guru.collection_name,
            queries=[question],
            mode="hybrid",
            limit=10,
            embedder=embedder,
            store=store,
        )
        return gate_score(found.candidates)

    question = "Where are rendered pages cached?"
    with override_settings(RETRIEVAL_UNIT_SCORING=False):
        whole = best(question)
    on_units = best(question)
    assert on_units > whole + 0.2  # the sentence shares its words; the chunk's other topics don't
    unrelated = best("Who painted the famous portrait in the museum?")
    assert unrelated < whole

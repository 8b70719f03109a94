"""The near-duplicate index: saved questions' vectors in a per-guru collection of the real vector
store (Milvus Lite), checked against the database and rebuilt from it when missing."""

import pytest
from openguru.answers.models import Question
from openguru.answers.question_index import question_collection, question_index_drop
from openguru.answers.selectors import question_find_similar
from openguru.gurus.services import guru_delete, guru_reembed
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store

from tests.answers.conftest import stream_calls
from tests.answers.test_answer_engine import IN_SCOPE, ask

pytestmark = pytest.mark.django_db(transaction=True)

REWORDED = "With venv, how do I create a virtual environment?"


def similar_to_reworded(guru):
    vector = get_embedder().embed_query(REWORDED)
    return question_find_similar(guru=guru, vector=vector, min_similarity=0.9)


def test_a_saved_answer_is_indexed_and_found(anon_client, python_guru, llm_server):
    body = ask(anon_client, IN_SCOPE, mode="fast")
    assert get_vector_store().count(question_collection(python_guru)) == 1
    found = similar_to_reworded(python_guru)
    assert found is not None and found.slug == body["slug"]


def test_answers_inside_a_binge_are_not_indexed(anon_client, python_guru, llm_server):
    root = ask(anon_client, IN_SCOPE, mode="fast")
    binge = anon_client.post(
        "/api/gurus/python/binges/", {"root_slug": root["slug"]}, format="json"
    ).json()
    question = "How do I activate the virtual environment afterwards?"
    ask(anon_client, question, binge_id=binge["binge_id"], mode="fast")
    assert Question.objects.filter(binge__isnull=False).exists()
    assert get_vector_store().count(question_collection(python_guru)) == 1


def test_a_missing_index_is_rebuilt_from_the_saved_vectors(anon_client, python_guru, llm_server):
    ask(anon_client, IN_SCOPE, mode="fast")
    question_index_drop(collection=python_guru.collection_name)  # e.g. a wiped vector store
    again = ask(anon_client, REWORDED, mode="fast")
    assert again.get("cached") is True
    assert len(stream_calls(llm_server)) == 1
    assert get_vector_store().count(question_collection(python_guru)) == 1


def test_a_hit_whose_question_is_gone_does_not_count(anon_client, python_guru, llm_server):
    ask(anon_client, IN_SCOPE, mode="fast")
    Question.objects.all().delete()  # the index still holds the vector
    assert get_vector_store().count(question_collection(python_guru)) == 1
    assert similar_to_reworded(python_guru) is None


def test_deleting_the_guru_drops_its_question_index(anon_client, python_guru, llm_server):
    ask(anon_client, IN_SCOPE, mode="fast")
    name = question_collection(python_guru)
    assert get_vector_store().has_collection(name)
    guru_delete(guru=python_guru)
    assert not get_vector_store().has_collection(name)


def test_reembedding_forgets_the_old_models_question_vectors(anon_client, python_guru, llm_server):
    ask(anon_client, IN_SCOPE, mode="fast")
    old = question_collection(python_guru)
    guru_reembed(guru=python_guru)
    assert not Question.objects.exclude(vector=None).exists()
    assert not get_vector_store().has_collection(old)
    python_guru.refresh_from_db()
    assert similar_to_reworded(python_guru) is None

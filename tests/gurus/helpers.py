"""Gurus made as the API's edge makes them: with the configured embedder and vector store."""

from typing import Any

from openguru.gurus.models import Guru
from openguru.gurus.services import guru_create
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store


def guru_make(**fields: Any) -> Guru:
    return guru_create(**fields, embedder=get_embedder(), store=get_vector_store())

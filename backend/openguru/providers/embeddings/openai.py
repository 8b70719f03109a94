"""Embeddings from the OpenAI embeddings API, or any server that speaks it (`base_url`)."""

import logging
from collections.abc import Sequence

import httpx2
import openai
from openai import Omit, OpenAI, omit

from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.embeddings.base import embed_in_batches
from openguru.providers.llm.openai_compatible import provider_error

logger = logging.getLogger(__name__)

KNOWN_DIMENSIONS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}
# The API refuses (rather than truncates) inputs past the window, so we cut long text first.
# The cut is generous in characters; chunkers keep real chunks far below it via count_tokens.
_MAX_INPUT_TOKENS = 8191
_MAX_INPUT_CHARS = _MAX_INPUT_TOKENS * 3


class OpenAIEmbedder:
    def __init__(
        self,
        *,
        api_key: str,
        base_url: str | None,
        model: str,
        dimension: int | None = None,
        batch_size: int = 128,
        timeout: float = 60.0,
        max_retries: int = 2,
    ) -> None:
        self._api_key = api_key
        self._base_url = base_url
        self._model = model
        self._configured_dimension = dimension
        self._dimension = dimension or KNOWN_DIMENSIONS.get(model)
        self._batch_size = max(1, batch_size)
        self._timeout = timeout
        self._max_retries = max_retries
        self._client: OpenAI | None = None

    def __repr__(self) -> str:  # never the key
        return f"OpenAIEmbedder(model={self._model!r}, base_url={self._base_url!r})"

    @property
    def model_name(self) -> str:
        return self._model

    @property
    def dimension(self) -> int:
        """Configured, else the model's documented size, else measured once (by a probe call,
        or by the first batch when that comes first)."""
        if self._dimension is None:
            self._learn_dimension(self._request(["dimension probe"]))
        assert self._dimension is not None
        return self._dimension

    @property
    def max_input_tokens(self) -> int:
        return _MAX_INPUT_TOKENS

    def count_tokens(self, text: str) -> int:
        """An estimate, on the high side: the exact tokenizer (tiktoken) downloads its tables at
        run time, which an offline install cannot. English averages ~4 characters a token and
        code ~3, so counting one per 3 keeps chunks inside the window."""
        return len(text) // 3 + 1

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return embed_in_batches(texts, batch_size=self._batch_size, embed_batch=self._embed_batch)

    def embed_query(self, text: str) -> list[float]:
        return self._embed_batch([text])[0]

    def _embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self._request(texts)
        if self._dimension is None:
            self._learn_dimension(vectors)
        wrong = next((len(v) for v in vectors if len(v) != self.dimension), None)
        if wrong is not None:
            # Vectors of another size would corrupt the collection; refuse them loudly.
            raise DomainError(
                ErrorCode.PROVIDER_ERROR,
                f"The embedding service returned {wrong}-dimensional vectors; "
                f"{self.dimension} were expected.",
            )
        return vectors

    def _learn_dimension(self, vectors: list[list[float]]) -> None:
        self._dimension = len(vectors[0])
        logger.info("%r returns %d-dimensional vectors.", self, self._dimension)

    def _request(self, texts: Sequence[str]) -> list[list[float]]:
        # The API refuses empty strings; a space embeds as "no content" all the same.
        inputs = [text[:_MAX_INPUT_CHARS] or " " for text in texts]
        try:
            response = self._openai().embeddings.create(
                model=self._model, input=inputs, dimensions=self._dimensions_param()
            )
        except (openai.OpenAIError, httpx2.HTTPError) as error:
            raise provider_error(error, service="embedding service") from error
        if len(response.data) != len(inputs):
            raise DomainError(
                ErrorCode.PROVIDER_ERROR,
                "The embedding service returned a wrong number of vectors.",
            )
        ordered = sorted(response.data, key=lambda item: item.index)
        return [list(item.embedding) for item in ordered]

    def _dimensions_param(self) -> int | Omit:
        """Only the text-embedding-3 models can shorten their vectors; others reject the field."""
        wanted = self._configured_dimension
        native = KNOWN_DIMENSIONS.get(self._model)
        if wanted and self._model.startswith("text-embedding-3") and wanted != native:
            return wanted
        return omit

    def _openai(self) -> OpenAI:
        if self._client is None:
            self._client = OpenAI(
                api_key=self._api_key or "not-needed",  # local servers take no key
                base_url=self._base_url,
                timeout=self._timeout,
                max_retries=self._max_retries,
            )
        return self._client

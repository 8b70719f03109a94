"""Question embeddings through ONNX Runtime.

A question is one short text, and for it PyTorch's eager mode is mostly per-operation overhead
(~12 ms of a ~15 ms forward pass at 16 tokens, measured on 2 cores); ONNX Runtime runs the same
graph as one native call in ~5 ms, and without holding the GIL, so an answer's event loop keeps
running meanwhile. Batches of passages stay on torch (no faster here, and bfloat16 is).

The graph is exported once from the local weights (torch.onnx, no network) into the data
directory, keyed by the weights' identity, and shared by every process.

`int8`: the graph's matrix weights quantized to 8 bits, one scale per output channel (ONNX
Runtime's dynamic quantization; activations are quantized on the fly). A question's forward pass
reads every weight once, so at MiniLM's size it is bound by memory traffic, not arithmetic: a
quarter of the bytes makes it ~2.3x faster. One scale per channel instead of one per matrix keeps
the vectors close to the float ones (cosine median 0.995 against 0.974 on the python-docs
questions); docs/evaluation.md has what that does to retrieval.
"""

import hashlib
import logging
import os
import tempfile
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

logger = logging.getLogger(__name__)

_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_OPSET = 17


def exported_path(model_dir: Path, cache_dir: Path) -> Path:
    """Where the graph for these weights lives: a new file when the weights change."""
    identity = hashlib.sha256(str(model_dir.resolve()).encode())
    for weights in sorted(model_dir.glob("*.safetensors")) + sorted(model_dir.glob("*.bin")):
        stat = weights.stat()
        identity.update(f"{weights.name}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return cache_dir / f"{model_dir.name}-{identity.hexdigest()[:16]}.onnx"


def quantized_path(graph: Path) -> Path:
    """Named for how it is made too: a different quantization must not reuse this file."""
    return graph.with_name(f"{graph.stem}-int8-per-channel.onnx")


def quantize_graph(graph: Path, target: Path) -> None:
    """`graph` with int8 matrix weights, written beside it."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with _temporary_beside(target) as temporary:
        quantize_dynamic(
            graph,
            temporary,
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul"],
        )


@contextmanager
def _temporary_beside(target: Path) -> Iterator[Path]:
    """A temporary path in `target`'s folder, renamed to `target` if the block succeeds: processes
    writing at once never read a partial file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".onnx.tmp")
    os.close(handle)
    try:
        yield Path(temporary)
        Path(temporary).chmod(0o644)  # mkstemp's 0600 would hide it from other service users
        Path(temporary).replace(target)
    finally:
        Path(temporary).unlink(missing_ok=True)


def export_transformer(model_dir: Path, target: Path) -> None:
    """Export the model's transformer (token states out; pooling is done in numpy), loaded
    afresh in float32."""
    import torch
    from sentence_transformers import SentenceTransformer

    class _Transformer(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
    module = _Transformer(model[0].auto_model).eval()
    sample = torch.tensor([[101, 2129, 2079, 1045, 102]], dtype=torch.long)
    axes = {0: "batch", 1: "sequence"}
    with _temporary_beside(target) as temporary, torch.no_grad(), warnings.catch_warnings():
        # The tracer warns about control flow that is constant for this model: nothing to act on.
        warnings.simplefilter("ignore")
        torch.onnx.export(
            module,
            (sample, torch.ones_like(sample), torch.zeros_like(sample)),
            str(temporary),
            input_names=list(_INPUTS),
            output_names=["last_hidden_state"],
            dynamic_axes=dict.fromkeys((*_INPUTS, "last_hidden_state"), axes),
            opset_version=_OPSET,
            do_constant_folding=True,
            dynamo=False,
        )


class OnnxQueryEncoder:
    """Mean-pooled, normalized embeddings of short texts, the same as the sentence-transformers
    pipeline of a BERT-style model (Transformer -> mean pooling -> normalize)."""

    def __init__(
        self, *, graph: Path, tokenizer_file: Path, max_tokens: int, int8: bool = False
    ) -> None:
        import onnxruntime

        self.int8 = int8  # the graph's weights are 8-bit (what reports call "onnx-int8")
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # one question is tiny: threads only hand off
        options.inter_op_num_threads = 1
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        self._session = onnxruntime.InferenceSession(
            str(graph), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._wanted = {i.name for i in self._session.get_inputs()}
        tokenizer = Tokenizer.from_file(str(tokenizer_file))
        # tokenizer.json may carry fixed padding/truncation of its own: match the model's window.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_tokens)
        self._tokenizer = tokenizer
        self._lock = threading.Lock()  # tokenizers' Rust objects are not shared across threads

    def encode(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            encodings = self._tokenizer.encode_batch(texts)
        width = max(len(e.ids) for e in encodings)
        feeds = {name: np.zeros((len(texts), width), dtype=np.int64) for name in _INPUTS}
        for row, encoding in enumerate(encodings):
            size = len(encoding.ids)
            feeds["input_ids"][row, :size] = encoding.ids
            feeds["attention_mask"][row, :size] = encoding.attention_mask
            feeds["token_type_ids"][row, :size] = encoding.type_ids
        (states,) = self._session.run(None, {k: v for k, v in feeds.items() if k in self._wanted})
        mask = feeds["attention_mask"][..., None].astype(np.float32)
        pooled = (states * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.where(norms == 0, 1.0, norms)


def load_query_encoder(
    *, model_dir: Path, cache_dir: Path, max_tokens: int, int8: bool = False
) -> OnnxQueryEncoder | None:
    """The encoder for this model, exporting it first if needed; None (and a warning) when the
    model can't be exported — questions then go through torch like passages."""
    tokenizer_file = model_dir / "tokenizer.json"
    if not tokenizer_file.is_file():
        logger.warning("no tokenizer.json in %s: question embeddings stay on torch", model_dir)
        return None
    graph = exported_path(model_dir, cache_dir)
    try:
        if not graph.is_file():
            logger.info("exporting %s to ONNX for question embeddings: %s", model_dir.name, graph)
            export_transformer(model_dir, graph)
        quantized = _quantized(graph) if int8 else None
        return OnnxQueryEncoder(
            graph=quantized or graph,
            tokenizer_file=tokenizer_file,
            max_tokens=max_tokens,
            int8=quantized is not None,
        )
    except Exception:  # an optimisation only: never stop embedding over it
        logger.warning("ONNX question encoder unavailable; using torch", exc_info=True)
        return None


def _quantized(graph: Path) -> Path | None:
    """The int8 graph, quantized from `graph` the first time; None (and a warning) when that
    fails: the float graph at hand is still faster than torch."""
    target = quantized_path(graph)
    try:
        if not target.is_file():
            logger.info("quantizing the question encoder to int8: %s", target)
            quantize_graph(graph, target)
    except Exception:
        logger.warning("int8 quantization failed; questions use the float graph", exc_info=True)
        return None
    return target

"""The local embedder's own knobs: parallel replicas and bfloat16 weights must not change what
callers get back (order, shape, meaning), only how fast it comes."""

from pathlib import Path

import numpy as np
import pytest
from openguru.core.errors import DomainError
from openguru.evaluation.concurrency import MemoizedQueryEmbedder
from openguru.providers.embeddings.base import passage_precision, question_encoder
from openguru.providers.embeddings.local import (
    SentenceTransformerEmbedder,
    cpu_has_native_bf16,
    resolve_precision,
)
from openguru.providers.embeddings.onnx_query import quantized_path

# Lengths vary a lot and not in order, so batching by length must put every vector back.
TEXTS = [
    f"Paragraph {n}: how to configure feature {n % 7} of the crawler. " * (1 + (n * 7) % 5)
    for n in range(70)
]


@pytest.fixture(scope="module")
def serial_float32() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(batch_size=16, precision="float32", workers=1)


def test_replicas_return_the_vectors_of_one_model_in_input_order(serial_float32) -> None:
    parallel = SentenceTransformerEmbedder(batch_size=16, precision="float32", workers=3)
    expected = np.asarray(serial_float32.embed_documents(TEXTS))
    got = np.asarray(parallel.embed_documents(TEXTS))
    assert got.shape == expected.shape == (70, 384)
    # Same model, same precision: identical up to float rounding, row for row.
    np.testing.assert_allclose(got, expected, atol=1e-5)


def test_bfloat16_vectors_point_the_same_way_as_float32(serial_float32) -> None:
    bf16 = SentenceTransformerEmbedder(batch_size=16, precision="bfloat16", workers=2)
    assert bf16.precision == "bfloat16"
    a = np.asarray(serial_float32.embed_documents(TEXTS[:20]))
    b = np.asarray(bf16.embed_documents(TEXTS[:20]))
    cosines = (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    assert cosines.min() > 0.999
    assert len(bf16.embed_query("one question")) == 384


def test_an_unknown_precision_is_a_configuration_error() -> None:
    with pytest.raises(DomainError) as caught:
        resolve_precision("int4")
    assert "EMBEDDING_LOCAL_PRECISION" in caught.value.msg


def test_auto_precision_follows_the_cpu_flags(tmp_path: Path) -> None:
    with_bf16 = tmp_path / "bf16"
    with_bf16.write_text("flags\t\t: fpu avx2 avx512f avx512_bf16 avx512_vnni\n")
    without = tmp_path / "plain"
    without.write_text("flags\t\t: fpu avx2 avx512f avx512_vnni\n")
    assert cpu_has_native_bf16(with_bf16)
    assert not cpu_has_native_bf16(without)
    assert not cpu_has_native_bf16(tmp_path / "missing")


def test_onnx_questions_match_torch_and_the_export_is_reused(serial_float32, tmp_path) -> None:
    first = SentenceTransformerEmbedder(query_backend="onnx", onnx_cache_dir=tmp_path)
    question = "How do I configure the crawler's allowed domains?"
    vector = np.asarray(first.embed_query(question))
    expected = np.asarray(serial_float32.embed_query(question))
    assert first.query_backend == "onnx"
    assert float(vector @ expected) > 0.99999
    (graph,) = tmp_path.glob("*.onnx")
    assert graph.stat().st_mode & 0o777 == 0o644  # readable by the other processes' users
    exported_at = graph.stat().st_mtime_ns
    second = SentenceTransformerEmbedder(query_backend="onnx", onnx_cache_dir=tmp_path)
    np.testing.assert_allclose(second.embed_query(question), vector, atol=1e-6)
    assert graph.stat().st_mtime_ns == exported_at  # loaded, not exported again


def test_int8_questions_point_the_same_way_and_the_quantized_graph_is_reused(
    serial_float32, tmp_path
) -> None:
    questions = [
        "How do I configure the crawler's allowed domains?",
        "Why are floating-point calculations so inaccurate?",
        "How do I delete a file?",
        "What is a virtual environment?",
    ]
    int8 = SentenceTransformerEmbedder(query_backend="onnx-int8", onnx_cache_dir=tmp_path)
    got = np.asarray([int8.embed_query(q) for q in questions])
    assert int8.query_backend == "onnx-int8"
    # Reports name it, also through the eval's memoizing wrapper.
    assert question_encoder(MemoizedQueryEmbedder(int8)) == "onnx-int8"
    assert passage_precision(MemoizedQueryEmbedder(int8)) == int8.precision
    expected = np.asarray([serial_float32.embed_query(q) for q in questions])
    cosines = (got * expected).sum(axis=1)
    # Close to the float vectors, but not the same: the quantization did happen.
    assert cosines.min() > 0.98
    assert cosines.max() < 0.99999
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    (quantized,) = tmp_path.glob("*-int8-per-channel.onnx")
    assert len(list(tmp_path.glob("*.onnx"))) == 2  # beside the float graph it came from
    assert quantized.stat().st_mode & 0o777 == 0o644
    quantized_at = quantized.stat().st_mtime_ns
    again = SentenceTransformerEmbedder(query_backend="onnx-int8", onnx_cache_dir=tmp_path)
    np.testing.assert_allclose(again.embed_query(questions[0]), got[0], atol=1e-6)
    assert quantized.stat().st_mtime_ns == quantized_at  # loaded, not quantized again


def test_int8_questions_fall_back_to_the_float_graph_when_quantizing_fails(
    serial_float32, tmp_path
) -> None:
    float_graph = SentenceTransformerEmbedder(query_backend="onnx", onnx_cache_dir=tmp_path)
    question = "How do I delete a file?"
    expected = float_graph.embed_query(question)
    (graph,) = tmp_path.glob("*.onnx")
    quantized_path(graph).mkdir()  # a folder where the int8 graph should be written
    embedder = SentenceTransformerEmbedder(query_backend="onnx-int8", onnx_cache_dir=tmp_path)
    np.testing.assert_allclose(embedder.embed_query(question), expected, atol=1e-6)
    assert embedder.query_backend == "onnx"  # what questions really went through


def test_questions_fall_back_to_torch_when_the_export_cannot_be_written(
    serial_float32, tmp_path
) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the model cache should be")
    embedder = SentenceTransformerEmbedder(
        precision="float32", query_backend="onnx", onnx_cache_dir=blocked
    )
    question = "What does the trust gate do?"
    assert embedder.query_backend == "torch"
    np.testing.assert_allclose(
        embedder.embed_query(question), serial_float32.embed_query(question), atol=1e-5
    )


def test_an_unknown_query_backend_is_a_configuration_error() -> None:
    with pytest.raises(DomainError) as caught:
        SentenceTransformerEmbedder(query_backend="tensorrt")
    assert "EMBEDDING_LOCAL_QUERY_BACKEND" in caught.value.msg

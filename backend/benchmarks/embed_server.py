"""An embedding service on loopback for the capacity section: the bundled all-MiniLM-L6-v2,
loaded by the local embedder's own code (no download), in a process of its own. It speaks the
OpenAI embeddings wire (`POST /v1/embeddings`, floats or base64) and TEI's (`POST /embed`,
`GET /info`), so the ingestion side runs the product's `openai` and `tei` embedders unchanged
against the same model it would otherwise load in-process. A Python stand-in for a TEI or
OpenAI-compatible deployment: what it measures is what leaves the worker, not TEI's own speed.

    python -m bench.embed_server --port 8089

The port opens only once the model is loaded and has embedded a first batch: open = ready.
"""

import argparse
import base64
import json
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
from openguru.providers.embeddings.local import MAX_AUTO_WORKERS, SentenceTransformerEmbedder

MODEL = "all-MiniLM-L6-v2"
MAX_BATCH = 512  # inputs per request; the clients send 32 (TEI) or 128 (OpenAI)
REPLICA_BATCH = 32  # texts one replica encodes at a time, as the worker's local embedder does


class SpreadEncoder:
    """Encodes each request on every replica at once. TEI spreads a request over its cores; the
    local embedder would give a request of 32 texts (what the product's TEI client sends) to
    one replica and leave the others idle. The texts are dealt longest first, round-robin, so
    each share holds texts of similar length (little padding) and the shares weigh the same."""

    def __init__(self, embedder: SentenceTransformerEmbedder) -> None:
        self.embedder = embedder
        self._pool = ThreadPoolExecutor(embedder.workers, thread_name_prefix="spread")

    def embed(self, texts: list[str]) -> list[list[float]]:
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True)
        share = max(1, min(REPLICA_BATCH, -(-len(texts) // self.embedder.workers)))
        count = -(-len(texts) // share)
        deals = [order[k::count] for k in range(count)]
        parts = [[texts[i] for i in deal] for deal in deals]
        encoded_parts = list(self._pool.map(self.embedder.embed_documents, parts))
        vectors: list[list[float]] = [[] for _ in texts]
        for deal, encoded in zip(deals, encoded_parts, strict=True):
            for index, vector in zip(deal, encoded, strict=True):
                vectors[index] = vector
        return vectors


class EmbeddingHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the clients reuse their connection
    encoder: SpreadEncoder  # set on the bound subclass by `build_server`

    def do_GET(self) -> None:
        if self.path == "/health":
            self._send(200, {"status": "ok"})
        elif self.path == "/info":
            self._send(200, self._info())
        elif self.path == "/v1/models":
            self._send(200, {"object": "list", "data": [{"id": MODEL, "object": "model"}]})
        else:
            self._send(404, {"error": f"no route {self.path}"})

    def do_POST(self) -> None:
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        except ValueError:
            self._send(400, {"error": "invalid JSON"})
            return
        if self.path == "/v1/embeddings":
            texts = _inputs(body.get("input"))
            if texts is None:
                self._send(400, {"error": {"message": "'input' must be text or a list of texts"}})
                return
            self._send(
                200, self._openai(texts, base64_wanted=body.get("encoding_format") == "base64")
            )
        elif self.path == "/embed":
            texts = _inputs(body.get("inputs"))
            if texts is None:
                self._send(422, {"error": "'inputs' must be text or a list of texts"})
                return
            self._send(200, self.encoder.embed(texts))
        else:
            self._send(404, {"error": f"no route {self.path}"})

    def _openai(self, texts: list[str], *, base64_wanted: bool) -> dict[str, Any]:
        vectors = np.asarray(self.encoder.embed(texts), dtype="<f4")
        data = [
            {
                "object": "embedding",
                "index": i,
                "embedding": base64.b64encode(row.tobytes()).decode()
                if base64_wanted
                else row.tolist(),
            }
            for i, row in enumerate(vectors)
        ]
        return {
            "object": "list",
            "data": data,
            "model": MODEL,
            "usage": {"prompt_tokens": 0, "total_tokens": 0},
        }

    def _info(self) -> dict[str, Any]:
        return {
            "model_id": MODEL,
            "max_input_length": self.encoder.embedder.max_input_tokens,
            "max_client_batch_size": MAX_BATCH,
        }

    def _send(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # one line per batch would only fill the log


def _inputs(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    fits = isinstance(value, list) and 0 < len(value) <= MAX_BATCH
    if fits and all(isinstance(text, str) for text in value):
        return list(value)
    return None


def build_server(
    embedder: SentenceTransformerEmbedder, *, port: int, host: str = "127.0.0.1"
) -> ThreadingHTTPServer:
    encoder = SpreadEncoder(embedder)
    handler = type("BoundEmbeddingHandler", (EmbeddingHandler,), {"encoder": encoder})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve(port: int) -> None:
    # The same defaults the worker's local embedder runs with: replicas per core, bfloat16 where
    # the CPU has it. Questions are not served here, so the ONNX query encoder stays off.
    embedder = SentenceTransformerEmbedder(
        model_name=MODEL, batch_size=REPLICA_BATCH, query_backend="torch"
    )
    # One batch per replica: every replica is loaded before the port opens.
    embedder.embed_documents(["warm up"] * REPLICA_BATCH * MAX_AUTO_WORKERS)
    server = build_server(embedder, port=port)
    try:
        server.serve_forever()
    finally:
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    serve(parser.parse_args().port)


if __name__ == "__main__":
    main()

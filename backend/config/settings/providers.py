"""External providers: LLM, embeddings, reranker, vector store. Read by each provider factory."""

from config.env import DATA_DIR, env

# --- LLM
# "auto" picks OpenAI-compatible when OPENAI_API_KEY or OPENAI_BASE_URL is set, Gemini when
# GEMINI_API_KEY is set, and otherwise no LLM (extractive answers).
LLM_PROVIDER = env.str("LLM_PROVIDER", default="auto")  # auto | openai | gemini | fake | none
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL", default="")
LLM_MODEL = env.str("LLM_MODEL", default="")
LLM_FALLBACK_MODEL = env.str("LLM_FALLBACK_MODEL", default="")
GEMINI_API_KEY = env.str("GEMINI_API_KEY", default="")
GEMINI_BASE_URL = env.str("GEMINI_BASE_URL", default="")
LLM_TIMEOUT_SECONDS = env.float("LLM_TIMEOUT_SECONDS", default=60.0)
LLM_MAX_RETRIES = env.int("LLM_MAX_RETRIES", default=1)

# --- Embeddings
EMBEDDING_PROVIDER = env.str("EMBEDDING_PROVIDER", default="local")  # local | openai | tei | fake
EMBEDDING_MODEL = env.str("EMBEDDING_MODEL", default="all-MiniLM-L6-v2")
EMBED_API_URL = env.str("EMBED_API_URL", default="")
EMBED_API_KEY = env.str("EMBED_API_KEY", default="")
EMBEDDING_DIMENSION = env.int("EMBEDDING_DIMENSION", default=0)  # 0: ask the provider
EMBEDDING_BATCH_SIZE = env.int("EMBEDDING_BATCH_SIZE", default=32)
# Local embedder only: bfloat16 where the CPU has it natively ("auto"), and replicas of the
# model encoding side by side, one torch thread each (0: one per core, at most 4).
EMBEDDING_LOCAL_PRECISION = env.str("EMBEDDING_LOCAL_PRECISION", default="auto")
EMBEDDING_LOCAL_WORKERS = env.int("EMBEDDING_LOCAL_WORKERS", default=0)
# Questions through ONNX Runtime (exported once from the local weights into DATA_DIR/models):
# ~2.5x faster than torch for one short text. "onnx-int8": the same graph with 8-bit weights,
# ~2.3x faster again, at a small cost in retrieval quality (docs/evaluation.md). "torch" keeps
# them on the passage path.
EMBEDDING_LOCAL_QUERY_BACKEND = env.str("EMBEDDING_LOCAL_QUERY_BACKEND", default="onnx")

# --- Reranker (optional)
RERANK_API_URL = env.str("RERANK_API_URL", default="")
RERANK_API_KEY = env.str("RERANK_API_KEY", default="")

# --- Vector store
# milvus | memory (in this process only: tests and the fast test lane, `make test-fast`)
VECTOR_STORE = env.str("VECTOR_STORE", default="milvus")
# Unset: `make run` starts the embedded Milvus Lite server on this loopback address.
MILVUS_URI = env.str("MILVUS_URI", default="http://127.0.0.1:19530")
MILVUS_TOKEN = env.str("MILVUS_TOKEN", default="")
MILVUS_LITE_DATA = env.path("MILVUS_LITE_DATA", default=str(DATA_DIR / "milvus" / "openguru.db"))
MILVUS_COLLECTION_PREFIX = env.str("MILVUS_COLLECTION_PREFIX", default="guru_")
MILVUS_BM25_ANALYZER = env.str("MILVUS_BM25_ANALYZER", default="english")  # english | standard
# shared: one collection per embedding dimension (and BM25 analyzer) holding every guru's
# chunks, the guru as partition key; per_guru: a Milvus collection per guru. `manage.py
# vector_layout_migrate` moves existing gurus from per_guru to shared while they keep answering.
VECTOR_LAYOUT = env.str("VECTOR_LAYOUT", default="shared")
# How long an answer's or a search's query waits for Milvus (retries included) before a 503.
MILVUS_SEARCH_TIMEOUT_SECONDS = env.int("MILVUS_SEARCH_TIMEOUT_SECONDS", default=5)

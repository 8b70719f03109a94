"""Answer engine knobs; the per-deployment thresholds live in the singleton Settings row."""

from config.env import env

ANSWER_MODE = env.str("ANSWER_MODE", default="default")  # default | fast
RETRIEVAL_CANDIDATES = env.int("RETRIEVAL_CANDIDATES", default=30)
RETRIEVAL_TOP_TEXT = env.int("RETRIEVAL_TOP_TEXT", default=6)
RETRIEVAL_TOP_CODE = env.int("RETRIEVAL_TOP_CODE", default=3)
ASK_RATE_LIMIT_PER_MINUTE = env.int("ASK_RATE_LIMIT_PER_MINUTE", default=30)
# Hybrid fusion (answers/fusion.py), settled by `make eval`: rrf | convex.
RETRIEVAL_FUSION = env.str("RETRIEVAL_FUSION", default="rrf")
# convex: the dense share w of w * dense + (1 - w) * bm25 (normalised scores).
RETRIEVAL_DENSE_WEIGHT = env.float("RETRIEVAL_DENSE_WEIGHT", default=0.8)
# rrf: how much a BM25 ranking counts next to the dense one (1.0 = plain RRF); 0.3 was the
# best RRF weight on the dev sets: BM25 alone is much weaker on docs questions.
RETRIEVAL_BM25_WEIGHT = env.float("RETRIEVAL_BM25_WEIGHT", default=0.3)

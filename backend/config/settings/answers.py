"""Answer engine knobs; the per-deployment thresholds live in the singleton Settings row."""

from config.env import env

ANSWER_MODE = env.str("ANSWER_MODE", default="default")  # default | fast
RETRIEVAL_CANDIDATES = env.int("RETRIEVAL_CANDIDATES", default=30)
RETRIEVAL_TOP_TEXT = env.int("RETRIEVAL_TOP_TEXT", default=6)
RETRIEVAL_TOP_CODE = env.int("RETRIEVAL_TOP_CODE", default=3)
ASK_RATE_LIMIT_PER_MINUTE = env.int("ASK_RATE_LIMIT_PER_MINUTE", default=30)
# Questions one anonymous client (hashed address) may ask one guru per hour and per day on the
# public ask endpoints and the widget; a guru may set its own. 0: no limit.
ANONYMOUS_ASKS_PER_HOUR = env.int("ANONYMOUS_ASKS_PER_HOUR", default=30)
ANONYMOUS_ASKS_PER_DAY = env.int("ANONYMOUS_ASKS_PER_DAY", default=100)
# Requests per minute per API key on /api/v1/ (0: unlimited).
API_RATE_LIMIT_PER_MINUTE = env.int("API_RATE_LIMIT_PER_MINUTE", default=60)
# API answers are shorter than the web UI's: the answer prompt asks for at most this many words.
ANSWER_SHORT_MAX_WORDS = env.int("ANSWER_SHORT_MAX_WORDS", default=150)
# Addresses or networks of the reverse proxies whose X-Real-IP header names the client (our
# nginx); from any other peer the header is ignored. Empty: the peer address is the client.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
# Hybrid fusion (answers/fusion.py), settled by `make eval`: rrf | convex.
RETRIEVAL_FUSION = env.str("RETRIEVAL_FUSION", default="rrf")
# convex: the dense share w of w * dense + (1 - w) * bm25 (normalised scores).
RETRIEVAL_DENSE_WEIGHT = env.float("RETRIEVAL_DENSE_WEIGHT", default=0.8)
# rrf: how much a BM25 ranking counts next to the dense one. "auto": per question, from how far
# BM25's best score stands above its tenth (answers/fusion.py; ahead of every fixed weight on
# the dev sets); a number fixes it (1.0 = plain RRF, 0.3 the best fixed weight).
RETRIEVAL_BM25_WEIGHT = env.str("RETRIEVAL_BM25_WEIGHT", default="auto")

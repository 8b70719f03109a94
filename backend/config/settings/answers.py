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
# Load shedding (answers/engine/admission.py), per server process: at most this many answers at once
# on every channel, from the ask to the stream's end (0: no limit); up to ANSWER_MAX_QUEUED more
# wait up to ANSWER_QUEUE_WAIT_SECONDS for one to end; the rest get 503 `overloaded` at once.
ANSWER_MAX_IN_FLIGHT = env.int("ANSWER_MAX_IN_FLIGHT", default=32)
ANSWER_MAX_QUEUED = env.int("ANSWER_MAX_QUEUED", default=16)
ANSWER_QUEUE_WAIT_SECONDS = env.float("ANSWER_QUEUE_WAIT_SECONDS", default=2.0)
# Requests per minute per API key on /api/v1/ (0: unlimited).
API_RATE_LIMIT_PER_MINUTE = env.int("API_RATE_LIMIT_PER_MINUTE", default=60)
# API answers are shorter than the web UI's: the answer prompt asks for at most this many words.
ANSWER_SHORT_MAX_WORDS = env.int("ANSWER_SHORT_MAX_WORDS", default=150)
# Addresses or networks of the reverse proxies whose X-Real-IP header names the client (our
# nginx); from any other peer the header is ignored. Empty: the peer address is the client.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
# With an LLM, each saved answer's claims are checked against its sources afterwards (one more
# LLM call, on the light queue; answers/quality/grounding.py) and its trust score lowered for claims
# they do not back.
ANSWER_GROUNDING = env.bool("ANSWER_GROUNDING", default=True)
# With an LLM, after a source is indexed: up to this many questions its readers would likely ask
# are made and answered as ordinary question pages (answers/site/generated.py); 0 turns it off.
GENERATED_QUESTIONS_PER_SOURCE = env.int("GENERATED_QUESTIONS_PER_SOURCE", default=5)
GENERATED_QUESTIONS_PER_GURU = env.int("GENERATED_QUESTIONS_PER_GURU", default=100)
# Hybrid fusion (answers/engine/fusion.py), settled by `make eval`: rrf | convex.
RETRIEVAL_FUSION = env.str("RETRIEVAL_FUSION", default="rrf")
# convex: the dense share w of w * dense + (1 - w) * bm25 (normalised scores).
RETRIEVAL_DENSE_WEIGHT = env.float("RETRIEVAL_DENSE_WEIGHT", default=0.8)
# rrf: how much a BM25 ranking counts next to the dense one. "auto": per question, from how far
# BM25's best score stands above its tenth (answers/engine/fusion.py; ahead of every fixed weight on
# the dev sets); a number fixes it (1.0 = plain RRF, 0.3 the best fixed weight).
RETRIEVAL_BM25_WEIGHT = env.str("RETRIEVAL_BM25_WEIGHT", default="auto")
# Candidates ordered by page (answers/engine/pages.py): the first ten places go to the best chunk
# of each
# of the ten pages whose best sections rank highest. Off until `make eval` settles it
# (docs/evaluation.md, "Fusion and pages").
RETRIEVAL_PAGE_AGGREGATION = env.bool("RETRIEVAL_PAGE_AGGREGATION", default=False)
# The gate also scores the top candidates' sentences, a chunk's relevance being its best
# sentence's when higher (answers/engine/units.py; docs/evaluation.md, "Refusal").
RETRIEVAL_UNIT_SCORING = env.bool("RETRIEVAL_UNIT_SCORING", default=True)
# Golden sets (evaluation/golden.py): a run after a re-index is flagged when recall@5 fell, or
# the refusal rate rose, by more than this since the previous run (fractions of the questions).
GOLDEN_RECALL_DROP_MARGIN = env.float("GOLDEN_RECALL_DROP_MARGIN", default=0.1)
GOLDEN_REFUSAL_RISE_MARGIN = env.float("GOLDEN_REFUSAL_RISE_MARGIN", default=0.1)
# A queued or running golden run untouched this long (its worker died) no longer blocks the next.
GOLDEN_RUN_STALE_MINUTES = env.int("GOLDEN_RUN_STALE_MINUTES", default=30)
# Answers per sitemap page (the sitemaps protocol allows 50,000 URLs a file); past one page the
# site serves a sitemap index.
SITEMAP_PAGE_SIZE = 50_000
# Decision traces of answers and refusals older than this are emptied once a day (beat); the
# questions and answers stay. 0 keeps them.
TRACE_RETENTION_DAYS = env.int("TRACE_RETENTION_DAYS", default=90)

"""Ingestion: fetch limits, crawler safety, chunking."""

from config.env import env

# SSRF guard: private, loopback and link-local targets are refused unless allowed here.
CRAWLER_ALLOW_LOOPBACK = env.bool("CRAWLER_ALLOW_LOOPBACK", default=False)
CRAWLER_ALLOW_PRIVATE = env.bool("CRAWLER_ALLOW_PRIVATE", default=False)
CRAWLER_USER_AGENT = env.str("CRAWLER_USER_AGENT", default="OpenGuruBot/0.1 (+self-hosted)")
CRAWLER_MAX_PAGES = env.int("CRAWLER_MAX_PAGES", default=1000)
CRAWLER_MAX_DEPTH = env.int("CRAWLER_MAX_DEPTH", default=10)
CRAWLER_PAGE_MAX_BYTES = env.int("CRAWLER_PAGE_MAX_BYTES", default=5 * 1024 * 1024)
CRAWLER_TIMEOUT_SECONDS = env.float("CRAWLER_TIMEOUT_SECONDS", default=20.0)
CRAWLER_CONCURRENCY = env.int("CRAWLER_CONCURRENCY", default=4)

FIRECRAWL_API_KEY = env.str("FIRECRAWL_API_KEY", default="")
FIRECRAWL_API_URL = env.str("FIRECRAWL_API_URL", default="")

YOUTUBE_TRANSCRIPT_LANGUAGES = env.list("YOUTUBE_TRANSCRIPT_LANGUAGES", default=["en"])
# Where the transcript client connects; only tests point it at a loopback stand-in.
YOUTUBE_BASE_URL = env.str("YOUTUBE_BASE_URL", default="https://www.youtube.com")
# Playlists and channels are listed through the YouTube Data API v3 (a Google API key); only
# tests point the URL at a loopback stand-in.
YOUTUBE_API_KEY = env.str("YOUTUBE_API_KEY", default="")
YOUTUBE_DATA_API_URL = env.str(
    "YOUTUBE_DATA_API_URL", default="https://www.googleapis.com/youtube/v3"
)
YOUTUBE_LIST_MAX_VIDEOS = env.int("YOUTUBE_LIST_MAX_VIDEOS", default=500)
YOUTUBE_LIST_MAX_RETRIES = env.int("YOUTUBE_LIST_MAX_RETRIES", default=3)

# GitHub's REST and GraphQL API (issues and discussions sources); tests point it at a stand-in.
GITHUB_API_URL = env.str("GITHUB_API_URL", default="https://api.github.com")
# Connectors: retries of a rate-limited or failing request, and the longest Retry-After obeyed.
CONNECTOR_MAX_RETRIES = env.int("CONNECTOR_MAX_RETRIES", default=4)
CONNECTOR_RETRY_AFTER_MAX_SECONDS = env.float("CONNECTOR_RETRY_AFTER_MAX_SECONDS", default=120.0)

GITHUB_MAX_FILE_BYTES = env.int("GITHUB_MAX_FILE_BYTES", default=10 * 1024 * 1024)
GITHUB_CODE_EXTENSIONS = env.list(
    "GITHUB_CODE_EXTENSIONS",
    default=[
        ".py", ".js", ".jsx", ".ts", ".tsx", ".go", ".rs", ".java", ".kt", ".rb", ".php", ".c",
        ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift", ".scala", ".sh", ".md", ".rst", ".txt",
        ".toml", ".yaml", ".yml", ".json", ".cfg", ".ini", ".gradle", ".sql", ".html", ".css",
    ],
)  # fmt: skip
PDF_MAX_BYTES = env.int("PDF_MAX_BYTES", default=50 * 1024 * 1024)
# A page's text extraction is bounded by pypdf's own limits; this bounds the whole file (a small
# PDF whose thousand pages share one heavy content stream would otherwise hold a worker for hours).
PDF_EXTRACT_MAX_SECONDS = env.float("PDF_EXTRACT_MAX_SECONDS", default=300.0)
# Uploads other than PDFs (Word, PowerPoint, Excel, CSV, HTML, Markdown, EPUB): one size cap.
FILE_MAX_BYTES = env.int("FILE_MAX_BYTES", default=50 * 1024 * 1024)
# Word, PowerPoint, Excel and EPUB files are zip archives: what they unpack to is checked before
# any parser reads them, so a small file cannot expand into gigabytes (a zip bomb).
FILE_UNZIPPED_MAX_BYTES = env.int("FILE_UNZIPPED_MAX_BYTES", default=200 * 1024 * 1024)
FILE_ZIP_MAX_MEMBERS = env.int("FILE_ZIP_MAX_MEMBERS", default=10_000)
# A workbook or CSV larger than this (all sheets together) fails instead of holding a worker.
SPREADSHEET_MAX_ROWS = env.int("SPREADSHEET_MAX_ROWS", default=100_000)
SPREADSHEET_MAX_CELLS = env.int("SPREADSHEET_MAX_CELLS", default=1_000_000)
# A longer sheet is cited by ranges of this many rows (those with a value), not as a whole.
SPREADSHEET_PART_ROWS = env.int("SPREADSHEET_PART_ROWS", default=100)
SOURCE_TEXT_MAX_BYTES = env.int("SOURCE_TEXT_MAX_BYTES", default=10 * 1024 * 1024)
# Any request body larger than this is refused with 413 before it is read (core/body_limit.py):
# a PDF upload at PDF_MAX_BYTES plus its multipart envelope, as nginx's client_max_body_size.
REQUEST_BODY_MAX_BYTES = env.int("REQUEST_BODY_MAX_BYTES", default=PDF_MAX_BYTES + 5 * 1024 * 1024)
# A run is refused (FAILED, "the server's disk is full") while the embedded vector store's disk
# has less room than this: Milvus Lite on a full disk acknowledges writes it then loses.
INGEST_MIN_FREE_MB = env.int("INGEST_MIN_FREE_MB", default=64)

# Chunking: 0 means "derive from the embedder's input window" (see openguru.sources.chunking).
CHUNK_SIZE_TOKENS = env.int("CHUNK_SIZE_TOKENS", default=0)
CHUNK_OVERLAP_TOKENS = env.int("CHUNK_OVERLAP_TOKENS", default=32)
CHUNK_MIN_CHARS = env.int("CHUNK_MIN_CHARS", default=40)

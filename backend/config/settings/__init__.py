"""Django settings, one module per concern; all values come from `config.env`."""

from config.env import DATA_DIR, REPO_DIR, env

from .accounts import *  # noqa: F403
from .answers import *  # noqa: F403
from .bots import *  # noqa: F403
from .celery import *  # noqa: F403
from .ingestion import *  # noqa: F403
from .observability import *  # noqa: F403
from .openapi import *  # noqa: F403
from .providers import *  # noqa: F403
from .security import *  # noqa: F403
from .sso import *  # noqa: F403

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "corsheaders",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_guid",
    "openguru.core",
    "openguru.core.audit",
    "openguru.gurus",
    "openguru.accounts",
    "openguru.sources",
    "openguru.answers",
    "openguru.integrations",
    "openguru.api_v1",
    "openguru.evaluation",
    "openguru.ops",
]

MIDDLEWARE = [
    # Outermost: counts and times every response, the ones below answer too.
    "openguru.core.metrics_http.http_metrics",
    # The request id (X-Request-ID) for log lines and the tasks the request enqueues.
    "django_guid.middleware.guid_middleware",
    # Before the rest, so a preflight is answered before anything else looks at it.
    "openguru.integrations.widget.cors.WidgetCorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Holds the request for the audit log: who changed something, and from where.
    "openguru.core.audit.context.audit_request_middleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "openguru.core.exception_handler.DatabaseOutageMiddleware",
]
# The public answer endpoints skip MIDDLEWARE under ASGI (openguru/core/asgi.py): they use no
# session, user, messages or CSRF token, and each sync middleware costs thread hops there.
ANSWER_MIDDLEWARE = [
    "openguru.core.metrics_http.http_metrics",
    "django_guid.middleware.guid_middleware",
    "openguru.integrations.widget.cors.WidgetCorsMiddleware",  # the widget's ask streams from here
    "openguru.core.asgi.api_security_headers",
    "openguru.core.exception_handler.DatabaseOutageMiddleware",
]

# CORS only for the embeddable widget's endpoints (openguru/integrations/widget/cors.py): granted to
# the origins its widget ids allow, decided per request, never by a fixed list.
CORS_URLS_REGEX = r"^/api/(widget/(guru|ask|binge)|[-\w]+/(follow_up/examples|record_vote))/$"
CORS_ALLOWED_ORIGINS: list[str] = []
CORS_ALLOW_METHODS = ["GET", "POST", "OPTIONS"]
CORS_ALLOW_HEADERS = ["authorization", "content-type", "x-auth-token", "x-widget-token"]
CORS_EXPOSE_HEADERS = ["retry-after"]  # the widget can say when to ask again after a 429
CORS_PREFLIGHT_MAX_AGE = 3600

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

# SQLite under the data directory unless DATABASE_URL points elsewhere (PostgreSQL in production).
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'openguru.sqlite3'}")
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL and a busy timeout let the web process and the worker share the file without
    # "database is locked" errors.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
        "transaction_mode": "IMMEDIATE",
    }
    # Each thread keeps its connection: opening one costs more than most queries here, and an
    # answer's steps run in several threads.
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=600)
else:
    # A per-process connection pool (psycopg_pool): answers hop between threads, and each hop
    # would otherwise open a new PostgreSQL connection (a backend process) and close it again.
    # The pool also caps connections per process, so a burst of streams waits for one rather
    # than exhausting max_connections. 0 turns the pool off (then CONN_MAX_AGE applies).
    _pool_size = env.int("DATABASE_POOL_MAX_SIZE", default=10)
    if _pool_size > 0:
        DATABASES["default"]["OPTIONS"] = {
            "pool": {"min_size": 1, "max_size": _pool_size, "timeout": 30}
        }
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=0)

# Rate-limit counters. Per process by default (one API process in embedded mode); point it at
# Redis when several processes serve the API, e.g. CACHE_URL=redis://127.0.0.1:6379/1.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"].endswith("RedisCache"):
    # A cache server that stops answering costs a request a second, not a TCP timeout: the
    # request path goes on without the cache (openguru/core/cache.py).
    _cache_options = CACHES["default"].setdefault("OPTIONS", {})
    _cache_options.setdefault("socket_connect_timeout", 1.0)
    _cache_options.setdefault("socket_timeout", 1.0)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=str(DATA_DIR / "media"))
MEDIA_URL = "/media/"
SERVE_MEDIA = env.bool("SERVE_MEDIA", default=True)
# Behind nginx: the internal location that serves MEDIA_ROOT; empty = Django streams files.
MEDIA_ACCEL_REDIRECT_PREFIX = env.str("MEDIA_ACCEL_REDIRECT_PREFIX", default="")
SERVE_STATIC = env.bool("SERVE_STATIC", default=True)
# The embeddable widget's bundle, served at /widget.js (`make install` builds it).
WIDGET_JS_PATH = env.path(
    "WIDGET_JS_PATH", default=str(REPO_DIR / "frontend" / "widget" / "dist" / "widget.js")
)
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# Admin token for scripts and the CLI: sent as `Authorization: Bearer <token>`. Empty disables it.
ADMIN_TOKEN = env.str("OPENGURU_ADMIN_TOKEN", default="")

REST_FRAMEWORK = {
    "EXCEPTION_HANDLER": "openguru.core.exception_handler.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "openguru.core.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "openguru.core.auth.AdminTokenAuthentication",
        # A key of a staff user may also call the admin endpoints (the quick start's path).
        "openguru.integrations.apikeys.auth.APIKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Admins everywhere; maintainers on the routes of the gurus they manage (accounts/access.py).
    "DEFAULT_PERMISSION_CLASSES": ["openguru.accounts.access.GuruRolePermission"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "openguru.core.json_body.BoundedJSONParser",
        "rest_framework.parsers.MultiPartParser",
        "rest_framework.parsers.FormParser",
    ],
    "UNAUTHENTICATED_USER": None,
}

"""Secrets, hosts and HTTPS. Two modes:

- embedded (the default, `make run` and the tests): loopback hosts, a fixed development secret,
  plain HTTP;
- production (`DJANGO_PRODUCTION=true`): the secret and the host names must come from the
  environment (startup stops with the variable's name otherwise), cookies are secure, HTTP is
  redirected to HTTPS and HSTS is sent, so `manage.py check --deploy` has nothing to report.
  TLS ends at a proxy in front of Django, which says the original scheme in X-Forwarded-Proto.
"""

from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from config.env import env

# Known to everyone, so refused in production: only for loopback runs.
_DEV_SECRET_KEY = "openguru-insecure-loopback-only-key"  # noqa: S105
# Secrets that only look set: the defaults of this file and of .env.example.
_PLACEHOLDER_SECRETS = {_DEV_SECRET_KEY, "change-me", "changeme", "secret"}
_MIN_SECRET_LENGTH = 50  # what Django's deploy check asks for (security.W009)

PRODUCTION = env.bool("DJANGO_PRODUCTION", default=False)
DEBUG = env.bool("DJANGO_DEBUG", default=False)

# The site's public URL, the UI's (e.g. https://guru.example.com), in one setting: the origin the
# console posts from (a trusted CSRF origin), what the UI's canonical links name, where the
# admin's "View site" leads, and the links in invitation and password-reset e-mails. `make run`
# sets it from UI_PORT.
_SITE_URL_SET = env.str("SITE_URL", default="").rstrip("/")
SITE_URL = _SITE_URL_SET or "http://127.0.0.1:3000"
# The UI's server as this one reaches it, to have it drop cached question pages after a change
# (`core/site_pages.py`): SITE_URL unless set (`make run`: Next on loopback). Behind nginx, the
# UI's own address (nginx sends /api/ to Django).
UI_INTERNAL_URL = env.str("UI_INTERNAL_URL", default="").rstrip("/") or SITE_URL
# Shared with the UI's server (the same variable there; `make run` makes one per run). Empty:
# nothing is sent, and cached pages are refreshed only every few minutes.
UI_REVALIDATE_SECRET = env.str("UI_REVALIDATE_SECRET", default="")


_LOOPBACK_TWINS = {"127.0.0.1": "localhost", "localhost": "127.0.0.1"}


def _site_origins(url: str) -> list[str]:
    """`url`'s origin; on loopback also its twin (127.0.0.1 and localhost are one machine to
    the user, two origins to the browser)."""
    parts = urlsplit(url)
    if not (parts.scheme and parts.hostname):
        return []
    port = f":{parts.port}" if parts.port else ""
    hosts = [parts.hostname, *filter(None, [_LOOPBACK_TWINS.get(parts.hostname)])]
    return [f"{parts.scheme}://{host}{port}" for host in hosts]


def _production_secret_key() -> str:
    secret = env.str("DJANGO_SECRET_KEY", default="")
    if not secret or secret in _PLACEHOLDER_SECRETS:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set in production (DJANGO_PRODUCTION=true) to a random "
            'value of its own, e.g. the output of: python -c "import secrets; '
            'print(secrets.token_urlsafe(64))"'
        )
    if len(secret) < _MIN_SECRET_LENGTH or len(set(secret)) < 5:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is too weak: use at least {_MIN_SECRET_LENGTH} random characters."
        )
    return secret


def _production_hosts() -> list[str]:
    hosts = env.list("DJANGO_ALLOWED_HOSTS", default=[])
    if not hosts:
        raise ImproperlyConfigured(
            "DJANGO_ALLOWED_HOSTS must be set in production (DJANGO_PRODUCTION=true): the "
            "comma-separated host names this site is reached by, e.g. guru.example.com."
        )
    return hosts


if PRODUCTION:
    if DEBUG:
        raise ImproperlyConfigured("DJANGO_DEBUG must be false in production: it leaks settings.")
    SECRET_KEY = _production_secret_key()
    ALLOWED_HOSTS = _production_hosts()
    # Unset: SITE_URL's origin and the HTTPS origin of every allowed host that is a plain name.
    _host_origins = [f"https://{host}" for host in ALLOWED_HOSTS if not host.startswith((".", "*"))]
    CSRF_TRUSTED_ORIGINS = env.list(
        "DJANGO_CSRF_TRUSTED_ORIGINS",
        default=[
            *_site_origins(_SITE_URL_SET),
            *(o for o in _host_origins if o not in _site_origins(_SITE_URL_SET)),
        ],
    )
else:
    # Only safe on loopback: embedded runs and tests.
    SECRET_KEY = env.str("DJANGO_SECRET_KEY", default=_DEV_SECRET_KEY)
    ALLOWED_HOSTS = env.list(
        "DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"]
    )
    CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=_site_origins(SITE_URL))

# The names the deployment's own services call the backend by, over the private network in
# plain HTTP: the UI's server (OPENGURU_API_URL), probes, scrapers. Always allowed hosts, and a
# request naming one that did not come through the TLS proxy is not redirected to HTTPS
# (openguru/core/internal_hosts.py); a public request is, whatever host it names.
INTERNAL_HOSTS = [host.lower() for host in env.list("DJANGO_INTERNAL_HOSTS", default=[])]
if any(host.startswith((".", "*")) or not host for host in INTERNAL_HOSTS):
    raise ImproperlyConfigured(
        "DJANGO_INTERNAL_HOSTS lists exact host names (e.g. backend), without wildcards."
    )
# A pod's own address (Kubernetes' downward API): Prometheus scrapes each web pod by it, so it
# is an internal host too.
_POD_IP = env.str("DJANGO_POD_IP", default="").strip().lower()
if _POD_IP and _POD_IP not in INTERNAL_HOSTS:
    INTERNAL_HOSTS.append(_POD_IP)
ALLOWED_HOSTS = [*ALLOWED_HOSTS, *(host for host in INTERNAL_HOSTS if host not in ALLOWED_HOSTS)]

# Served over HTTPS (production's default): cookies only over TLS, HTTP redirected, HSTS.
HTTPS = env.bool("DJANGO_HTTPS", default=PRODUCTION)
if HTTPS:
    # The proxy that ends TLS must set this header itself on every request (nginx/nginx.conf
    # does): a client-sent value would otherwise pass for HTTPS.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    # Probes and scrapers reach the backend directly over the private network, in plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^api/health/$", r"^metrics$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # HSTS: browsers refuse plain HTTP to this host for this long. 0 turns it off (worth doing
    # while TLS is first tried: a browser remembers the header for the whole period).
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    # Only marks the header; the host joins browsers' preload lists only if someone submits it.
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_HTTPONLY = True

# Failed sign-ins (console and /admin/) one client address, and one account, may make before
# either must wait SIGN_IN_LOCKOUT_SECONDS: enough for typos, too few to guess a password.
SIGN_IN_FAILURES_PER_CLIENT = env.int("SIGN_IN_FAILURES_PER_CLIENT", default=10)
SIGN_IN_FAILURES_PER_ACCOUNT = env.int("SIGN_IN_FAILURES_PER_ACCOUNT", default=20)
SIGN_IN_LOCKOUT_SECONDS = env.int("SIGN_IN_LOCKOUT_SECONDS", default=300)

"""gunicorn's settings for the web process (`gunicorn -c config/gunicorn.conf.py ...`: the
image's CMD, docker-compose.yml and deploy/k8s). gunicorn's own lines and the access lines take
Django's format (LOG_FORMAT): with `json` the whole stream is JSON lines, and each access line
carries the request id of its request (docs/operations.md)."""

from openguru.core.logs import gunicorn_logging_config

from config.env import env

logconfig_dict = gunicorn_logging_config(
    log_format=env.str("LOG_FORMAT", default="text"), level=env.str("LOG_LEVEL", default="INFO")
)

# Which client sent a request is the application's to work out, from TRUSTED_PROXIES
# (openguru/core/client_address.py): uvicorn's worker must not first replace the peer's address
# with whatever X-Forwarded-For claims, as it does for peers on loopback by default.
forwarded_allow_ips = ""

# Longer than the idle timeout of the clients in front (nginx's upstream keepalive, Node's 5 s
# sockets in the UI's /api proxy): the client closes an idle connection first, so a request is
# never sent on one the server is closing (the client would see a reset).
keepalive = 75

"""docker-compose.yml as Compose reads it: the YAML, and its `${...}` interpolation.

Docker's engine cannot run here, and the compose CLI is not installed, so the tests read the
file themselves. The interpolation below follows the Compose Specification's rules (direct,
`:-`/`-` defaults, `:?`/`?` required, `:+`/`+` alternatives, nested defaults, `$$` escapes).
"""

import re
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
COMPOSE_FILE = REPO / "docker-compose.yml"

# `$$`, `${NAME[op arg]}` (the argument may hold one level of nested `${...}`), or `$NAME`.
_EXPRESSION = re.compile(
    r"\$(?:(?P<escaped>\$)|\{(?P<braced>\w+)(?:(?P<op>:?[-?+])(?P<arg>(?:[^{}]|\$\{[^{}]*\})*))?\}"
    r"|(?P<bare>[A-Za-z_]\w*))"
)


class MissingVariable(Exception):
    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"required variable {name} is missing a value: {message}")
        self.name = name


def load() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE_FILE.read_text())


def interpolate(text: str, env: dict[str, str]) -> str:
    def substitute(match: re.Match[str]) -> str:
        if match["escaped"]:
            return "$"
        name = match["braced"] or match["bare"]
        value = env.get(name)
        op = match["op"]
        if op is None:
            return value or ""
        missing = not value if op.startswith(":") else value is None
        argument = match["arg"] or ""
        if op.endswith("-"):
            return interpolate(argument, env) if missing else str(value)
        if op.endswith("?"):
            if missing:
                raise MissingVariable(name, argument)
            return str(value)
        return "" if missing else interpolate(argument, env)

    return _EXPRESSION.sub(substitute, text)


def resolve(node: Any, env: dict[str, str]) -> Any:
    """Every string value of the model interpolated (keys are not, as in Compose)."""
    if isinstance(node, dict):
        return {key: resolve(value, env) for key, value in node.items()}
    if isinstance(node, list):
        return [resolve(item, env) for item in node]
    if isinstance(node, str):
        return interpolate(node, env)
    return node


def required_variables(text: str) -> set[str]:
    return {m["braced"] for m in _EXPRESSION.finditer(text) if (m["op"] or "").endswith("?")}


def environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.split("=", 1) for item in env)
    return {key: "" if value is None else str(value) for key, value in env.items()}


def celery_queues() -> set[str]:
    """Every queue a task can land on: the ones `make run`'s workers consume (config/workers.py),
    or, where that list does not exist, the default queue and the fixed routes."""
    from django.conf import settings

    try:
        from config.workers import EMBEDDED_WORKERS
    except ImportError:
        routes = settings.CELERY_TASK_ROUTES
        routed = {r["queue"] for r in routes.values()} if isinstance(routes, dict) else set()
        return routed | {settings.CELERY_TASK_DEFAULT_QUEUE}
    return {queue for worker in EMBEDDED_WORKERS for queue in worker.queues}

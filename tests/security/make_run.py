"""What `make run` hands the API for given ports (backend/scripts/run_embedded.py), read from a
Django started with that environment, so the probes test the wiring and not a copy of it."""

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[2] / "backend"

_SHOW = (
    "import json; from django.conf import settings as s; "
    "print(json.dumps({'CSRF_TRUSTED_ORIGINS': s.CSRF_TRUSTED_ORIGINS, "
    "'TRUSTED_PROXIES': s.TRUSTED_PROXIES, 'SITE_URL': s.SITE_URL}))"
)
_ENV = (
    "import json, sys; sys.path.insert(0, 'scripts'); import run_embedded; "
    "print(json.dumps(run_embedded.children_env(api_port={api}, ui_port={ui}, milvus_port=1)))"
)


@cache
def make_run_settings(*, api_port: int, ui_port: int) -> dict[str, object]:
    """The API's CSRF_TRUSTED_ORIGINS, TRUSTED_PROXIES and SITE_URL under `make run
    API_PORT=api_port UI_PORT=ui_port` (with no .env of its own: the test environment's)."""
    made = _python(_ENV.format(api=api_port, ui=ui_port), env=None)
    env = json.loads(made.splitlines()[-1])
    shown = _python(f"import django; django.setup(); {_SHOW}", env=env)
    return dict(json.loads(shown.splitlines()[-1]))


def _python(code: str, *, env: dict[str, str] | None) -> str:
    if env is not None:
        env = {**env, "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BACKEND,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout

"""Broker settings that decide whether a long task can be delivered twice."""

import json
import os
import subprocess
import sys
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[2] / "backend"
READ_CONF = (
    "import django, json; django.setup(); from config.celery import app; "
    "from django.conf import settings; print(json.dumps([app.conf.broker_transport_options, "
    "settings.CELERY_TASK_TIME_LIMIT]))"
)


def _conf(broker: str) -> tuple[dict, int]:
    env = {**os.environ, "CELERY_BROKER_URL": broker, "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run(
        [sys.executable, "-c", READ_CONF], cwd=BACKEND, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    options, limit = json.loads(out.stdout.strip().splitlines()[-1])
    return options, limit


def test_redis_redelivers_an_unacknowledged_task_only_after_the_longest_task_could_run():
    options, limit = _conf("redis://127.0.0.1:6379/0")
    assert options["visibility_timeout"] > limit

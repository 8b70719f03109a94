"""docker-compose.yml: valid Compose, healthy and restarting services, pinned images, and no
secret that is not required from `.env` (compose refuses to start without it)."""

import copy
import importlib.resources
import json
import re
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import environ
import jsonschema
import pytest

from tests.deploy.compose_model import (
    REPO,
    MissingVariable,
    celery_queues,
    environment,
    interpolate,
    load,
    required_variables,
    resolve,
)

SECRET_KEY = re.compile(r"PASSWORD|PASS$|SECRET|TOKEN|_AUTH$|API_KEY|ACCESS_KEY", re.I)
REQUIRED_REFERENCE = re.compile(r"\$\{\w+:\?[^}]+\}")
URL_PASSWORD = re.compile(r"^\w+://[^:/@]*:(?P<password>[^@]+)@")
PINNED_IMAGE = re.compile(r"^[\w./-]+(:[\w.-]*\d[\w.-]*)?(@sha256:[0-9a-f]{64})?$")


@cache
def compose_schema() -> dict[str, Any]:
    """The Compose Specification's JSON schema, as check-jsonschema vendors it (with its
    licence, Apache-2.0, beside it in the package)."""
    vendor = importlib.resources.files("check_jsonschema.builtin_schemas.vendor")
    return json.loads((vendor / "compose-spec.json").read_text())


def validate(model: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(compose_schema()).validate(model)


def secrets_env() -> dict[str, str]:
    """A complete `.env` for compose: every required variable set."""
    text = (REPO / "docker-compose.yml").read_text()
    return {name: f"value-of-{name.lower()}" for name in required_variables(text)}


def services() -> dict[str, dict[str, Any]]:
    return load()["services"]


def test_the_file_is_valid_compose_before_and_after_interpolation() -> None:
    validate(load())
    validate(resolve(load(), secrets_env()))


def test_the_schema_check_rejects_what_compose_would_reject() -> None:
    model = copy.deepcopy(load())
    model["services"]["backend"]["restart_policy"] = "always"  # not a Compose key
    with pytest.raises(jsonschema.ValidationError):
        validate(model)


@pytest.mark.parametrize("name", sorted(services()))
def test_every_service_restarts_and_has_a_health_check_unless_it_is_a_one_shot(name: str) -> None:
    service = services()[name]
    if service.get("restart") == "no":
        assert "healthcheck" not in service, f"{name}: a one-shot has nothing to keep healthy"
        dependants = [s for s in services().values() if name in (s.get("depends_on") or {})]
        assert dependants, f"{name}: a one-shot that nothing waits for"
        for dependant in dependants:
            assert dependant["depends_on"][name]["condition"] == "service_completed_successfully"
        return
    assert service.get("restart") in {"always", "unless-stopped"}, name
    check = service.get("healthcheck") or {}
    assert check.get("test") and not check.get("disable"), f"{name} has no health check"


@pytest.mark.parametrize("name", sorted(services()))
def test_images_are_pinned_to_an_explicit_version(name: str) -> None:
    image = services()[name]["image"]
    assert PINNED_IMAGE.match(image), f"{name}: {image}"
    assert ":" in image.split("/")[-1] or "@sha256:" in image, f"{name}: no tag on {image}"
    assert not image.endswith(":latest"), f"{name}: {image}"


def secret_values() -> list[tuple[str, str, str]]:
    """(service, key, value) for every value that is or carries a credential."""
    found = []
    for name, service in services().items():
        for key, value in environment(service).items():
            if SECRET_KEY.search(key) or URL_PASSWORD.match(value):
                found.append((name, key, value))
    return found


def test_the_secret_scan_sees_the_secrets() -> None:
    keys = {key for _, key, _ in secret_values()}
    assert {"DJANGO_SECRET_KEY", "POSTGRES_PASSWORD", "MILVUS_TOKEN", "DATABASE_URL"} <= keys
    assert {"MINIO_ROOT_PASSWORD", "COMMON_SECURITY_DEFAULTROOTPASSWORD", "CACHE_URL"} <= keys


@pytest.mark.parametrize(("service", "key", "value"), secret_values())
def test_no_secret_is_written_in_the_file(service: str, key: str, value: str) -> None:
    url = URL_PASSWORD.match(value)
    secret = url["password"] if url else value
    if not REQUIRED_REFERENCE.search(secret) and "profiles" in services()[service]:
        # Compose interpolates every service whatever the profile, so an optional service's own
        # password cannot be `:?`-required; it must still come from .env, with no default, and
        # the service must refuse to start without it.
        assert re.fullmatch(r"\$\{\w+:-\}", secret), f"{service}.{key}: {value}"
        assert "exit 1" in str(services()[service]["command"]), f"{service} starts without it"
        return
    literal = re.sub(r"\$\{[^}]*\}", "", secret)
    assert REQUIRED_REFERENCE.search(secret), f"{service}.{key} is not required from .env"
    assert literal in {"", "root:"}, f"{service}.{key} has a written part: {literal!r}"


def test_compose_refuses_to_start_without_each_secret() -> None:
    text = (REPO / "docker-compose.yml").read_text()
    complete = secrets_env()
    assert {"DJANGO_SECRET_KEY", "POSTGRES_PASSWORD", "REDIS_PASSWORD"} <= set(complete)
    assert {"MILVUS_ROOT_PASSWORD", "MINIO_ACCESS_KEY", "MINIO_SECRET_KEY"} <= set(complete)
    for name in complete:
        partial = {key: value for key, value in complete.items() if key != name}
        with pytest.raises(MissingVariable) as missing:
            interpolate(text, partial)
        assert missing.value.name == name
        with pytest.raises(MissingVariable):
            interpolate(text, {**partial, name: ""})  # empty counts as unset


def test_every_required_variable_is_documented_in_env_example() -> None:
    example = (REPO / ".env.example").read_text()
    for name in secrets_env():
        assert re.search(rf"^# {name}=", example, re.M), f"{name} is not in .env.example"
    assert re.search(r"^# RABBITMQ_PASSWORD=", example, re.M)


def backend_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {
        **secrets_env(),
        "REDIS_PASSWORD": "r3dis",
        "POSTGRES_PASSWORD": "pg:p@ss",
        **(extra or {}),
    }
    return environment(resolve(load(), env)["services"]["backend"])


def test_the_backend_reaches_every_service_by_url_with_credentials() -> None:
    env = backend_env({"POSTGRES_PASSWORD": "pg-secret", "MILVUS_ROOT_PASSWORD": "mv"})
    database = environ.Env.db_url_config(env["DATABASE_URL"])
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PASSWORD"]) == ("postgres", "pg-secret")
    assert env["CELERY_BROKER_URL"] == "redis://:r3dis@redis:6379/0"
    assert env["CACHE_URL"] == "redis://:r3dis@redis:6379/1"
    assert environ.Env.cache_url_config(env["CACHE_URL"])["LOCATION"] == env["CACHE_URL"]
    assert (env["MILVUS_URI"], env["MILVUS_TOKEN"]) == ("http://milvus:19530", "root:mv")


def test_the_health_check_and_the_ui_call_the_backend_by_an_internal_host() -> None:
    # An internal host is allowed and not redirected to HTTPS (test_production_web.py runs
    # the check against the backend as compose configures it).
    internal = backend_env()["DJANGO_INTERNAL_HOSTS"].split(",")
    check = services()["backend"]["healthcheck"]["test"][3]
    host = re.search(r'headers=\{"Host": "([^"]+)"\}', check)
    assert host and host[1] in internal, check
    assert "except" not in check, "an error status must fail the check"
    ui = urlsplit(environment(services()["frontend"])["OPENGURU_API_URL"]).hostname
    assert ui in internal
    public = backend_env({"DJANGO_ALLOWED_HOSTS": "guru.example.com"})["DJANGO_ALLOWED_HOSTS"]
    assert public == "guru.example.com", "internal names belong in DJANGO_INTERNAL_HOSTS"


def test_the_rabbitmq_profile_swaps_the_broker() -> None:
    amqp = "amqp://openguru:rabbit@rabbitmq:5672/openguru"
    env = backend_env({"OPENGURU_BROKER_URL": amqp})
    assert env["CELERY_BROKER_URL"] == amqp
    rabbitmq = services()["rabbitmq"]
    assert rabbitmq["profiles"] == ["rabbitmq"]
    assert services()["backend"]["depends_on"]["rabbitmq"]["required"] is False


def test_rabbitmq_waits_for_an_ack_longer_than_any_task_may_hold_its_message() -> None:
    """Past consumer_timeout RabbitMQ takes a message back from a task still running (acks
    late) and delivers it again: the compose broker's must outlast every task's hard limit plus
    the longest retry countdown (a worker holds a message it will run later, too)."""
    from config.celery import app
    from openguru.sources.tasks import MAX_RETRY_COUNTDOWN_SECONDS

    mounts = [m.split(":") for m in services()["rabbitmq"]["volumes"]]
    [(conf, _, mode)] = [m for m in mounts if m[1].startswith("/etc/rabbitmq/conf.d/")]
    assert mode == "ro" and conf.endswith(".conf")
    found = re.search(r"^consumer_timeout\s*=\s*(\d+)\s*$", (REPO / conf).read_text(), re.M)
    assert found, f"{conf} sets no consumer_timeout"
    app.loader.import_default_modules()
    limits = {name: t.time_limit for name, t in app.tasks.items() if name.startswith("openguru.")}
    assert limits["openguru.sources.tasks.source_process_task"] >= 3900
    longest = max(limit or 0 for limit in limits.values()) + MAX_RETRY_COUNTDOWN_SECONDS
    assert int(found[1]) / 1000 > longest
    assert "consumer_timeout" in (REPO / "docs" / "deploy.md").read_text()


def queues_of(command: list[str]) -> set[str]:
    return set(command[command.index("-Q") + 1].split(","))


def test_the_workers_consume_every_queue_the_tasks_are_routed_to() -> None:
    routed = celery_queues()
    workers = {
        n: s
        for n, s in services().items()
        if s.get("command", [])[:4] == ["celery", "-A", "config", "worker"]
    }
    consumed = [queues_of(s["command"]) for s in workers.values()]
    assert set().union(*consumed) == routed == {"ingest", "light"}
    assert all(len(queues) == 1 for queues in consumed), "one queue per worker service"
    for name, service in workers.items():
        node = service["command"][service["command"].index("-n") + 1].split("@")[0]
        assert f"-d {node}@$$HOSTNAME" in service["healthcheck"]["test"][1], name


def test_nginx_shares_the_uploads_and_static_files_the_backend_writes() -> None:
    backend_mounts = dict(m.split(":")[::-1][:2][::-1] for m in services()["backend"]["volumes"])
    volume_at = {path: volume for volume, path in backend_mounts.items()}
    nginx = services()["nginx"]
    nginx_env = environment(nginx)
    mounts = {m.split(":")[1]: m.split(":")[0] for m in nginx["volumes"]}
    media = environment(services()["backend"])["MEDIA_ROOT"]
    assert mounts[nginx_env["OPENGURU_MEDIA_ROOT"].rstrip("/")] == volume_at[media]
    assert mounts[nginx_env["OPENGURU_STATIC_ROOT"].rstrip("/")] == volume_at["/data/static"]
    assert all(m.endswith(":ro") for m in nginx["volumes"])
    assert set(load()["volumes"]) >= set(backend_mounts) | {"postgres-data", "milvus-data"}

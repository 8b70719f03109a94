"""deploy/k8s: every manifest valid against the Kubernetes schemas (kubernetes-validate, offline),
the kustomization rendered by kubectl's built-in kustomize when kubectl is installed, and the
pieces wired to each other: selectors, Services, autoscalers, the Ingress, probes, the queues."""

import os
import re
import secrets
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import kubernetes_validate
import pytest
import yaml

from tests.deploy.compose_model import REPO, celery_queues, load

K8S = REPO / "deploy" / "k8s"
KUBERNETES_VERSION = "1.30.0"  # the oldest minor the manifests promise to work on
MANIFESTS = sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


@cache
def resources() -> list[dict[str, Any]]:
    return [doc for path in MANIFESTS for doc in documents(path)]


def of_kind(kind: str) -> dict[str, dict[str, Any]]:
    return {r["metadata"]["name"]: r for r in resources() if r["kind"] == kind}


def pod_spec(workload: dict[str, Any]) -> dict[str, Any]:
    return workload["spec"]["template"]["spec"]


def test_the_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == [p.name for p in MANIFESTS]


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_every_manifest_is_valid_kubernetes(path: Path) -> None:
    for doc in documents(path):
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)


def test_the_validator_rejects_a_broken_manifest() -> None:
    web = yaml.safe_load(yaml.safe_dump(of_kind("Deployment")["openguru-web"]))
    web["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(web, KUBERNETES_VERSION, strict=True)


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl (its kustomize) is missing")
def test_the_kustomization_renders_to_valid_resources() -> None:
    rendered = subprocess.run(
        ["kubectl", "kustomize", str(K8S)], capture_output=True, text=True, check=True
    ).stdout
    docs = [doc for doc in yaml.safe_load_all(rendered) if doc]
    assert len(docs) == len(resources())
    for doc in docs:
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
        if doc["kind"] != "Namespace":
            assert doc["metadata"]["namespace"] == "openguru", doc["metadata"]["name"]
        for container in (doc.get("spec", {}).get("template", {}).get("spec", {})).get(
            "containers", []
        ):
            assert container["image"].endswith(":0.1.0"), container["image"]


@pytest.mark.parametrize("name", sorted(of_kind("Deployment")))
def test_selectors_match_the_pod_labels_and_pods_run_unprivileged(name: str) -> None:
    deployment = of_kind("Deployment")[name]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    pod = pod_spec(deployment)
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] > 0
    for container in pod["containers"]:
        assert container["securityContext"]["allowPrivilegeEscalation"] is False
        assert "livenessProbe" in container, f"{name}/{container['name']}"
        assert container["resources"]["limits"]["memory"], f"{name} has no memory limit"


def test_every_service_selects_a_deployment_on_a_port_it_exposes() -> None:
    for name, service in of_kind("Service").items():
        targets = [
            d
            for d in of_kind("Deployment").values()
            if service["spec"]["selector"].items()
            <= d["spec"]["template"]["metadata"]["labels"].items()
        ]
        assert len(targets) == 1, name
        ports = {p["name"] for c in pod_spec(targets[0])["containers"] for p in c.get("ports", [])}
        assert {p["targetPort"] for p in service["spec"]["ports"]} <= ports, name
        for container in pod_spec(targets[0])["containers"]:
            assert "readinessProbe" in container, f"{name}: traffic before the pod is ready"


def test_autoscalers_target_the_web_and_ingest_deployments() -> None:
    targets = {
        h["spec"]["scaleTargetRef"]["name"] for h in of_kind("HorizontalPodAutoscaler").values()
    }
    assert targets == {"openguru-web", "openguru-worker-ingest"}
    assert targets <= set(of_kind("Deployment"))
    for deployment in targets:
        for container in pod_spec(of_kind("Deployment")[deployment])["containers"]:
            assert container["resources"]["requests"]["cpu"], "CPU targets need a CPU request"


def test_the_ingress_sends_each_path_to_an_existing_service_port() -> None:
    services = of_kind("Service")
    routes = {}
    for rule in of_kind("Ingress")["openguru"]["spec"]["rules"]:
        for path in rule["http"]["paths"]:
            backend = path["backend"]["service"]
            ports = {p["name"] for p in services[backend["name"]]["spec"]["ports"]}
            assert backend["port"]["name"] in ports
            routes[path["path"]] = backend["name"]
    web = {"/api", "/admin", "/mcp", "/media", "/static", "/widget.js"}
    assert {path for path, service in routes.items() if service == "openguru-web"} == web
    assert routes["/"] == "openguru-frontend"


def test_workers_consume_every_routed_queue_and_one_beat_runs() -> None:
    routed = celery_queues()
    consumed = set()
    for deployment in of_kind("Deployment").values():
        command = pod_spec(deployment)["containers"][0].get("command", [])
        if command[:4] == ["celery", "-A", "config", "worker"]:
            consumed.add(command[command.index("-Q") + 1])
    assert consumed == routed
    beat = of_kind("Deployment")["openguru-beat"]
    assert beat["spec"]["replicas"] == 1 and beat["spec"]["strategy"]["type"] == "Recreate"


def test_backend_pods_read_the_secret_and_match_compose_images() -> None:
    compose_images = {s["image"].split(":")[0] for s in load()["services"].values()}
    backend_like = [*of_kind("Deployment").values(), *of_kind("Job").values()]
    for workload in backend_like:
        container = pod_spec(workload)["containers"][0]
        assert container["image"] in compose_images, container["image"]
        if container["image"] == "openguru-backend":
            sources = {next(iter(s.values()))["name"] for s in container["envFrom"]}
            assert sources == {"openguru-config", "openguru-secrets"}
    example = (K8S / "secret.example.env").read_text()
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "MILVUS_URI", "MILVUS_TOKEN", "CACHE_URL"):
        assert f"\n{key}=" in example


def configmap() -> dict[str, str]:
    return dict(of_kind("ConfigMap")["openguru-config"]["data"])


def secret_example() -> list[tuple[str, str]]:
    lines = (K8S / "secret.example.env").read_text().splitlines()
    pairs = [line.split("=", 1) for line in lines if line and not line.startswith("#")]
    return [(key, value) for key, value in pairs]


def filled_secret() -> dict[str, str]:
    """secret.example.env as an operator fills it in: each PASSWORD placeholder and each empty
    value replaced by a random token (the secret key long enough for the deploy check)."""
    filled = {}
    for key, value in secret_example():
        token = secrets.token_urlsafe(64 if key == "DJANGO_SECRET_KEY" else 24)
        filled[key] = value.replace("PASSWORD", token) if value else token
    return filled


def test_the_configmap_runs_production_with_json_logs() -> None:
    data = configmap()
    assert data["DJANGO_PRODUCTION"] == "true"
    assert data["DJANGO_DEBUG"] == "false"
    assert data["LOG_FORMAT"] == "json"
    # The names the settings read (config/settings/), not look-alikes.
    read = "".join(p.read_text() for p in (REPO / "backend" / "config" / "settings").glob("*.py"))
    for name in ("DJANGO_PRODUCTION", "DJANGO_DEBUG", "LOG_FORMAT", "DJANGO_INTERNAL_HOSTS"):
        assert re.search(rf'env\.\w+\("{name}"', read), f"no setting reads {name}"


def test_in_cluster_callers_use_an_internal_host() -> None:
    internal = configmap()["DJANGO_INTERNAL_HOSTS"].split(",")
    assert "openguru-web" in of_kind("Service") and "openguru-web" in internal
    assert "openguru-web" not in configmap()["DJANGO_ALLOWED_HOSTS"].split(",")
    web = pod_spec(of_kind("Deployment")["openguru-web"])["containers"][0]
    for probe in ("startupProbe", "readinessProbe"):
        headers = {h["name"]: h["value"] for h in web[probe]["httpGet"]["httpHeaders"]}
        assert headers["Host"] in internal, probe
    ui = pod_spec(of_kind("Deployment")["openguru-frontend"])["containers"][0]
    api_url = next(e["value"] for e in ui["env"] if e["name"] == "OPENGURU_API_URL")
    assert urlsplit(api_url).hostname in internal


def test_web_pods_know_their_own_address_for_the_scraper() -> None:
    container = pod_spec(of_kind("Deployment")["openguru-web"])["containers"][0]
    env = {item["name"]: item for item in container["env"]}
    assert env["DJANGO_POD_IP"]["valueFrom"] == {"fieldRef": {"fieldPath": "status.podIP"}}


def test_the_secret_example_names_each_key_once() -> None:
    keys = [key for key, _ in secret_example()]
    assert len(keys) == len(set(keys)), keys
    assert not set(keys) & set(configmap()), "a key in both the Secret and the ConfigMap"


@pytest.mark.slow  # every check, the OpenAPI schema's included
def test_the_configmap_and_a_filled_in_secret_pass_the_deploy_check(tmp_path: Path) -> None:
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), **configmap(), **filled_secret()}
    # The pods' /data is a volume; here a folder of the test's own.
    env |= {"OPENGURU_DATA_DIR": str(tmp_path), "MEDIA_ROOT": str(tmp_path / "media")}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO / "backend",
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout
    assert re.fullmatch(r"[\w-]{80,}", env["DJANGO_SECRET_KEY"])

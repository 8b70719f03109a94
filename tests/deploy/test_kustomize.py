"""deploy/k8s's kustomization rendered and validated on every machine: by kubectl's built-in
kustomize where kubectl is installed, and always by the small render in kustomize_render.py,
which must agree with kubectl wherever both run."""

import textwrap
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from tests.deploy.kustomize_render import Unsupported, kubectl_render, render
from tests.deploy.test_k8s import K8S, KUBERNETES_VERSION, MANIFESTS

KUSTOMIZATION = yaml.safe_load((K8S / "kustomization.yaml").read_text())


def containers(resource: dict[str, Any]) -> list[dict[str, Any]]:
    spec = resource.get("spec", {}).get("template", {}).get("spec", {})
    return [*spec.get("initContainers", []), *spec.get("containers", [])]


def test_the_kustomization_renders_to_valid_resources() -> None:
    rendered = kubectl_render(K8S) or render(K8S)
    sources = [doc for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text()) if doc]
    assert len(rendered) == len(sources)
    assert rendered[0]["kind"] == "Namespace"  # created before what lives in it
    tags = {image["name"]: image["newTag"] for image in KUSTOMIZATION["images"]}
    pairs = KUSTOMIZATION["labels"][0]["pairs"]
    for doc in rendered:
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
        assert pairs.items() <= doc["metadata"]["labels"].items(), doc["metadata"]["name"]
        if doc["kind"] != "Namespace":
            assert doc["metadata"]["namespace"] == KUSTOMIZATION["namespace"]
        for container in containers(doc):
            name, _, tag = container["image"].partition(":")
            assert tag == tags[name], container["image"]


def test_the_fallback_renders_the_kustomization_as_kubectl_does() -> None:
    fallback = render(K8S)
    assert [doc["metadata"]["name"] for doc in fallback][:1] == [KUSTOMIZATION["namespace"]]
    from_kubectl = kubectl_render(K8S)
    if from_kubectl is None:
        pytest.skip("kubectl is not installed: the fallback render above is the check")
    assert fallback == from_kubectl


EXAMPLE = {
    "kustomization.yaml": """
        namespace: shop
        labels:
          - pairs: {team: search}
            includeTemplates: true
        resources: [app.yaml, role.yaml]
        images:
          - name: shop-api
            newName: registry.example/shop-api
            newTag: "2.1"
          - name: busybox
            digest: sha256:0000000000000000000000000000000000000000000000000000000000000001
          - name: untouched
        """,
    "app.yaml": """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: api, labels: {tier: web}}
        spec:
          selector: {matchLabels: {app: api}}
          template:
            metadata: {labels: {app: api}}
            spec:
              initContainers: [{name: wait, image: "busybox:1.36"}]
              containers:
                - {name: api, image: shop-api}
                - {name: side, image: "untouched:3"}
                - {name: other, image: "shop-api-legacy:1"}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: settings}
        data: {A: "1"}
        """,
    "role.yaml": """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata: {name: reader}
        rules: []
        """,
}


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))
    return folder


def test_the_fallback_applies_what_it_implements_like_kustomize(tmp_path: Path) -> None:
    rendered = render(write(tmp_path, EXAMPLE))
    assert [(d["kind"], d["metadata"]["name"]) for d in rendered] == [
        ("ClusterRole", "reader"),
        ("ConfigMap", "settings"),
        ("Deployment", "api"),
    ]
    role, settings, api = rendered
    assert "namespace" not in role["metadata"]  # cluster-scoped
    assert settings["metadata"] == {
        "name": "settings",
        "namespace": "shop",
        "labels": {"team": "search"},
    }
    assert api["metadata"]["labels"] == {"tier": "web", "team": "search"}
    assert api["spec"]["template"]["metadata"]["labels"] == {"app": "api", "team": "search"}
    assert api["spec"]["selector"] == {"matchLabels": {"app": "api"}}  # selectors left alone
    assert [c["image"] for c in containers(api)] == [
        "busybox@sha256:0000000000000000000000000000000000000000000000000000000000000001",
        "registry.example/shop-api:2.1",
        "untouched:3",
        "shop-api-legacy:1",
    ]
    from_kubectl = kubectl_render(tmp_path)
    if from_kubectl is not None:
        assert rendered == from_kubectl


@pytest.mark.parametrize(
    ("name", "text", "complaint"),
    [
        ("kustomization.yaml", "resources: [app.yaml]\npatches: []\n", "patches"),
        (
            "kustomization.yaml",
            "resources: [app.yaml]\nlabels: [{pairs: {a: b}, includeSelectors: true}]\n",
            "includeSelectors",
        ),
        ("kustomization.yaml", "resources: [https://example.org/base]\n", "only files"),
        ("kustomization.yaml", "namespace: shop\nresources: [ns.yaml]\n", "Namespace"),
    ],
    ids=["patches", "include-selectors", "remote-base", "renamed-namespace"],
)
def test_the_fallback_refuses_what_it_does_not_implement(
    tmp_path: Path, name: str, text: str, complaint: str
) -> None:
    write(tmp_path, {"app.yaml": EXAMPLE["app.yaml"], name: text})
    (tmp_path / "ns.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: other}\n")
    with pytest.raises(Unsupported, match=complaint):
        render(tmp_path)

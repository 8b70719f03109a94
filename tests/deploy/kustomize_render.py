"""A kustomization rendered the way `kubectl kustomize` renders it, for the fields
deploy/k8s/kustomization.yaml uses, so the render check runs where kubectl is not installed.

Implemented: `resources` (files beside the kustomization), `namespace`, `labels` (pairs, with
or without includeTemplates), `images` (newName, newTag, digest) and kustomize's default
("legacy") output order. Any other field, or an option of these it does not implement, raises
`Unsupported` instead of rendering something kubectl would not: the test then fails and says
which field to add here. When kubectl is present the tests compare the two renders.
"""

import copy
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

Resource = dict[str, Any]

SUPPORTED_FIELDS = {"apiVersion", "kind", "namespace", "labels", "resources", "images"}

# Kinds without a namespace (the ones a small app's kustomization may plausibly hold).
CLUSTER_SCOPED = {
    "Namespace",
    "ClusterRole",
    "ClusterRoleBinding",
    "CustomResourceDefinition",
    "IngressClass",
    "MutatingWebhookConfiguration",
    "PersistentVolume",
    "PriorityClass",
    "StorageClass",
    "ValidatingWebhookConfiguration",
}

# kustomize's legacy order (api/resid/gvk.go): these kinds first, in this order, these last,
# every other kind between them, ordered by group, version and kind.
ORDER_FIRST = [
    "Namespace",
    "ResourceQuota",
    "StorageClass",
    "CustomResourceDefinition",
    "ServiceAccount",
    "PodSecurityPolicy",
    "Role",
    "ClusterRole",
    "RoleBinding",
    "ClusterRoleBinding",
    "ConfigMap",
    "Secret",
    "Endpoints",
    "Service",
    "LimitRange",
    "PriorityClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "Deployment",
    "StatefulSet",
    "CronJob",
    "PodDisruptionBudget",
]
ORDER_LAST = ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"]

# Kinds whose subjects name a namespace that kustomize rewrites too (not implemented here).
NAMESPACE_REFERENCES = {"RoleBinding", "ClusterRoleBinding"}

IMAGE = re.compile(r"^(?P<name>[^@]+?)(?::(?P<tag>[\w][\w.-]*))?(?:@(?P<digest>\S+))?$")


class Unsupported(Exception):
    """The kustomization uses something this render does not implement."""


def kubectl_render(folder: Path) -> list[Resource] | None:
    """kubectl's built-in kustomize, or None where kubectl is not installed."""
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        return None
    out = subprocess.run(
        [kubectl, "kustomize", str(folder)], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return [doc for doc in yaml.safe_load_all(out) if doc]


def render(folder: Path) -> list[Resource]:
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text())
    unknown = set(kustomization) - SUPPORTED_FIELDS
    if unknown:
        raise Unsupported(f"kustomization fields not implemented: {sorted(unknown)}")
    resources = [doc for path in kustomization.get("resources", []) for doc in _load(folder, path)]
    namespace = kustomization.get("namespace")
    for resource in resources:
        if namespace:
            _set_namespace(resource, namespace)
        for entry in kustomization.get("labels", []):
            _add_labels(resource, entry)
        for image in kustomization.get("images", []):
            _set_image(resource, image)
    return sorted(resources, key=_legacy_order)


def _load(folder: Path, entry: str) -> list[Resource]:
    path = folder / entry
    if "://" in entry or not path.is_file():
        raise Unsupported(f"resource {entry!r}: only files beside the kustomization")
    docs = [copy.deepcopy(doc) for doc in yaml.safe_load_all(path.read_text()) if doc]
    for doc in docs:
        if doc.get("kind") in NAMESPACE_REFERENCES:
            raise Unsupported(f"{doc['kind']} subjects are not rewritten here")
    return docs


def _set_namespace(resource: Resource, namespace: str) -> None:
    kind = resource["kind"]
    if kind == "Namespace":
        # kustomize renames a Namespace object to the kustomization's namespace; that surprise
        # is not reproduced here.
        if resource["metadata"]["name"] != namespace:
            raise Unsupported(f"Namespace {resource['metadata']['name']!r} != {namespace!r}")
        return
    if kind not in CLUSTER_SCOPED:
        resource["metadata"]["namespace"] = namespace


def _add_labels(resource: Resource, entry: dict[str, Any]) -> None:
    options = set(entry) - {"pairs", "includeTemplates", "includeSelectors"}
    if options or entry.get("includeSelectors"):
        raise Unsupported(
            f"labels options not implemented: {sorted(options) or 'includeSelectors'}"
        )
    pairs = {str(k): str(v) for k, v in entry.get("pairs", {}).items()}
    resource["metadata"].setdefault("labels", {}).update(pairs)
    if entry.get("includeTemplates"):
        template = resource.get("spec", {}).get("template")
        if isinstance(template, dict):
            template.setdefault("metadata", {}).setdefault("labels", {}).update(pairs)
        if resource["kind"] == "CronJob":
            raise Unsupported("includeTemplates on a CronJob's job template")


def _pod_specs(resource: Resource) -> list[dict[str, Any]]:
    spec = resource.get("spec") or {}
    if resource["kind"] == "Pod":
        return [spec]
    if resource["kind"] == "CronJob":
        spec = spec.get("jobTemplate", {}).get("spec", {})
    template = spec.get("template")
    return [template["spec"]] if isinstance(template, dict) and "spec" in template else []


def _set_image(resource: Resource, image: dict[str, Any]) -> None:
    options = set(image) - {"name", "newName", "newTag", "digest"}
    if options:
        raise Unsupported(f"images options not implemented: {sorted(options)}")
    for pod in _pod_specs(resource):
        for container in [*pod.get("initContainers", []), *pod.get("containers", [])]:
            parsed = IMAGE.match(container["image"])
            if parsed is None or parsed["name"] != image["name"]:
                continue
            name = str(image.get("newName") or parsed["name"])
            if image.get("digest"):
                container["image"] = f"{name}@{image['digest']}"
            elif image.get("newTag"):
                container["image"] = f"{name}:{image['newTag']}"
            else:
                rest = f":{parsed['tag']}" if parsed["tag"] else ""
                rest += f"@{parsed['digest']}" if parsed["digest"] else ""
                container["image"] = name + rest


def _legacy_order(resource: Resource) -> tuple[int, str, str, str]:
    kind = resource["kind"]
    if kind in ORDER_FIRST:
        rank = ORDER_FIRST.index(kind) - len(ORDER_FIRST)
    elif kind in ORDER_LAST:
        rank = 1 + ORDER_LAST.index(kind)
    else:
        rank = 0
    group, _, version = resource["apiVersion"].rpartition("/")
    gvk = f"{group or '~G'}_{version}_{kind}"  # kustomize's Gvk.String(): "~G" for the core group
    metadata = resource["metadata"]
    return (rank, gvk, metadata.get("namespace", ""), metadata["name"])

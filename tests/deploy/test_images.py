"""Only images and tags that exist: docker-compose.yml, the Dockerfiles and deploy/k8s use the
images listed in images.toml (each with the upstream reference its tag was checked against),
and the versions that must move together do: the Milvus server and pymilvus, Milvus and the
etcd/MinIO pair it documents, the backend image's Python and the virtualenv's, the UI image's
Node and frontend/package.json's engines. Offline: nothing here reaches a registry."""

import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.deploy.compose_model import REPO, load
from tests.deploy.test_dockerfiles import DOCKERFILES, stages

IMAGES_TOML = Path(__file__).with_name("images.toml")
K8S = REPO / "deploy" / "k8s"
PACKAGE_JSON = REPO / "frontend" / "package.json"
VERSION = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?")


@cache
def listed() -> dict[str, Any]:
    return tomllib.loads(IMAGES_TOML.read_text())


def pulled() -> dict[str, dict[str, Any]]:
    """Listed upstream images by `name:tag`."""
    return {f"{i['name']}:{i['tag']}": i for i in listed()["image"]}


def built() -> dict[str, dict[str, Any]]:
    return {f"{i['name']}:{i['tag']}": i for i in listed()["built"]}


def tag_of(reference: str, name: str) -> str:
    image = next(i for i in listed()["image"] if i["name"] == name)
    assert reference.startswith(f"{name}:"), reference
    return image["tag"]


def version(tag: str) -> tuple[int, ...]:
    match = VERSION.match(tag)
    assert match, f"no version in {tag!r}"
    return tuple(int(part) for part in match.groups() if part is not None)


def base_images(dockerfile: Path) -> list[str]:
    """FROM images of a Dockerfile, without its own stages."""
    images, aliases = [], set()
    for stage in stages(dockerfile):
        image, *alias = stage[0][1].split()
        if image not in aliases:
            images.append(image)
        if alias:
            aliases.add(alias[-1])
    return images


def compose_images() -> dict[str, str]:
    return {name: service["image"] for name, service in load()["services"].items()}


def uses() -> dict[str, set[str]]:
    """Each image reference, and the files that use it."""
    found: dict[str, set[str]] = {}
    for image in compose_images().values():
        found.setdefault(image, set()).add("docker-compose.yml")
    for dockerfile in DOCKERFILES:
        for image in base_images(dockerfile):
            found.setdefault(image, set()).add(str(dockerfile.relative_to(REPO)))
    return found


def test_the_list_is_well_formed() -> None:
    for image in listed()["image"]:
        assert set(image) == {"name", "tag", "used_in", "reference", "checked"}, image
        assert image["reference"].startswith("https://"), image["name"]
        assert image["tag"] != "latest" and image["checked"], image["name"]
    milvus = listed()["milvus"]
    assert milvus["reference"].startswith("https://") and milvus["checked"]


@pytest.mark.parametrize("image", sorted(uses()))
def test_every_image_used_is_listed_with_the_files_that_use_it(image: str) -> None:
    users = uses()[image]
    if image in built():
        assert users == {"docker-compose.yml"}, f"{image} is built here, never a base image"
        return
    assert image in pulled(), f"{image} ({', '.join(sorted(users))}) is not in images.toml"
    assert set(pulled()[image]["used_in"]) == users, image


def test_nothing_listed_is_unused() -> None:
    assert set(pulled()) | set(built()) == set(uses())


def test_built_images_come_from_their_dockerfiles_in_compose_and_kubernetes() -> None:
    for name, service in load()["services"].items():
        if service["image"] not in built():
            assert "build" not in service, f"{name} builds an image images.toml does not list"
            continue
        build = service["build"]
        dockerfile = Path(build["context"]) / build.get("dockerfile", "Dockerfile")
        assert dockerfile == Path(built()[service["image"]]["dockerfile"]), name
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    k8s = {f"{i['name']}:{i['newTag']}" for i in kustomization["images"]}
    assert k8s == set(built())


def test_the_milvus_server_is_the_minor_of_pymilvus() -> None:
    milvus = listed()["milvus"]
    server = version(tag_of(compose_images()["milvus"], "milvusdb/milvus"))
    client = version(importlib.metadata.version("pymilvus"))
    assert f"{server[0]}.{server[1]}" == milvus["minor"]
    assert client[:2] == server[:2], f"pymilvus {client} against Milvus {server}"
    pin = re.search(r"^pymilvus==(\S+)$", (REPO / "backend/requirements.txt").read_text(), re.M)
    assert pin and version(pin[1])[:2] == server[:2]


def test_etcd_and_minio_are_the_pair_milvus_documents_for_its_minor() -> None:
    milvus = listed()["milvus"]
    # The compose file Milvus publishes with a release of that minor.
    assert f"/v{milvus['minor']}." in milvus["reference"], milvus["reference"]
    assert compose_images()["etcd"] == f"quay.io/coreos/etcd:{milvus['etcd']}"
    assert compose_images()["minio"] == f"minio/minio:{milvus['minio']}"


def test_the_backend_image_runs_the_python_minor_of_the_virtualenv() -> None:
    pythons = [i for d in DOCKERFILES for i in base_images(d) if i.startswith("python:")]
    assert pythons, "no Python base image"
    for image in pythons:
        assert version(image.split(":")[1])[:2] == sys.version_info[:2], image


def satisfies(candidate: tuple[int, ...], spec: str) -> bool:
    """npm's range syntax, the parts package.json engines use: `||` of space-separated
    comparators (>=, >, <=, <, =), caret and tilde ranges, and bare versions."""
    padded = (*candidate, 0, 0, 0)[:3]

    def one(comparator: str) -> bool:
        parsed = re.fullmatch(r"(>=|<=|>|<|=|\^|~)?v?(\d[\d.]*)", comparator)
        assert parsed, f"not a comparator this check reads: {comparator!r}"
        op, text = parsed.groups()
        parts = [int(p) for p in text.split(".") if p.isdigit()]
        wanted = tuple([*parts, 0, 0, 0][:3])
        if op == "^":
            return padded >= wanted and padded[0] == wanted[0]
        if op == "~":
            return padded >= wanted and padded[:2] == wanted[:2]
        compare = {">=": padded >= wanted, ">": padded > wanted, "<=": padded <= wanted}
        compare["<"] = padded < wanted
        return compare.get(op or "=", padded[: len(parts)] == wanted[: len(parts)])

    return any(all(one(c) for c in alt.split()) for alt in spec.split("||"))


def test_the_range_check_reads_npm_ranges() -> None:
    assert satisfies((20, 19, 5), ">=20.9.0") and not satisfies((18, 20, 0), ">=20.9.0")
    assert satisfies((20, 1, 0), "^20.0.0 || ^22.0.0") and not satisfies((21, 0, 0), "^20 || ^22")
    assert satisfies((20, 9, 3), "~20.9") and not satisfies((20, 10, 0), "~20.9")
    assert satisfies((20, 5, 0), ">=20 <21") and not satisfies((21, 0, 0), ">=20 <21")


def test_the_node_images_and_the_node_here_satisfy_the_frontend_engines() -> None:
    package = json.loads(PACKAGE_JSON.read_text())
    engines = package["engines"]["node"]
    nodes = [i for d in DOCKERFILES for i in base_images(d) if i.startswith("node:")]
    assert nodes, "no Node base image"
    for image in nodes:
        assert satisfies(version(image.split(":")[1]), engines), f"{image} against {engines}"
    here = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True)
    assert satisfies(version(here.stdout.strip()), engines), f"node {here.stdout} here"
    # Node's type definitions describe the runtime the image ships.
    types = version(package["devDependencies"]["@types/node"])
    assert {version(image.split(":")[1])[0] for image in nodes} == {types[0]}

"""The Dockerfiles: multi-stage, pinned base images, an unprivileged user, hadolint-clean, and
the backend image serving the widget bundle it builds. (No Docker engine here: the files are
read, not built; docs/deploy.md has the expected image sizes.)"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.compose_model import REPO

BACKEND = REPO / "backend" / "Dockerfile"
FRONTEND = REPO / "frontend" / "Dockerfile"
DOCKERFILES = [BACKEND, FRONTEND]
PINNED = re.compile(r"^[\w./-]+:[\w.-]*\d+\.\d+[\w.-]*(@sha256:[0-9a-f]{64})?$")


def instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", path.read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "")
        for line in lines
        if line and not line.startswith("#")
    ]


def stages(path: Path) -> list[list[tuple[str, str]]]:
    found: list[list[tuple[str, str]]] = []
    for instruction in instructions(path):
        if instruction[0] == "FROM":
            found.append([])
        found[-1].append(instruction)
    return found


@pytest.mark.parametrize("path", DOCKERFILES, ids=lambda p: p.parent.name)
def test_multi_stage_with_pinned_base_images(path: Path) -> None:
    all_stages = stages(path)
    assert len(all_stages) >= 2, "a build stage and a smaller final stage"
    names = set()
    for stage in all_stages:
        image, *alias = stage[0][1].split()
        if image not in names:
            assert PINNED.match(image), f"{path}: {image} is not pinned to an exact version"
        if alias:
            names.add(alias[-1])


@pytest.mark.parametrize("path", DOCKERFILES, ids=lambda p: p.parent.name)
def test_the_final_stage_runs_as_an_unprivileged_numeric_user(path: Path) -> None:
    users = [args for name, args in stages(path)[-1] if name == "USER"]
    assert users, f"{path}: the image would run as root"
    user = users[-1].split(":")[0]
    assert user.isdigit() and int(user) > 0, f"{path}: USER {users[-1]}"


@pytest.mark.parametrize("path", DOCKERFILES, ids=lambda p: p.parent.name)
def test_hadolint_finds_nothing(path: Path) -> None:
    hadolint = Path(sys.executable).parent / "hadolint"
    result = subprocess.run(
        [str(hadolint), "--no-color", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_would_catch_an_unpinned_image(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python\nRUN pip install django\n")
    hadolint = Path(sys.executable).parent / "hadolint"
    result = subprocess.run([str(hadolint), "--no-color", str(bad)], capture_output=True, text=True)
    assert result.returncode != 0 and "DL3006" in result.stdout


def env_of(stage: list[tuple[str, str]]) -> dict[str, str]:
    pairs = " ".join(args for name, args in stage if name == "ENV")
    return dict(re.findall(r"(\w+)=(\S+)", pairs))


def test_the_backend_image_serves_the_widget_it_builds() -> None:
    *builders, final = stages(BACKEND)
    widget = next(s for s in builders if s[0][1].endswith(" AS widget"))
    assert ("RUN", "npm run --silent build:widget") in widget
    copies = [args.split() for name, args in final if name == "COPY" and "--from=widget" in args]
    assert copies, "the widget bundle never reaches the image"
    source, target = copies[0][1:]
    assert source.endswith("widget/dist/widget.js")
    assert env_of(final)["WIDGET_JS_PATH"] == target


def test_the_backend_image_installs_the_pinned_torch_from_the_cpu_index() -> None:
    text = BACKEND.read_text()
    assert re.search(r"ARG TORCH_INDEX_URL\n", text), "no default index: a CUDA build"
    assert '--index-url "$TORCH_INDEX_URL" "$(grep -E \'^torch==\' ' in text
    requirements = (REPO / "backend" / "requirements.txt").read_text()
    assert re.search(r"^torch==2\.13\.0$", requirements, re.M)


def test_the_backend_build_context_sends_what_the_dockerfile_copies() -> None:
    ignore = (REPO / "backend" / "Dockerfile.dockerignore").read_text().splitlines()
    allowed = [line[1:].rstrip("/") for line in ignore if line.startswith("!")]
    assert "*" in ignore, "everything else stays out"
    for name, args in instructions(BACKEND):
        if name == "COPY" and "--from=" not in args:
            for source in args.split()[:-1]:
                source = source.rstrip("/")
                assert any(source == a or source.startswith(f"{a}/") for a in allowed), source

"""`make run`'s UI: the stamp decides whether `next build` runs, and the run path serves the
production build under `next start` with the UI's own security headers."""

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from benchmarks.chromium import BrowserThread
from openguru.providers.vectorstore.lite_server import free_port

from tests.browser.next_site import FRONTEND, process_group_stop

SCRIPTS = Path(__file__).resolve().parents[2] / "backend" / "scripts"
sys.path.insert(0, str(SCRIPTS))

from ui_build import dist_dir, ui_argv, ui_build_if_changed  # noqa: E402

# Stands in for `next build`: counts its runs and makes the build folder.
FAKE_NEXT = """#!/bin/sh
echo "$1" >> "$BUILDS_LOG"
mkdir -p .next
"""


@pytest.fixture
def fake_frontend(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    frontend = tmp_path / "frontend"
    (frontend / "app").mkdir(parents=True)
    (frontend / "app" / "page.tsx").write_text("export default function Page() {}\n")
    (frontend / "package.json").write_text("{}")
    next_bin = tmp_path / "next"
    next_bin.write_text(FAKE_NEXT)
    next_bin.chmod(0o755)
    env = {**os.environ, "BUILDS_LOG": str(tmp_path / "builds.log"), "NEXT_PUBLIC_API_URL": ""}
    env.pop("NEXT_DIST_DIR", None)
    return frontend, next_bin, env


def _builds(env: dict[str, str]) -> int:
    log = Path(env["BUILDS_LOG"])
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_the_ui_is_built_once_and_again_only_when_its_sources_change(fake_frontend) -> None:
    frontend, next_bin, env = fake_frontend
    assert ui_build_if_changed(frontend=frontend, env=env, next_bin=next_bin)
    assert not ui_build_if_changed(frontend=frontend, env=env, next_bin=next_bin)
    assert _builds(env) == 1

    # Build output, installed packages and the widget's own bundle are not the UI's sources.
    (frontend / ".next" / "cache.json").write_text("{}")
    (frontend / "node_modules").mkdir()
    (frontend / "node_modules" / "x.js").write_text("1")
    (frontend / "widget").mkdir()
    (frontend / "widget" / "index.ts").write_text("1")
    assert not ui_build_if_changed(frontend=frontend, env=env, next_bin=next_bin)

    (frontend / "app" / "page.tsx").write_text("export default function Page() { return 1 }\n")
    assert ui_build_if_changed(frontend=frontend, env=env, next_bin=next_bin)
    # A setting the build bakes in counts too.
    env["NEXT_PUBLIC_API_URL"] = "http://127.0.0.1:8001"
    assert ui_build_if_changed(frontend=frontend, env=env, next_bin=next_bin)
    assert not ui_build_if_changed(frontend=frontend, env=env, next_bin=next_bin)
    assert _builds(env) == 3


def test_a_failed_build_is_tried_again_on_the_next_run(fake_frontend) -> None:
    frontend, next_bin, env = fake_frontend
    ui_build_if_changed(frontend=frontend, env=env, next_bin=next_bin)
    (frontend / "app" / "page.tsx").write_text("broken")
    next_bin.write_text('#!/bin/sh\necho "$1" >> "$BUILDS_LOG"\nexit 1\n')
    with pytest.raises(subprocess.CalledProcessError):
        ui_build_if_changed(frontend=frontend, env=env, next_bin=next_bin)
    with pytest.raises(subprocess.CalledProcessError):
        ui_build_if_changed(frontend=frontend, env=env, next_bin=next_bin)
    assert _builds(env) == 3


@pytest.fixture(scope="module")
def run_ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, bool]]:
    """The UI as `make run` starts it (the API is not needed for the home page's shell), in a
    build folder of its own so a developer's `.next` stays as it is."""
    port = free_port()
    folder = f".next/run-tests-{port}"
    tsconfig = FRONTEND / f"{folder}.tsconfig.json"
    tsconfig.parent.mkdir(parents=True, exist_ok=True)
    tsconfig.write_text(json.dumps({"extends": "../tsconfig.json"}))
    env = {
        **os.environ,
        "NEXT_DIST_DIR": folder,
        "NEXT_TSCONFIG_PATH": str(tsconfig.relative_to(FRONTEND)),
        "OPENGURU_API_URL": f"http://127.0.0.1:{free_port()}",
        "NEXT_PUBLIC_API_URL": "",
        "NEXT_TELEMETRY_DISABLED": "1",
    }
    env.pop("NODE_ENV", None)
    next_bin = FRONTEND / "node_modules" / ".bin" / "next"
    log = (tmp_path_factory.mktemp("run-ui") / "next.log").open("wb")
    process = None
    try:
        ui_build_if_changed(frontend=FRONTEND, env=env, next_bin=next_bin)
        rebuilt = ui_build_if_changed(frontend=FRONTEND, env=env, next_bin=next_bin)
        process = subprocess.Popen(
            ui_argv(next_bin=next_bin, mode="start", port=port),
            cwd=FRONTEND,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        origin = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                httpx.get(f"{origin}/robots.txt", timeout=10)
                break
            except httpx.HTTPError:
                assert process.poll() is None, "next start exited"
                time.sleep(0.3)
        yield origin, rebuilt
    finally:
        if process is not None:
            process_group_stop(process)
        log.close()
        shutil.rmtree(dist_dir(frontend=FRONTEND, env=env), ignore_errors=True)
        tsconfig.unlink(missing_ok=True)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_run_path_serves_the_production_build_with_its_security_headers(
    chromium: BrowserThread,
    run_ui: tuple[str, bool],
) -> None:
    origin, rebuilt = run_ui
    assert not rebuilt, "a second run with unchanged sources built again"

    page = chromium.new_page(viewport={"width": 390, "height": 800})

    def scenario() -> dict:
        response = page.goto(f"{origin}/")
        assert response is not None
        page.wait_for_timeout(1500)  # the dev overlay mounts after hydration
        return {
            "headers": response.headers,
            "badges": page.locator("nextjs-portal").count(),
            "scripts": page.locator("script[src]").evaluate_all("s => s.map(e => e.src)"),
        }

    try:
        seen = chromium.run(scenario, timeout=120)
    finally:
        chromium.close_page(page)
    assert seen["badges"] == 0, "the Next.js dev badge is on the page"
    assert seen["scripts"] and all(s.startswith(f"{origin}/_next/static/") for s in seen["scripts"])
    dev_markers = ("development", "hmr-client", "next-devtools")
    assert not [src for src in seen["scripts"] if any(m in src for m in dev_markers)]
    headers = seen["headers"]
    csp = headers.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "frame-ancestors 'self'" in csp, headers
    assert headers.get("referrer-policy") == "strict-origin-when-cross-origin"
    assert headers.get("x-content-type-options") == "nosniff"

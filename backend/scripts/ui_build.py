"""The UI `make run` serves: `next build` once, then `next start`; rebuilt only when the UI's
sources (or the settings a build bakes in) changed since the last build.

A stamp file inside the build folder holds a fingerprint of everything the build reads; when it
matches, the build is reused, so a second `make run` starts the UI in seconds. `make dev` runs
`next dev` instead, for people changing the UI.
"""

import hashlib
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path

STAMP = "openguru-build.stamp"
# Read by `next build` and written into the build: the /api rewrite's target, the browser's API
# origin (inlined), and the public origin of pages rendered at build time (robots.txt).
BAKED_SETTINGS = ("OPENGURU_API_URL", "NEXT_PUBLIC_API_URL", "SITE_URL")
# Not the UI's sources: installed packages, build output, and the widget (bundled on its own).
SKIPPED_DIRS = {"node_modules", ".next", "widget"}
SKIPPED_FILES = {"next-env.d.ts"}


def _sources(frontend: Path) -> Iterator[Path]:
    for path in sorted(frontend.iterdir()):
        if path.is_dir():
            if path.name not in SKIPPED_DIRS and not path.name.startswith("."):
                yield from _sources(path)
        elif path.name not in SKIPPED_FILES and path.suffix != ".tsbuildinfo":
            yield path


def ui_fingerprint(*, frontend: Path, env: Mapping[str, str]) -> str:
    digest = hashlib.sha256()
    for path in _sources(frontend):
        digest.update(str(path.relative_to(frontend)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    for name in BAKED_SETTINGS:
        digest.update(f"{name}={env.get(name, '')}\0".encode())
    return digest.hexdigest()


def dist_dir(*, frontend: Path, env: Mapping[str, str]) -> Path:
    """The build folder, as next.config.ts names it."""
    return frontend / (env.get("NEXT_DIST_DIR") or ".next")


def ui_build_if_changed(*, frontend: Path, env: Mapping[str, str], next_bin: Path) -> bool:
    """Runs `next build` unless the stamp matches the sources; True when it built."""
    stamp = dist_dir(frontend=frontend, env=env) / STAMP
    if stamp.is_file() and stamp.read_text() == ui_fingerprint(frontend=frontend, env=env):
        return False
    print("Building the UI (once; again only when frontend/ changes)…", flush=True)
    stamp.unlink(missing_ok=True)  # a failed build must not leave the old stamp valid
    subprocess.run([str(next_bin), "build"], cwd=frontend, env=dict(env), check=True)
    # Taken after the build: `next build` may rewrite files it reads (tsconfig.json).
    stamp.write_text(ui_fingerprint(frontend=frontend, env=env))
    return True


def ui_argv(*, next_bin: Path, mode: str, port: int) -> list[str]:
    """`next start` serves the build; `next dev` compiles on request and reloads on change."""
    return [str(next_bin), mode, "--hostname", "127.0.0.1", "--port", str(port)]

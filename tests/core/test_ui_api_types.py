"""The UI's API types (frontend/lib/api/schema.d.ts) are generated with openapi-typescript from
the committed schema snapshot (tests/core/openapi_snapshot.json, which test_openapi_snapshot.py
holds equal to /api/schema/): this fails when the snapshot changed and the types were not
generated again (`npm run api:types` in frontend/)."""

import json
import shlex
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FRONTEND = REPO / "frontend"
GENERATOR = FRONTEND / "node_modules" / ".bin" / "openapi-typescript"
SNAPSHOT = Path(__file__).with_name("openapi_snapshot.json")
COMMITTED = FRONTEND / "lib" / "api" / "schema.d.ts"


def generator_args(output: Path) -> list[str]:
    """`npm run api:types`'s own command (its options included), writing to `output`."""
    script = json.loads((FRONTEND / "package.json").read_text())["scripts"]["api:types"]
    args = shlex.split(script)
    assert args[0] == "openapi-typescript" and "-o" in args, script
    args[0] = str(GENERATOR)
    args[args.index("-o") + 1] = str(output)
    return args


def test_the_ui_api_types_match_the_schema(tmp_path: Path) -> None:
    if not GENERATOR.is_file():
        pytest.fail(f"{GENERATOR} is missing: run `npm ci` in frontend/")
    generated = tmp_path / "schema.d.ts"
    subprocess.run(
        generator_args(generated),
        cwd=FRONTEND,
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert generated.read_text() == COMMITTED.read_text(), (
        "frontend/lib/api/schema.d.ts is out of date: run `npm run api:types` in frontend/"
    )

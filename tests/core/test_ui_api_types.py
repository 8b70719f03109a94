"""The UI's API types (frontend/lib/api/schema.d.ts) are generated from /api/schema/ with
openapi-typescript: this fails when the API changed and the file was not generated again
(`cd frontend && npm run api:types` against a running API)."""

import json
import subprocess
from pathlib import Path

import pytest
from django.test import Client

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
GENERATOR = FRONTEND / "node_modules" / ".bin" / "openapi-typescript"
COMMITTED = FRONTEND / "lib" / "api" / "schema.d.ts"


def test_the_ui_api_types_match_the_schema(tmp_path: Path) -> None:
    if not GENERATOR.is_file():
        pytest.fail(f"{GENERATOR} is missing: run `npm ci` in frontend/")
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(response.json()))
    generated = tmp_path / "schema.d.ts"
    subprocess.run(
        [str(GENERATOR), str(schema), "-o", str(generated)],
        cwd=FRONTEND,
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert generated.read_text() == COMMITTED.read_text(), (
        "frontend/lib/api/schema.d.ts is out of date: run `npm run api:types` in frontend/"
    )

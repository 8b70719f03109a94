"""JSON-object output shared by the LLM providers: read what a model wrote and check its shape.

Even with a server-side schema, a model can stop mid-object (max tokens) or, in plain JSON mode,
wrap the object in a Markdown fence or drift from the schema. Callers get a dict that has the
schema's required keys with the right JSON types, or a `PROVIDER_ERROR` — never a half object.
"""

import json
import re
from collections.abc import Mapping
from typing import Any

from openguru.core.errors import DomainError, ErrorCode

_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL | re.IGNORECASE)
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def schema_instruction(schema: Mapping[str, Any]) -> str:
    """The prompt line that asks for JSON when the server cannot enforce a schema itself."""
    return (
        "Reply with one JSON object and nothing else. It must match this JSON Schema:\n"
        + json.dumps(schema, separators=(",", ":"))
    )


def parse_json_object(text: str | None, *, schema: Mapping[str, Any]) -> dict[str, Any]:
    stripped = (text or "").strip()
    fenced = _FENCE.match(stripped)
    if fenced:
        stripped = fenced.group(1)
    try:
        data = json.loads(stripped)
    except ValueError as error:
        raise _invalid("The language model did not return valid JSON.") from error
    if not isinstance(data, dict):
        raise _invalid("The language model returned JSON that is not an object.")
    problems = schema_violations(data, schema)
    if problems:
        raise _invalid("The language model's JSON does not match the schema.", problems)
    return data


def schema_violations(value: Any, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """The subset of JSON Schema that decides whether a caller can use the object:
    types, required keys, nested properties and array items (enough to refuse a wrong shape)."""
    kinds = _declared_types(schema)
    if kinds and not any(_is_type(value, kind) for kind in kinds):
        return [f"{path}: expected {'/'.join(kinds)}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{path}: not one of the allowed values"]
    problems: list[str] = []
    if isinstance(value, dict):
        properties = schema.get("properties") or {}
        problems += [
            f"{path}.{key}: missing" for key in schema.get("required", ()) if key not in value
        ]
        for key, sub_schema in properties.items():
            if key in value:
                problems += schema_violations(value[key], sub_schema, f"{path}.{key}")
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for index, item in enumerate(value):
            problems += schema_violations(item, schema["items"], f"{path}[{index}]")
    return problems


def _declared_types(schema: Mapping[str, Any]) -> list[str]:
    kind = schema.get("type")
    if kind is None:
        return []
    kinds = kind if isinstance(kind, list) else [kind]
    return [str(k).lower() for k in kinds if str(k).lower() in _JSON_TYPES]


def _is_type(value: Any, kind: str) -> bool:
    if isinstance(value, bool) and kind in ("integer", "number"):
        return False  # JSON booleans are not numbers, though Python's bool is an int
    if kind == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _JSON_TYPES[kind])


def _invalid(msg: str, problems: list[str] | None = None) -> DomainError:
    detail = {"problems": problems[:10]} if problems else None
    return DomainError(ErrorCode.PROVIDER_ERROR, msg, detail=detail)

"""How the async views appear in the OpenAPI document. drf-spectacular reads DRF views only, and
the async ones (answer streams, chat completions, the widget) are plain Django views: each says
with `@documented_by` which `Operation` describes it, and `stand_in_patterns` routes a generated
schema-only APIView at the view's own path in the schema's URLconf (config/openapi_urls.py)."""

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from django.urls import URLPattern, URLResolver, path
from django.utils.module_loading import import_string
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.authentication import BaseAuthentication
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from openguru.core.errors import DomainError, ErrorCode

V = TypeVar("V", bound=Callable[..., Any])

# Each documented async view, and the dotted path of the `Operation` that describes it.
STAND_INS: dict[Callable[..., Any], str] = {}


@dataclass(frozen=True)
class Operation:
    """What the document says of an async view's POST (in `extend_schema`'s terms), and who
    may call it. `description` is the operation's text; `auth` overrides the security that
    the authentication classes imply."""

    operation_id: str
    tag: str
    summary: str
    description: str
    request: Any
    responses: Mapping[Any, Any]
    examples: Sequence[OpenApiExample]
    authentication: Sequence[type[BaseAuthentication]] = ()
    permissions: Sequence[type[BasePermission]] = (AllowAny,)
    auth: list[Any] | None = None


def documented_by(operation: str) -> Callable[[V], V]:
    """Registers an async view as described by the `Operation` at `operation` (module.NAME).
    A dotted path, read only when the document is generated: the description imports the
    view's serializers, so the view's module must not import its description. Outermost: the
    URLconf routes the view as its decorators leave it."""

    def register(view: V) -> V:
        STAND_INS[view] = operation
        return view

    return register


def examples(
    values: Mapping[str, Any], *, request_only: bool = False, response_only: bool = False
) -> list[OpenApiExample]:
    """Named example bodies."""
    return [
        OpenApiExample(name, value=v, request_only=request_only, response_only=response_only)
        for name, v in values.items()
    ]


def response(schema: Any, description: str, **named: Any) -> OpenApiResponse:
    """A response of `schema` with its examples, each named by its keyword."""
    return OpenApiResponse(schema, description=description, examples=examples(named))


class SchemaOnlyApi(APIView):
    """Never routed: the real (async) view answers at its path."""

    parser_classes = [JSONParser]  # the async views read JSON bodies only

    def post(self, request: Request, *args: Any, **kwargs: Any) -> NoReturn:
        raise DomainError(ErrorCode.NOT_FOUND, "Not found.")


def stand_in(operation: Operation) -> type[APIView]:
    """The APIView drf-spectacular reads for `operation`; its docstring is the description."""
    view = type(
        f"{operation.operation_id}_stand_in",
        (SchemaOnlyApi,),
        {
            "__doc__": operation.description,
            "authentication_classes": list(operation.authentication),
            "permission_classes": list(operation.permissions),
        },
    )
    schema = extend_schema(
        operation_id=operation.operation_id,
        tags=[operation.tag],
        summary=operation.summary,
        request=operation.request,
        responses=dict(operation.responses),
        examples=list(operation.examples),
        auth=operation.auth,
    )
    return extend_schema_view(post=schema)(view)


def stand_in_patterns(
    patterns: Sequence[URLPattern | URLResolver],
    prefix: str = "",
    seen: set[Callable[..., Any]] | None = None,
) -> Iterator[URLPattern]:
    """A stand-in at the path of each documented view in `patterns`. A view routed at two
    paths (with and without a trailing slash) is documented at the first."""
    seen = set() if seen is None else seen
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from stand_in_patterns(pattern.url_patterns, prefix + str(pattern.pattern), seen)
        elif pattern.callback in STAND_INS and pattern.callback not in seen:
            seen.add(pattern.callback)
            view = stand_in(import_string(STAND_INS[pattern.callback])).as_view()
            yield path(prefix + str(pattern.pattern), view, name=pattern.name)

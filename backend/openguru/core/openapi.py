"""What the OpenAPI document (drf-spectacular) shares across apps: the error shape and its
responses, the two credential schemes and event streams (the async views' stand-ins:
openapi_stand_ins.py)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from drf_spectacular import generators, openapi
from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerExtension
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import Direction, OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from openguru.core.errors import ErrorCode


class ErrorSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=[str(code) for code in ErrorCode], help_text="Stable: for programs to branch on."
    )
    msg = serializers.CharField(help_text="For people; the wording may change.")
    detail = serializers.JSONField(
        required=False, help_text="Invalid input: the problems of each field."
    )


# The error each status usually carries: (when, code, an example message).
_ERRORS: dict[int, tuple[str, ErrorCode, str]] = {
    400: ("The request is invalid.", ErrorCode.INVALID_INPUT, "question: This field is required."),
    401: (
        "Missing or invalid credentials.",
        ErrorCode.NOT_AUTHENTICATED,
        "Send your API key in the X-API-KEY header.",
    ),
    403: (
        "These credentials may not do this.",
        ErrorCode.PERMISSION_DENIED,
        "You may not do this.",
    ),
    404: ("No such guru.", ErrorCode.GURU_NOT_FOUND, "No guru named 'python'."),
    409: ("It exists already.", ErrorCode.CONFLICT, "A guru named 'python' already exists."),
    413: ("A file is too large.", ErrorCode.FILE_TOO_LARGE, "PDFs may be at most 50 MB."),
    429: (
        "Too many requests; wait the seconds in Retry-After.",
        ErrorCode.RATE_LIMITED,
        "Too many requests with this API key; try again shortly.",
    ),
    502: (
        "The language model (or another provider) failed.",
        ErrorCode.PROVIDER_ERROR,
        "The language model returned no answer.",
    ),
    503: (
        "A provider is not configured or not reachable.",
        ErrorCode.NOT_CONFIGURED,
        "This guru was indexed with another embedding model; re-index it.",
    ),
}

Example = tuple[ErrorCode, str]


def error_example(code: ErrorCode, msg: str) -> OpenApiExample:
    return OpenApiExample(str(code), value={"msg": msg, "code": str(code)}, response_only=True)


def errors(
    *statuses: int, more: Mapping[int, Iterable[Example]] | None = None
) -> dict[int, OpenApiResponse]:
    """`{"msg", "code"}` responses for `statuses`, each with its usual example and `more`."""
    responses = {}
    for status in statuses:
        when, code, msg = _ERRORS[status]
        examples = [(code, msg), *(more or {}).get(status, ())]
        responses[status] = OpenApiResponse(
            ErrorSerializer,
            description=when,
            examples=[error_example(c, m) for c, m in examples],
        )
    return responses


PAGE_PARAMETERS = [
    OpenApiParameter("page", int, description="From 1; past the last page is a 404."),
    OpenApiParameter("page_size", int, description="50 unless given; at most 500."),
]


def page_of(item: type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """The schema of a `PageNumberPagination` page of `item`s, named `name`."""
    fields = {
        "count": serializers.IntegerField(help_text="Items on all pages."),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item(many=True),
    }
    return type(name, (serializers.Serializer,), fields)


def always_present(fields: Sequence[str]) -> dict[str, dict[str, Any]]:
    """An output ModelSerializer's `extra_kwargs`: each of `fields` is in every answer, so the
    schema lists it as required (a model default would make it look optional to clients)."""
    return {name: {"required": True} for name in fields}


class APIKeyScheme(OpenApiAuthenticationExtension):
    target_class = "openguru.integrations.apikeys.auth.APIKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema: openapi.AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "X-API-KEY",
            "description": "A personal API key (POST /api/api-keys/ or the UI); shown once.",
        }


class AdminTokenScheme(OpenApiAuthenticationExtension):
    target_class = "openguru.core.auth.AdminTokenAuthentication"
    name = "AdminToken"

    def get_security_definition(self, auto_schema: openapi.AutoSchema) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The admin token (OPENGURU_ADMIN_TOKEN), for scripts and the CLI.",
        }


class EventStream(serializers.Serializer):
    """A `text/event-stream` body, for the schema only: subclasses list the events it may
    carry, each as (event name, the serializer of its JSON `data` or its literal `data`). An
    event sent without a name is a "message"."""

    events: Sequence[tuple[str, type[serializers.Serializer] | str]] = ()


class EventStreamScheme(OpenApiSerializerExtension):
    """One schema per event (OpenAPI 3.1 reads a stream's schema as each event's): the event's
    name, and its `data`: JSON of the serializer's schema, or the literal."""

    target_class = EventStream
    match_subclasses = True

    def map_serializer(
        self, auto_schema: openapi.AutoSchema, direction: Direction
    ) -> dict[str, Any]:
        variants = []
        for name, data in self.target.events:
            data_schema: dict[str, Any]
            if isinstance(data, str):
                title, data_schema = data, {"const": data}
            else:
                component: ResolvedComponent = auto_schema.resolve_serializer(data, direction)
                title = component.name
                data_schema = {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": component.ref,
                }
            variants.append(
                {
                    "type": "object",
                    "title": f"{name}: {title}",
                    "required": ["event", "data"],
                    "properties": {"event": {"const": name}, "data": data_schema},
                }
            )
        return {"oneOf": variants}


class AutoSchema(openapi.AutoSchema):
    def get_request_serializer(self) -> Any:
        # A DELETE has a body only where `@extend_schema(request=…)` gives one: none to guess.
        return None if self.method == "DELETE" else super().get_request_serializer()

    def _get_request_body(self, direction: Direction = "request") -> Any:
        """Gurubase's API names what to delete in a DELETE's body (`{"ids": […]}`), which
        drf-spectacular documents for POST, PUT and PATCH only: such a body is built as a
        POST's would be."""
        if self.method != "DELETE" or self.get_request_serializer() is None:
            return super()._get_request_body(direction)
        self.method = "POST"
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"

    def get_serializer_name(self, serializer: serializers.Serializer, direction: Direction) -> str:
        """A view's nested serializer is named after the view, as every view has its own
        `InputSerializer`: `GuruListApi.InputSerializer` is `GuruListRequest` (drf-spectacular
        adds `Request`), `BingeCreateApi.OutputSerializer` is `BingeCreate`."""
        outer, _, name = type(serializer).__qualname__.rpartition(".")
        if not outer:
            return name
        for suffix in ("Serializer", "Input", "Output"):
            name = name.removesuffix(suffix)
        return outer.removesuffix("Api") + name


class SchemaGenerator(generators.SchemaGenerator):
    """`manage.py spectacular` passes no URLconf: use the one /api/schema/ serves, so both
    write the same document."""

    def __init__(self, *args: Any, urlconf: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, urlconf=urlconf or spectacular_settings.SERVE_URLCONF, **kwargs)

"""The audit log for admins: filtered pages, and the same filters as a streamed CSV."""

import csv
import json
from collections.abc import Iterator
from typing import Any

from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.audit.models import AuditEvent
from openguru.core.audit.selectors import audit_event_list
from openguru.core.auth import IsAdmin
from openguru.core.openapi import PAGE_PARAMETERS, errors, page_of

EXPORT_FIELDS = [
    "created_at", "action", "actor", "actor_id", "api_key_prefix", "client_ip", "guru_slug",
    "target_type", "target_id", "target", "before", "after",
]  # fmt: skip


# Cells a spreadsheet would read as a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class FiltersInput(serializers.Serializer):
    actor = serializers.CharField(max_length=200, required=False, default="")
    action = serializers.CharField(max_length=64, required=False, default="")
    guru = serializers.SlugField(max_length=64, required=False, default="")
    since = serializers.DateTimeField(required=False, default=None)
    until = serializers.DateTimeField(required=False, default=None)


FILTER_PARAMETERS = [
    OpenApiParameter("actor", str, description="Who acted: a username, or 'admin token'."),
    OpenApiParameter("action", str, description="An action, or its start: 'guru' finds guru.*."),
    OpenApiParameter("guru", str, description="A guru's slug."),
    OpenApiParameter("since", str, description="ISO 8601 date-time, inclusive."),
    OpenApiParameter("until", str, description="ISO 8601 date-time, exclusive."),
]


def _filtered(request: Request) -> QuerySet[AuditEvent]:
    query = FiltersInput(data=request.query_params)
    query.is_valid(raise_exception=True)
    data = query.validated_data
    return audit_event_list(
        actor=data["actor"],
        action=data["action"],
        guru_slug=data["guru"],
        since=data["since"],
        until=data["until"],
    )


class AuditEventOutput(serializers.ModelSerializer):
    class Meta:
        model = AuditEvent
        fields = ["id", *EXPORT_FIELDS]


_EVENT = {
    "id": 51,
    "created_at": "2025-01-01T12:00:00Z",
    "action": "guru.update",
    "actor": "ada",
    "actor_id": 2,
    "api_key_prefix": "",
    "client_ip": "203.0.113.7",
    "guru_slug": "python",
    "target_type": "guru",
    "target_id": "3",
    "target": "python",
    "before": {"name": "Python", "github_webhook_secret": ""},
    "after": {"name": "Python 3", "github_webhook_secret": "••••••"},
}


class AuditPages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


class AuditEventListApi(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        operation_id="audit_event_list",
        tags=["audit"],
        summary="The audit log: changes and sign-ins, newest first",
        parameters=[*FILTER_PARAMETERS, *PAGE_PARAMETERS],
        responses={200: page_of(AuditEventOutput, "AuditEventPage"), **errors(400, 401, 403)},
        examples=[
            OpenApiExample(
                "page",
                value={"count": 1, "next": None, "previous": None, "results": [_EVENT]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        pages = AuditPages()
        page = pages.paginate_queryset(_filtered(request), request, self)
        return pages.get_paginated_response(AuditEventOutput(page, many=True).data)


class _Echo:
    """A file-like object csv.writer writes one row to, handing it straight back."""

    def write(self, value: str) -> str:
        return value


def _csv_rows(events: QuerySet[AuditEvent]) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield writer.writerow(EXPORT_FIELDS)
    for row in events.values_list(*EXPORT_FIELDS).iterator(chunk_size=1000):
        yield writer.writerow([_cell(value) for value in row])


def _cell(value: Any) -> Any:
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        # A failed sign-in logs the name typed: never let a spreadsheet run it as a formula.
        return "'" + value
    return value


class AuditExportApi(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        operation_id="audit_event_export",
        tags=["audit"],
        summary="The audit log as CSV (streamed), with the list's filters",
        parameters=FILTER_PARAMETERS,
        responses={
            (200, "text/csv"): OpenApiResponse(str, description="One row per event."),
            **errors(400, 401, 403),
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        response = StreamingHttpResponse(_csv_rows(_filtered(request)), content_type="text/csv")
        response["Content-Disposition"] = 'attachment; filename="audit-log.csv"'
        return response

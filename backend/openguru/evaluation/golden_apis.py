"""The admin API of golden sets: a guru's question → expected-source pairs, and the history of
the runs that measure them (`evaluation/golden.py`)."""

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.accounts.access import GuruRolePermission
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.models import DB_ID_MAX
from openguru.core.openapi import PAGE_PARAMETERS, errors, page_of
from openguru.evaluation.golden import (
    golden_pair_create,
    golden_pair_delete,
    golden_pair_list,
    golden_run_list,
    golden_run_request,
)
from openguru.evaluation.golden_measure import golden_by_version
from openguru.evaluation.models import GoldenPair, GoldenRun
from openguru.gurus.selectors import guru_get


class GoldenPairOutput(serializers.ModelSerializer):
    class Meta:
        model = GoldenPair
        fields = ["id", "question", "expected_source_id", "expected_link", "origin", "created_at"]


class GoldenRunOutput(serializers.ModelSerializer):
    details = serializers.JSONField(
        help_text="Per pair: pair_id, question, expected_source_id, expected_link, found_rank "
        "(1-5, null when its source was not among the top 5 passages), refused, best "
        "relevance, the documentation version it was measured in, and the top passages "
        "(source_id, title, link, relevance)."
    )
    by_version = serializers.SerializerMethodField(
        help_text="Per documentation version: its pairs, recall@5 and refusal rate ({}: the "
        "guru has no versions)."
    )

    @extend_schema_field(
        serializers.DictField(child=serializers.DictField(child=serializers.FloatField()))
    )
    def get_by_version(self, run: GoldenRun) -> dict[str, dict[str, float]]:
        return golden_by_version(run.details or [])

    class Meta:
        model = GoldenRun
        fields = [
            "id",
            "status",
            "created_at",
            "finished_at",
            "trigger_source_id",
            "pairs",
            "recall_at_5",
            "refusal_rate",
            "flagged",
            "flag_reason",
            "error",
            "details",
            "by_version",
        ]


_PAIR_EXAMPLE = {
    "id": 3,
    "question": "How do I create a virtual environment?",
    "expected_source_id": 12,
    "expected_link": "https://docs.python.org/3/library/venv.html",
    "origin": "manual",
    "created_at": "2025-01-01T12:00:00Z",
}
_RUN_EXAMPLE = {
    "id": 9,
    "status": "done",
    "created_at": "2025-01-02T08:00:00Z",
    "finished_at": "2025-01-02T08:00:02Z",
    "trigger_source_id": 12,
    "pairs": 3,
    "recall_at_5": 0.6667,
    "refusal_rate": 0.3333,
    "flagged": True,
    "flag_reason": 'recall@5 fell from 1.00 to 0.67 (margin 0.10); no longer found: "How do I '
    'create a virtual environment?" over the 3 questions both runs asked',
    "error": "",
    "details": [
        {
            "pair_id": 3,
            "question": "How do I create a virtual environment?",
            "expected_source_id": 12,
            "expected_link": "",
            "version": "",
            "found_rank": None,
            "refused": True,
            "best": 0.21,
            "top": [{"source_id": 14, "title": "Packages", "link": "", "relevance": 0.21}],
        }
    ],
    "by_version": {},
}


class GoldenRunPages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


class GoldenPairListApi(APIView):
    permission_classes = [GuruRolePermission]

    class InputSerializer(serializers.Serializer):
        question = serializers.CharField(max_length=2000)
        expected_source_id = serializers.IntegerField(min_value=1, max_value=DB_ID_MAX)
        expected_link = serializers.CharField(
            max_length=2000,
            required=False,
            default="",
            allow_blank=True,
            help_text="One page of a source with many (a website page, `file.pdf#page=N`); "
            "a link without `#…` matches every section of that page. Empty: any page.",
        )

    @extend_schema(
        operation_id="golden_pair_list",
        tags=["golden sets"],
        summary="A guru's golden pairs (question → expected source)",
        responses={200: GoldenPairOutput(many=True), **errors(401, 403, 404)},
        examples=[OpenApiExample("pairs", value=[_PAIR_EXAMPLE], response_only=True)],
    )
    def get(self, request: Request, slug: str) -> Response:
        pairs = golden_pair_list(guru=guru_get(slug=slug))
        return Response(GoldenPairOutput(pairs, many=True).data)

    @extend_schema(
        operation_id="golden_pair_create",
        tags=["golden sets"],
        summary="Add a golden pair",
        description="FAQ sources add one pair per entry by themselves, kept in step with them.",
        request=InputSerializer,
        responses={201: GoldenPairOutput, **errors(400, 401, 403, 404, 409)},
        examples=[OpenApiExample("pair", value=_PAIR_EXAMPLE, response_only=True)],
    )
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = golden_pair_create(guru=guru_get(slug=slug), **data.validated_data)
        return Response(GoldenPairOutput(pair).data, status=status.HTTP_201_CREATED)


class GoldenPairDetailApi(APIView):
    permission_classes = [GuruRolePermission]

    @extend_schema(
        operation_id="golden_pair_delete",
        tags=["golden sets"],
        summary="Remove a golden pair",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, slug: str, pair_id: int) -> Response:
        golden_pair_delete(guru=guru_get(slug=slug), pair_id=pair_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GoldenRunListApi(APIView):
    permission_classes = [GuruRolePermission]

    @extend_schema(
        operation_id="golden_run_list",
        tags=["golden sets"],
        summary="The golden set's runs, newest first",
        description="A run follows every re-index of a source of the guru. It is flagged when "
        "recall@5 fell, or the refusal rate rose, by more than the configured margin since "
        "the previous run.",
        parameters=PAGE_PARAMETERS,
        responses={200: page_of(GoldenRunOutput, "GoldenRunPage"), **errors(401, 403, 404)},
        examples=[
            OpenApiExample(
                "page",
                value={"count": 1, "next": None, "previous": None, "results": [_RUN_EXAMPLE]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, slug: str) -> Response:
        pages = GoldenRunPages()
        page = pages.paginate_queryset(golden_run_list(guru=guru_get(slug=slug)), request, self)
        return pages.get_paginated_response(GoldenRunOutput(page, many=True).data)

    @extend_schema(
        operation_id="golden_run_create",
        tags=["golden sets"],
        summary="Run the golden set now",
        description="Queued on the task queue; when a run is already queued or running, that "
        "run is returned instead of a second one.",
        request=None,
        responses={202: GoldenRunOutput, **errors(400, 401, 403, 404)},
        examples=[OpenApiExample("run", value=_RUN_EXAMPLE, response_only=True)],
    )
    def post(self, request: Request, slug: str) -> Response:
        run = golden_run_request(guru_id=guru_get(slug=slug).pk)
        if run is None:
            raise DomainError(ErrorCode.INVALID_INPUT, "This guru has no golden pairs yet.")
        run.refresh_from_db()  # an eager task queue has run it already
        return Response(GoldenRunOutput(run).data, status=status.HTTP_202_ACCEPTED)

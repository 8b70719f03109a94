"""Gurubase's public API v1: the base view every v1 endpoint shares, sessions and search
(data sources: `source_apis.py`; crawls: `crawl_apis.py`; the answer stream: `answer.py`).
Thin views over the sources and answers services; every error is `{"msg", "code"}`."""

from typing import Any, NoReturn
from uuid import UUID

from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.answers.apis import ReferenceSerializer
from openguru.answers.channels.gurubase import answer_payload, question_data
from openguru.answers.channels.gurubase_docs import ANSWER_EXAMPLE
from openguru.answers.engine.providers import providers_for
from openguru.answers.engine.search import MAX_SEARCH_RESULTS, passages_search
from openguru.answers.selectors import binge_get, binge_list, binge_questions
from openguru.answers.services import binge_delete
from openguru.api_v1.access import Caller, caller_guru
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import PAGE_PARAMETERS, errors, page_of
from openguru.integrations.apikeys.auth import APIKeyAuthentication, HasAPIKey
from openguru.integrations.models import APIKey


class V1Api(APIView):
    """Authenticated by `X-API-KEY` only, counted against the key's rate limit, on one guru."""

    authentication_classes = [APIKeyAuthentication]
    permission_classes = [HasAPIKey]
    caller: Caller

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        key = request.auth
        assert isinstance(key, APIKey)
        self.caller = caller_guru(key=key, guru_slug=kwargs["guru_slug"])

    def permission_denied(
        self, request: Request, message: Any = None, code: Any = None
    ) -> NoReturn:
        raise DomainError(ErrorCode.NOT_AUTHENTICATED, "Send your API key in the X-API-KEY header.")


class Pages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


V1_ERRORS = errors(401, 404, 429)


class SessionOutput(serializers.Serializer):
    session_id = serializers.UUIDField(source="pk")
    title = serializers.CharField(source="root_question.question", default="")
    date_created = serializers.DateTimeField(source="created_at")
    date_updated = serializers.DateTimeField(source="updated_at")


class AnswerOutput(serializers.Serializer):
    """An answer in Gurubase's shape."""

    slug = serializers.SlugField()
    content = serializers.CharField(help_text="Markdown.")
    question = serializers.CharField()
    date_updated = serializers.DateTimeField()
    trust_score = serializers.IntegerField(min_value=0, max_value=100)
    references = ReferenceSerializer(many=True)
    session_id = serializers.UUIDField(allow_null=True)


_SESSION_EXAMPLE = {
    "session_id": "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40",
    "title": "How do I create a virtual environment?",
    "date_created": "2025-01-01T12:00:00Z",
    "date_updated": "2025-01-01T12:05:00Z",
}


class SessionsApi(V1Api):
    @extend_schema(
        operation_id="v1_sessions_list",
        tags=["v1 sessions"],
        summary="Your sessions with the guru",
        parameters=PAGE_PARAMETERS,
        responses={200: page_of(SessionOutput, "SessionPage"), **V1_ERRORS},
        examples=[
            OpenApiExample(
                "page",
                value={"count": 1, "next": None, "previous": None, "results": [_SESSION_EXAMPLE]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, guru_slug: str) -> Response:
        pages = Pages()
        binges = binge_list(guru=self.caller.guru, owner=self.caller.key.user)
        page = pages.paginate_queryset(binges, request, view=self)
        return pages.get_paginated_response(SessionOutput(page, many=True).data)


class SessionDetailApi(V1Api):
    class OutputSerializer(SessionOutput):
        questions = AnswerOutput(many=True)

    @extend_schema(
        operation_id="v1_session_get",
        tags=["v1 sessions"],
        summary="A session and its answers",
        responses={200: OutputSerializer, **V1_ERRORS},
        examples=[
            OpenApiExample(
                "session",
                value={**_SESSION_EXAMPLE, "questions": [ANSWER_EXAMPLE]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, guru_slug: str, session_id: UUID) -> Response:
        binge = binge_get(guru=self.caller.guru, binge_id=session_id, owner=self.caller.key.user)
        questions = [
            answer_payload(question_data(q), session_id=str(binge.pk))
            for q in binge_questions(binge=binge)
        ]
        return Response({**SessionOutput(binge).data, "questions": questions})

    @extend_schema(
        operation_id="v1_session_delete",
        tags=["v1 sessions"],
        summary="Delete a session and its answers",
        responses={
            200: inline_serializer("Message", {"msg": serializers.CharField()}),
            **V1_ERRORS,
        },
        examples=[OpenApiExample("deleted", value={"msg": "Session deleted."}, response_only=True)],
    )
    def delete(self, request: Request, guru_slug: str, session_id: UUID) -> Response:
        binge = binge_get(guru=self.caller.guru, binge_id=session_id, owner=self.caller.key.user)
        binge_delete(binge=binge)
        return Response({"msg": "Session deleted."})


class SearchApi(V1Api):
    class InputSerializer(serializers.Serializer):
        query = serializers.CharField(max_length=2000)
        limit = serializers.IntegerField(
            required=False, default=10, min_value=1, max_value=MAX_SEARCH_RESULTS
        )

    @extend_schema_serializer(component_name="Passage")
    class OutputSerializer(serializers.Serializer):
        title = serializers.CharField()
        link = serializers.CharField()
        text = serializers.CharField()
        score = serializers.FloatField()

    @extend_schema(
        operation_id="v1_search",
        tags=["v1 search"],
        summary="Search the guru's sources (no answer)",
        description="The passages an answer would be built from, best first.",
        request=InputSerializer,
        responses={
            200: inline_serializer("SearchResults", {"results": OutputSerializer(many=True)}),
            **errors(400, 401, 404, 429, 503),
        },
        examples=[
            OpenApiExample(
                "search", value={"query": "virtual environment", "limit": 3}, request_only=True
            ),
            OpenApiExample(
                "results",
                value={
                    "results": [
                        {
                            "title": "Virtual environments",
                            "link": "https://docs.python.org/3/library/venv.html",
                            "text": "Create a virtual environment with python -m venv myenv.",
                            "score": 0.83,
                        }
                    ]
                },
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request, guru_slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        passages = passages_search(
            guru=self.caller.guru,
            providers=providers_for(self.caller.guru),
            query=data.validated_data["query"],
            limit=data.validated_data["limit"],
        )
        return Response({"results": self.OutputSerializer(passages, many=True).data})

"""Gurubase's public API v1 (besides the answer stream): data sources, sessions and search.
Thin views over the sources and answers services; every error is `{"msg", "code"}`."""

from typing import Any, NoReturn
from uuid import UUID

from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.answers.apis import ReferenceSerializer
from openguru.answers.search import MAX_SEARCH_RESULTS, passages_search
from openguru.answers.selectors import binge_get, binge_list, binge_questions
from openguru.answers.services import binge_delete
from openguru.api_v1.access import Caller, caller_guru, require_staff
from openguru.api_v1.gurubase import SOURCE_STATUSES, SOURCE_TYPES, answer_payload, question_data
from openguru.api_v1.services import NewSource, sources_add, sources_each, sources_upload
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import PAGE_PARAMETERS, errors, page_of
from openguru.integrations.auth import APIKeyAuthentication, HasAPIKey
from openguru.integrations.models import APIKey
from openguru.sources.models import DataSource
from openguru.sources.selectors import source_list
from openguru.sources.services import source_delete, source_reindex


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


class DataSourceOutput(serializers.ModelSerializer):
    type = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    error = serializers.CharField(source="user_error")
    date_created = serializers.DateTimeField(source="created_at")
    last_reindex_date = serializers.DateTimeField(source="last_indexed_at", allow_null=True)

    class Meta:
        model = DataSource
        fields = [
            "id", "type", "url", "title", "status", "error", "date_created", "private",
            "last_reindex_date", "reindex_count", "progress",
        ]  # fmt: skip

    @extend_schema_field(serializers.ChoiceField(choices=sorted(SOURCE_TYPES.values())))
    def get_type(self, source: DataSource) -> str:
        return SOURCE_TYPES[DataSource.Type(source.type)]

    @extend_schema_field(serializers.ChoiceField(choices=sorted(set(SOURCE_STATUSES.values()))))
    def get_status(self, source: DataSource) -> str:
        return SOURCE_STATUSES[DataSource.Status(source.status)]


class SourceAddResult(serializers.Serializer):
    """One per item sent: added, already there, or refused (with why)."""

    type = serializers.ChoiceField(choices=sorted(SOURCE_TYPES.values()))
    url = serializers.CharField()
    status = serializers.ChoiceField(choices=["success", "exists", "error"])
    id = serializers.IntegerField(allow_null=True)
    title = serializers.CharField(allow_blank=True)
    message = serializers.CharField(required=False)


class IdsOutput(serializers.Serializer):
    msg = serializers.CharField()
    ids = serializers.ListField(child=serializers.IntegerField(), help_text="The sources found.")


V1_ERRORS = errors(401, 404, 429)
_SOURCES_EXAMPLE = {
    "id": 7,
    "type": "WEBSITE",
    "url": "https://docs.python.org/3/tutorial/",
    "title": "The Python Tutorial",
    "status": "SUCCESS",
    "error": "",
    "date_created": "2025-01-01T12:00:00Z",
    "private": False,
    "last_reindex_date": "2025-01-01T12:03:00Z",
    "reindex_count": 0,
    "progress": {},
}


class _Named(serializers.Serializer):
    name = serializers.CharField(max_length=500, required=False, allow_blank=True)
    content = serializers.CharField(trim_whitespace=False)


class IdsInput(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(), min_length=1, max_length=1000)


class DataSourcesApi(V1Api):
    class AddInput(serializers.Serializer):
        website_urls = serializers.ListField(
            child=serializers.CharField(max_length=2000), required=False, max_length=1000
        )
        youtube_urls = serializers.ListField(
            child=serializers.CharField(max_length=2000), required=False, max_length=1000
        )
        github_urls = serializers.ListField(
            child=serializers.CharField(max_length=2000), required=False, max_length=100
        )
        text_sources = serializers.ListField(child=_Named(), required=False, max_length=1000)
        faq_sources = serializers.ListField(child=_Named(), required=False, max_length=1000)

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            unknown = sorted(set(self.initial_data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({unknown[0]: "Unknown source type."})
            if not any(attrs.values()):
                raise serializers.ValidationError(
                    "Send at least one of website_urls, youtube_urls, github_urls, "
                    "text_sources, faq_sources (or PDFs as multipart pdf_files)."
                )
            return attrs

    class UploadInput(serializers.Serializer):
        pdf_files = serializers.ListField(child=serializers.FileField(), help_text="PDFs.")

    @extend_schema(
        operation_id="v1_data_sources_list",
        tags=["v1 data sources"],
        summary="The guru's data sources",
        parameters=PAGE_PARAMETERS,
        responses={200: page_of(DataSourceOutput, "DataSourcePage"), **V1_ERRORS},
        examples=[
            OpenApiExample(
                "page",
                value={"count": 1, "next": None, "previous": None, "results": [_SOURCES_EXAMPLE]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, guru_slug: str) -> Response:
        pages = Pages()
        page = pages.paginate_queryset(source_list(guru=self.caller.guru), request, view=self)
        return pages.get_paginated_response(DataSourceOutput(page, many=True).data)

    @extend_schema(
        operation_id="v1_data_sources_add",
        tags=["v1 data sources"],
        summary="Add data sources (indexed in the background)",
        description="JSON lists of URLs and texts, or PDFs as multipart `pdf_files`. Each item "
        "is added or refused on its own; PDFs are checked first and refused all together. "
        "Needs a staff user's key.",
        request={"application/json": AddInput, "multipart/form-data": UploadInput},
        responses={
            200: SourceAddResult(many=True),
            **errors(400, 401, 403, 404, 413, 429),
        },
        examples=[
            OpenApiExample(
                "urls and text",
                value={
                    "website_urls": ["https://docs.python.org/3/tutorial/"],
                    "text_sources": [{"name": "Style", "content": "Use four spaces."}],
                },
                request_only=True,
            ),
            OpenApiExample(
                "added",
                value=[
                    {
                        "type": "WEBSITE",
                        "url": "https://docs.python.org/3/tutorial/",
                        "status": "success",
                        "id": 7,
                        "title": "",
                    },
                    {
                        "type": "TEXT",
                        "url": "",
                        "status": "error",
                        "id": None,
                        "title": "",
                        "message": "The text is empty.",
                    },
                ],
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request, guru_slug: str) -> Response:
        require_staff(self.caller)
        guru = self.caller.guru
        files = request.FILES.getlist("pdf_files") or request.FILES.getlist("files")
        if files:
            return Response(sources_upload(guru=guru, files=files))
        data = self.AddInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(sources_add(guru=guru, items=_new_sources(data.validated_data)))

    @extend_schema(
        operation_id="v1_data_sources_delete",
        tags=["v1 data sources"],
        summary="Delete data sources",
        description="Needs a staff user's key. Ids of other gurus' sources are skipped.",
        request=IdsInput,
        responses={200: IdsOutput, **errors(400, 401, 403, 404, 429)},
        examples=[
            OpenApiExample("ids", value={"ids": [7, 8]}, request_only=True),
            OpenApiExample(
                "deleted",
                value={"msg": "Deleted 2 data source(s).", "ids": [7, 8]},
                response_only=True,
            ),
        ],
    )
    def delete(self, request: Request, guru_slug: str) -> Response:
        require_staff(self.caller)
        data = IdsInput(data=request.data)
        data.is_valid(raise_exception=True)
        ids = data.validated_data["ids"]
        deleted = sources_each(guru=self.caller.guru, ids=ids, action=_delete)
        return Response({"msg": f"Deleted {len(deleted)} data source(s).", "ids": deleted})


def _delete(source: DataSource) -> None:
    source_delete(source=source)


def _new_sources(data: dict[str, Any]) -> list[NewSource]:
    kinds = (
        ("website_urls", DataSource.Type.WEBSITE),
        ("youtube_urls", DataSource.Type.YOUTUBE),
        ("github_urls", DataSource.Type.GITHUB_REPO),
    )
    items = [NewSource(type=kind, url=url) for field, kind in kinds for url in data.get(field, [])]
    for field, kind in (("text_sources", DataSource.Type.TEXT), ("faq_sources", "faq")):
        items += [
            NewSource(type=kind, title=t.get("name", ""), content=t["content"])
            for t in data.get(field, [])
        ]
    return items


class DataSourcesReindexApi(V1Api):
    @extend_schema(
        operation_id="v1_data_sources_reindex",
        tags=["v1 data sources"],
        summary="Index data sources again (only what changed)",
        description="Needs a staff user's key.",
        request=IdsInput,
        responses={200: IdsOutput, **errors(400, 401, 403, 404, 429)},
        examples=[
            OpenApiExample("ids", value={"ids": [7]}, request_only=True),
            OpenApiExample(
                "queued",
                value={"msg": "Queued 1 data source(s) for re-indexing.", "ids": [7]},
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request, guru_slug: str) -> Response:
        require_staff(self.caller)
        data = IdsInput(data=request.data)
        data.is_valid(raise_exception=True)
        queued = sources_each(
            guru=self.caller.guru, ids=data.validated_data["ids"], action=_reindex
        )
        return Response(
            {"msg": f"Queued {len(queued)} data source(s) for re-indexing.", "ids": queued}
        )


def _reindex(source: DataSource) -> None:
    source_reindex(source=source)


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


ANSWER_EXAMPLE = {
    "slug": "how-do-i-create-a-virtual-environment",
    "content": "Create one with `python -m venv myenv` [1].",
    "question": "How do I create a virtual environment?",
    "date_updated": "2025-01-01T12:00:00+00:00",
    "trust_score": 82,
    "references": [
        {
            "link": "https://docs.python.org/3/library/venv.html",
            "icon": "web",
            "title": "Virtual environments",
        }
    ],
    "session_id": "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40",
}
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
            query=data.validated_data["query"],
            limit=data.validated_data["limit"],
        )
        return Response({"results": self.OutputSerializer(passages, many=True).data})

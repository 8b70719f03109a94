"""Gurubase's public API v1 (besides the answer stream): data sources, sessions and search.
Thin views over the sources and answers services; every error is `{"msg", "code"}`."""

from typing import Any, NoReturn
from uuid import UUID

from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.answers.search import MAX_SEARCH_RESULTS, passages_search
from openguru.answers.selectors import binge_get, binge_list, binge_questions
from openguru.answers.services import binge_delete
from openguru.api_v1.access import Caller, caller_guru, require_staff
from openguru.api_v1.gurubase import SOURCE_STATUSES, SOURCE_TYPES, answer_payload, question_data
from openguru.api_v1.services import NewSource, sources_add, sources_each, sources_upload
from openguru.core.errors import DomainError, ErrorCode
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

    def get_type(self, source: DataSource) -> str:
        return SOURCE_TYPES[DataSource.Type(source.type)]

    def get_status(self, source: DataSource) -> str:
        return SOURCE_STATUSES[DataSource.Status(source.status)]


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

    def get(self, request: Request, guru_slug: str) -> Response:
        pages = Pages()
        page = pages.paginate_queryset(source_list(guru=self.caller.guru), request, view=self)
        return pages.get_paginated_response(DataSourceOutput(page, many=True).data)

    def post(self, request: Request, guru_slug: str) -> Response:
        require_staff(self.caller)
        guru = self.caller.guru
        files = request.FILES.getlist("pdf_files") or request.FILES.getlist("files")
        if files:
            return Response(sources_upload(guru=guru, files=files))
        data = self.AddInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(sources_add(guru=guru, items=_new_sources(data.validated_data)))

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


class SessionsApi(V1Api):
    def get(self, request: Request, guru_slug: str) -> Response:
        pages = Pages()
        binges = binge_list(guru=self.caller.guru, owner=self.caller.key.user)
        page = pages.paginate_queryset(binges, request, view=self)
        return pages.get_paginated_response(SessionOutput(page, many=True).data)


class SessionDetailApi(V1Api):
    def get(self, request: Request, guru_slug: str, session_id: UUID) -> Response:
        binge = binge_get(guru=self.caller.guru, binge_id=session_id, owner=self.caller.key.user)
        questions = [
            answer_payload(question_data(q), session_id=str(binge.pk))
            for q in binge_questions(binge=binge)
        ]
        return Response({**SessionOutput(binge).data, "questions": questions})

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

    class OutputSerializer(serializers.Serializer):
        title = serializers.CharField()
        link = serializers.CharField()
        text = serializers.CharField()
        score = serializers.FloatField()

    def post(self, request: Request, guru_slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        passages = passages_search(
            guru=self.caller.guru,
            query=data.validated_data["query"],
            limit=data.validated_data["limit"],
        )
        return Response({"results": self.OutputSerializer(passages, many=True).data})

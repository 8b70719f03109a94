from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.openapi import always_present, errors
from openguru.gurus.selectors import guru_get
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource
from openguru.sources.selectors import source_get, source_list
from openguru.sources.services import (
    source_create,
    source_create_upload,
    source_credential_replace,
    source_delete,
    source_reindex,
)
from openguru.sources.versions import VERSION_MAX_CHARS, source_version_set


class IndexStatsOutput(serializers.Serializer):
    """`sources/indexing.py`'s IndexStats: a running source may not have every counter yet."""

    pages_discovered = serializers.IntegerField(required=False)
    pages_fetched = serializers.IntegerField(required=False)
    pages_skipped = serializers.IntegerField(required=False)
    pages_failed = serializers.IntegerField(required=False)
    chunks_total = serializers.IntegerField(required=False, help_text="After this run.")
    chunks_new = serializers.IntegerField(required=False, help_text="Written in this run.")
    chunks_embedded = serializers.IntegerField(
        required=False, help_text="Embedded in this run (the rest came from the cache)."
    )
    chunks_unchanged = serializers.IntegerField(required=False)
    chunks_deleted = serializers.IntegerField(required=False)


# Stored as JSON by the indexer: documented, passed through as stored.
@extend_schema_field(IndexStatsOutput)
class IndexStatsField(serializers.DictField):
    """Indexing counters."""


class SourceOutput(serializers.ModelSerializer):
    options = serializers.DictField(
        read_only=True, help_text="Crawl depth and limits, include and exclude patterns."
    )
    progress = IndexStatsField(read_only=True, help_text="While it runs; {} before.")
    last_result = IndexStatsField(read_only=True, help_text="The last finished run; {} before.")
    has_token = serializers.SerializerMethodField(
        help_text="Whether a token is stored for this source (the token itself is never sent)."
    )

    def get_has_token(self, source: DataSource) -> bool:
        return bool(source.credential)

    class Meta:
        model = DataSource
        fields = [
            "id",
            "type",
            "url",
            "title",
            "crawl_mode",
            "options",
            "private",
            "status",
            "user_error",
            "progress",
            "last_result",
            "chunk_count",
            "has_token",
            "version",
            "last_indexed_at",
            "reindex_count",
            "created_at",
        ]
        extra_kwargs = always_present(fields)


SOURCE_EXAMPLE = OpenApiExample(
    "source",
    value={
        "id": 7,
        "type": "website",
        "url": "https://docs.python.org/3/tutorial/",
        "title": "",
        "crawl_mode": "crawl",
        "options": {"max_pages": 200},
        "private": False,
        "status": "NOT_PROCESSED",
        "user_error": "",
        "progress": {},
        "last_result": {},
        "chunk_count": 0,
        "has_token": False,
        "version": "",
        "last_indexed_at": None,
        "reindex_count": 0,
        "created_at": "2025-01-01T12:00:00Z",
    },
    response_only=True,
    status_codes=["200", "201", "202"],
)


def version_input() -> serializers.CharField:
    return serializers.CharField(
        max_length=VERSION_MAX_CHARS,
        required=False,
        allow_blank=True,
        help_text='The documentation version it belongs to ("4.2", "latest"); "": every version.',
    )


class SourceListApi(APIView):
    class InputSerializer(serializers.Serializer):
        type = serializers.ChoiceField(choices=DataSource.Type.choices)
        url = serializers.CharField(max_length=2000, required=False, allow_blank=True)
        title = serializers.CharField(max_length=500, required=False, allow_blank=True)
        content = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
        crawl_mode = serializers.ChoiceField(
            choices=DataSource.CrawlMode.choices, required=False, default="single"
        )
        options = serializers.DictField(required=False)
        private = serializers.BooleanField(required=False, default=False)
        token = serializers.CharField(
            max_length=500,
            required=False,
            allow_blank=True,
            write_only=True,
            help_text="github_issues: a GitHub token (optional for a public repository's "
            "issues; discussions need one). confluence, jira: an API token (Cloud, with "
            "options.email) or a personal access token (Data Center). zendesk: an API token "
            "(with options.email) or an OAuth token; none for a public help center. Stored "
            "encrypted, never returned.",
        )
        version = version_input()

    class UploadSerializer(serializers.Serializer):
        file = serializers.FileField()
        title = serializers.CharField(max_length=500, required=False, allow_blank=True)
        private = serializers.BooleanField(required=False, default=False)
        version = version_input()

    @extend_schema(
        operation_id="source_list",
        tags=["sources"],
        summary="A guru's sources",
        responses={200: SourceOutput(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Request, slug: str) -> Response:
        sources = source_list(guru=guru_get(slug=slug))
        return Response(SourceOutput(sources, many=True).data)

    @extend_schema(
        operation_id="source_create",
        tags=["sources"],
        summary="Add a source (indexed in the background)",
        description="JSON for URLs and pasted text or FAQ; multipart with `file` for a PDF.",
        request={"application/json": InputSerializer, "multipart/form-data": UploadSerializer},
        responses={201: SourceOutput, **errors(400, 401, 403, 404, 409, 413)},
        examples=[
            OpenApiExample(
                "website",
                value={
                    "type": "website",
                    "url": "https://docs.python.org/3/tutorial/",
                    "crawl_mode": "crawl",
                    "options": {"max_pages": 200},
                },
                request_only=True,
            ),
            OpenApiExample(
                "github_issues",
                value={
                    "type": "github_issues",
                    "url": "https://github.com/octo-org/octo-repo",
                    "options": {"state": "closed", "labels": ["bug"], "since": "2025-01-01"},
                    "token": "github_pat_...",
                },
                request_only=True,
            ),
            OpenApiExample(
                "confluence",
                value={
                    "type": "confluence",
                    "url": "https://example.atlassian.net/wiki",
                    "options": {"deployment": "cloud", "space": "ENG", "email": "me@example.com"},
                    "token": "ATATT3x...",
                },
                request_only=True,
            ),
            OpenApiExample(
                "jira",
                value={
                    "type": "jira",
                    "url": "https://your-site.atlassian.net",
                    "options": {
                        "deployment": "cloud",
                        "jql": "project = DOCS AND statusCategory = Done",
                        "email": "someone@example.com",
                    },
                    "token": "ATATT3x...",
                },
                request_only=True,
            ),
            OpenApiExample(
                "zendesk",
                value={
                    "type": "zendesk",
                    "url": "acme",
                    "options": {
                        "locale": "en-us",
                        "section_ids": [360001234567],
                        "email": "agent@acme.com",
                    },
                    "token": "zendesk-api-token",
                },
                request_only=True,
            ),
            OpenApiExample(
                "text",
                value={"type": "text", "title": "Style", "content": "# Style\n\nUse four spaces."},
                request_only=True,
            ),
            SOURCE_EXAMPLE,
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        guru = guru_get(slug=slug)
        if "file" in request.FILES:
            upload = self.UploadSerializer(data=request.data)
            upload.is_valid(raise_exception=True)
            source = source_create_upload(
                guru=guru,
                upload=upload.validated_data["file"],
                title=upload.validated_data.get("title", ""),
                private=upload.validated_data["private"],
                version=upload.validated_data.get("version", ""),
            )
        else:
            data = self.InputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            source = source_create(guru=guru, **data.validated_data)
        return Response(SourceOutput(source).data, status=status.HTTP_201_CREATED)


class SourceDetailApi(APIView):
    class PatchSerializer(serializers.Serializer):
        version = version_input()

    @extend_schema(
        operation_id="source_get",
        tags=["sources"],
        summary="A source and its indexing progress",
        responses={200: SourceOutput, **errors(401, 403, 404)},
        examples=[SOURCE_EXAMPLE],
    )
    def get(self, request: Request, slug: str, source_id: int) -> Response:
        source = source_get(guru=guru_get(slug=slug), source_id=source_id)
        return Response(SourceOutput(source).data)

    @extend_schema(
        operation_id="source_update",
        tags=["sources"],
        summary="Change a source's version label (no re-index)",
        request=PatchSerializer,
        responses={200: SourceOutput, **errors(400, 401, 403, 404)},
        examples=[SOURCE_EXAMPLE],
    )
    def patch(self, request: Request, slug: str, source_id: int) -> Response:
        data = self.PatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        source = source_get(guru=guru_get(slug=slug), source_id=source_id)
        if "version" in data.validated_data:
            source = source_version_set(source=source, version=data.validated_data["version"])
        return Response(SourceOutput(source).data)

    @extend_schema(
        operation_id="source_delete",
        tags=["sources"],
        summary="Delete a source and its vectors",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, slug: str, source_id: int) -> Response:
        source = source_get(guru=guru_get(slug=slug), source_id=source_id)
        source_delete(source=source, store=get_vector_store())
        return Response(status=status.HTTP_204_NO_CONTENT)


class SourceReindexApi(APIView):
    @extend_schema(
        operation_id="source_reindex",
        tags=["sources"],
        summary="Index a source again (only what changed)",
        request=None,
        responses={202: SourceOutput, **errors(401, 403, 404, 409)},
        examples=[SOURCE_EXAMPLE],
    )
    def post(self, request: Request, slug: str, source_id: int) -> Response:
        source = source_reindex(source=source_get(guru=guru_get(slug=slug), source_id=source_id))
        return Response(SourceOutput(source).data, status=status.HTTP_202_ACCEPTED)


class SourceTokenApi(APIView):
    class InputSerializer(serializers.Serializer):
        token = serializers.CharField(max_length=500, allow_blank=True, write_only=True)

    @extend_schema(
        operation_id="source_token_replace",
        tags=["sources"],
        summary='Replace a source\'s token ("" removes it) and sync again',
        request=InputSerializer,
        responses={202: SourceOutput, **errors(400, 401, 403, 404)},
        examples=[SOURCE_EXAMPLE],
    )
    def put(self, request: Request, slug: str, source_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        source = source_get(guru=guru_get(slug=slug), source_id=source_id)
        source = source_credential_replace(source=source, token=data.validated_data["token"])
        return Response(SourceOutput(source).data, status=status.HTTP_202_ACCEPTED)

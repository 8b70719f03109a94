"""Gurubase's v1 data sources: list, add (one result per item), delete and re-index by id."""

from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from openguru.api_v1.access import require_staff
from openguru.api_v1.apis import V1_ERRORS, Pages, V1Api
from openguru.api_v1.gurubase import SOURCE_STATUSES, SOURCE_TYPES
from openguru.api_v1.services import NewSource, sources_add, sources_each, sources_upload
from openguru.core.models import DB_ID_MAX
from openguru.core.openapi import PAGE_PARAMETERS, errors, page_of
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource
from openguru.sources.selectors import source_list
from openguru.sources.services import TOKEN_TYPES, source_delete, source_reindex


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
            "last_reindex_date", "reindex_count", "progress", "version",
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
    code = serializers.CharField(
        required=False,
        help_text="An error's stable code: site_not_connected (a Jira or Zendesk URL on a site "
        "the guru has no source with credentials on), invalid_input, ...",
    )
    message = serializers.CharField(required=False)


class IdsOutput(serializers.Serializer):
    msg = serializers.CharField()
    ids = serializers.ListField(child=serializers.IntegerField(), help_text="The sources found.")


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
    "version": "",
}


class _Named(serializers.Serializer):
    name = serializers.CharField(max_length=500, required=False, allow_blank=True)
    content = serializers.CharField(trim_whitespace=False)


class _Connector(serializers.Serializer):
    """A connector source as the admin API's sources take one: type, link, options, token."""

    type = serializers.ChoiceField(choices=sorted(TOKEN_TYPES))
    url = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    options = serializers.DictField(required=False)
    token = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        write_only=True,
        help_text="The connector's token, as the admin API's sources take it. Stored "
        "encrypted, never returned.",
    )


class IdsInput(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=DB_ID_MAX),
        min_length=1,
        max_length=1000,
    )


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
        jira_urls = serializers.ListField(
            child=serializers.CharField(max_length=2000),
            required=False,
            max_length=100,
            help_text="Single Jira issues (https://acme.atlassian.net/browse/OPS-12), read with "
            "the credentials of a Jira source the guru has on that site.",
        )
        zendesk_urls = serializers.ListField(
            child=serializers.CharField(max_length=2000),
            required=False,
            max_length=100,
            help_text="Single help center articles (https://acme.zendesk.com/hc/en-us/articles/"
            "360001234-Title), read with the credentials of a Zendesk source the guru has on "
            "that help center.",
        )
        text_sources = serializers.ListField(child=_Named(), required=False, max_length=1000)
        faq_sources = serializers.ListField(child=_Named(), required=False, max_length=1000)
        connector_sources = serializers.ListField(
            child=_Connector(),
            required=False,
            max_length=100,
            help_text="GitHub issues and discussions, Confluence, Jira, Zendesk: each with its "
            "options and token (docs/connectors.md).",
        )
        version = serializers.CharField(
            max_length=32,
            required=False,
            allow_blank=True,
            help_text='The documentation version of every source added ("4.2"); "": every version.',
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            unknown = sorted(set(self.initial_data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({unknown[0]: "Unknown source type."})
            if not any(value for name, value in attrs.items() if name != "version"):
                raise serializers.ValidationError(
                    "Send at least one of website_urls, youtube_urls, github_urls, jira_urls, "
                    "zendesk_urls, text_sources, faq_sources, connector_sources (or files as "
                    "multipart pdf_files or files)."
                )
            return attrs

    class UploadInput(serializers.Serializer):
        pdf_files = serializers.ListField(
            child=serializers.FileField(), required=False, help_text="PDFs (Gurubase's name)."
        )
        files = serializers.ListField(
            child=serializers.FileField(),
            required=False,
            help_text="PDF, DOCX, PPTX, XLSX, CSV, HTML, Markdown or EPUB files; the type "
            "follows the extension.",
        )

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
        description="JSON lists of URLs and texts, or files as multipart `pdf_files` or `files` "
        "(PDF, DOCX, PPTX, XLSX, CSV, HTML, Markdown, EPUB). Each item is added or refused on "
        "its own; files are checked first and refused all together. "
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
    source_delete(source=source, store=get_vector_store())


def _new_sources(data: dict[str, Any]) -> list[NewSource]:
    kinds = (
        ("website_urls", DataSource.Type.WEBSITE),
        ("youtube_urls", DataSource.Type.YOUTUBE),
        ("github_urls", DataSource.Type.GITHUB_REPO),
    )
    version = data.get("version", "")
    items = [
        NewSource(type=kind, url=url, version=version)
        for field, kind in kinds
        for url in data.get(field, [])
    ]
    items += [
        NewSource(type=kind, url=url, version=version, single=True)
        for field, kind in (
            ("jira_urls", DataSource.Type.JIRA),
            ("zendesk_urls", DataSource.Type.ZENDESK),
        )
        for url in data.get(field, [])
    ]
    for field, kind in (("text_sources", DataSource.Type.TEXT), ("faq_sources", "faq")):
        items += [
            NewSource(type=kind, title=t.get("name", ""), content=t["content"], version=version)
            for t in data.get(field, [])
        ]
    items += [
        NewSource(
            type=c["type"],
            url=c.get("url", ""),
            options=c.get("options", {}),
            token=c.get("token", ""),
            version=version,
        )
        for c in data.get("connector_sources", [])
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

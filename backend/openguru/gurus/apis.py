from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.files.storage import default_storage
from django.http import FileResponse
from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import always_present, errors
from openguru.gurus.icons import CONTENT_TYPES, guru_icon_get, guru_icon_store
from openguru.gurus.models import Guru, Visibility
from openguru.gurus.permissions import MANAGE_GURU, READ_GURU
from openguru.gurus.selectors import guru_get, guru_list
from openguru.gurus.services import (
    guru_create,
    guru_delete,
    guru_update,
)
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store


class GuruOutput(serializers.ModelSerializer):
    class Meta:
        model = Guru
        fields = [
            "slug",
            "name",
            "domain_knowledge",
            "icon_url",
            "base_color",
            "light_color",
            "active",
            "visibility",
            "embedding_model",
            "embedding_dimension",
            "created_at",
        ]
        extra_kwargs = always_present(fields)


class GuruAdminOutput(GuruOutput):
    """What an admin reads: also the settings only the console edits."""

    github_webhook_secret_set = serializers.SerializerMethodField(
        help_text="Whether a GitHub webhook secret is set (the secret itself is never returned)."
    )

    class Meta(GuruOutput.Meta):
        fields = [
            *GuruOutput.Meta.fields,
            "custom_instruction",
            "anonymous_asks_per_hour",
            "anonymous_asks_per_day",
            "trust_threshold",
            "calibrated_trust_threshold",
            "answer_mode",
            "default_version",
            "github_webhook_secret_set",
        ]
        read_only_fields = ["calibrated_trust_threshold"]
        extra_kwargs = always_present(fields)

    def get_github_webhook_secret_set(self, guru: Guru) -> bool:
        return bool(guru.github_webhook_secret)


class GuruSettingsInput(serializers.Serializer):
    """The gate and answer settings a maintainer may set on a guru (create and change)."""

    trust_threshold = serializers.FloatField(
        min_value=0.0,
        max_value=1.0,
        required=False,
        allow_null=True,
        help_text="The trust gate's threshold for this guru; null: calibrated or the default.",
    )
    answer_mode = serializers.ChoiceField(
        choices=["", "default", "fast"],
        required=False,
        help_text='"fast": one LLM round trip before the first token; "": the default.',
    )


GURU_EXAMPLE = OpenApiExample(
    "guru",
    value={
        "slug": "python",
        "name": "Python",
        "domain_knowledge": "The Python language",
        "icon_url": "",
        "base_color": "#1f6feb",
        "light_color": "#e8f0fe",
        "active": True,
        "visibility": "public",
        "embedding_model": "sentence-transformers/all-MiniLM-L6-v2",
        "embedding_dimension": 384,
        "created_at": "2025-01-01T12:00:00Z",
    },
    response_only=True,
    status_codes=["200", "201"],
)


def _may(request: Request, permission: str, guru: Guru) -> bool:
    """Asked of Django's permission check, which the access rule answers (accounts/)."""
    return (request.user or AnonymousUser()).has_perm(permission, guru)


def _readable(request: Request, slug: str) -> tuple[Guru, bool]:
    """The guru, if the caller may read it, and whether they manage it (then they read its
    settings too, and an inactive guru is not hidden from them)."""
    guru = guru_get(slug=slug)
    manages = _may(request, MANAGE_GURU, guru)
    if not manages and not _may(request, READ_GURU, guru):
        raise DomainError(ErrorCode.GURU_NOT_FOUND, f"No guru named '{slug}'.")
    return guru, manages


class _GuruApi(APIView):
    # Anyone reads; changes are decided by the default permission (the access rule), per
    # method in `guru_actions`. (A comment: a docstring would describe every operation.)

    def get_permissions(self) -> Sequence[Any]:
        return [AllowAny()] if self.request.method == "GET" else super().get_permissions()


class GuruListApi(_GuruApi):
    class InputSerializer(GuruSettingsInput):
        slug = serializers.SlugField(max_length=64)
        name = serializers.CharField(max_length=100)
        domain_knowledge = serializers.CharField(max_length=200, required=False, allow_blank=True)
        custom_instruction = serializers.CharField(required=False, allow_blank=True)
        icon_url = serializers.URLField(required=False, allow_blank=True)
        base_color = serializers.CharField(max_length=16, required=False)
        light_color = serializers.CharField(max_length=16, required=False)
        github_webhook_secret = serializers.CharField(
            max_length=200, required=False, allow_blank=True, write_only=True
        )

    guru_actions = {"POST": "admin"}  # creating a guru is for admins

    @extend_schema(
        operation_id="guru_list",
        tags=["gurus"],
        summary="Gurus (inactive ones too, for those who manage them)",
        description="Who manages a guru also reads its settings (the fields of GuruAdminOutput).",
        parameters=[
            OpenApiParameter(
                "q", str, description="Only gurus whose name, slug or domain contain this text."
            )
        ],
        responses={200: GuruOutput(many=True)},
    )
    def get(self, request: Request) -> Response:
        # PostgreSQL takes no NUL in text: a search for one finds nothing, as elsewhere.
        query = str(request.query_params.get("q", "")).replace("\x00", "")[:200]
        shown = []
        for guru in guru_list(query=query):
            if _may(request, MANAGE_GURU, guru):
                shown.append(GuruAdminOutput(guru).data)
            elif _may(request, READ_GURU, guru):
                shown.append(GuruOutput(guru).data)
        return Response(shown)

    @extend_schema(
        operation_id="guru_create",
        tags=["gurus"],
        summary="Create a guru",
        request=InputSerializer,
        responses={201: GuruAdminOutput, **errors(400, 401, 403, 409)},
        examples=[
            OpenApiExample(
                "guru",
                value={
                    "slug": "python",
                    "name": "Python",
                    "domain_knowledge": "The Python language",
                },
                request_only=True,
            ),
            GURU_EXAMPLE,
        ],
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru = guru_create(**data.validated_data, embedder=get_embedder(), store=get_vector_store())
        return Response(GuruAdminOutput(guru).data, status=status.HTTP_201_CREATED)


class GuruDetailApi(_GuruApi):
    class UpdateSerializer(GuruSettingsInput):
        name = serializers.CharField(max_length=100, required=False)
        domain_knowledge = serializers.CharField(max_length=200, required=False, allow_blank=True)
        custom_instruction = serializers.CharField(required=False, allow_blank=True)
        icon_url = serializers.URLField(required=False, allow_blank=True)
        base_color = serializers.CharField(max_length=16, required=False)
        light_color = serializers.CharField(max_length=16, required=False)
        active = serializers.BooleanField(required=False)
        visibility = serializers.ChoiceField(
            choices=Visibility.choices,
            required=False,
            help_text='"private": only admins and the people granted it see and ask it, '
            "on every channel; its widget needs a signed identity token.",
        )
        anonymous_asks_per_hour = serializers.IntegerField(
            min_value=0, required=False, allow_null=True, help_text="Null: the default; 0: none."
        )
        anonymous_asks_per_day = serializers.IntegerField(
            min_value=0, required=False, allow_null=True, help_text="Null: the default; 0: none."
        )
        github_webhook_secret = serializers.CharField(
            max_length=200, required=False, allow_blank=True, write_only=True
        )
        default_version = serializers.RegexField(
            r"^(?:[A-Za-z0-9][A-Za-z0-9._-]*)?$",
            max_length=32,
            required=False,
            allow_blank=True,
            help_text='The documentation version a question naming none is answered from ("4.2"); '
            '"": the newest label its sources carry.',
        )

    guru_actions = {"DELETE": "admin"}  # deleting a guru is for admins

    @extend_schema(
        operation_id="guru_get",
        tags=["gurus"],
        summary="A guru",
        description="Who manages it also reads its settings (the fields of GuruAdminOutput).",
        responses={200: GuruOutput, **errors(404)},
        examples=[GURU_EXAMPLE],
    )
    def get(self, request: Request, slug: str) -> Response:
        guru, manages = _readable(request, slug)
        return Response((GuruAdminOutput if manages else GuruOutput)(guru).data)

    @extend_schema(
        operation_id="guru_update",
        tags=["gurus"],
        summary="Change a guru",
        request=UpdateSerializer,
        responses={200: GuruAdminOutput, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample("rename", value={"name": "Python 3"}, request_only=True),
            GURU_EXAMPLE,
        ],
    )
    def patch(self, request: Request, slug: str) -> Response:
        data = self.UpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru = guru_update(guru=guru_get(slug=slug), data=dict(data.validated_data))
        return Response(GuruAdminOutput(guru).data)

    @extend_schema(
        operation_id="guru_delete",
        tags=["gurus"],
        summary="Delete a guru, its sources and its index",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, slug: str) -> Response:
        guru_delete(guru=guru_get(slug=slug), store=get_vector_store())
        return Response(status=status.HTTP_204_NO_CONTENT)


class GuruIconApi(_GuruApi):
    """The guru's uploaded icon: anyone may fetch it, who manages the guru replaces it."""

    parser_classes = [MultiPartParser]

    class UploadSerializer(serializers.Serializer):
        file = serializers.FileField(help_text="PNG, JPEG, GIF or WebP; at most 1 MB.")

    class OutputSerializer(serializers.Serializer):
        icon_url = serializers.URLField()

    @extend_schema(
        operation_id="guru_icon_get",
        tags=["gurus"],
        summary="A guru's uploaded icon",
        responses={
            **{
                (200, content_type): OpenApiResponse(bytes, description="The image.")
                for content_type in CONTENT_TYPES.values()
            },
            **errors(404),
        },
    )
    def get(self, request: Request, slug: str) -> FileResponse:
        guru, _ = _readable(request, slug)
        icon = guru_icon_get(guru=guru)
        if icon is None:
            raise DomainError(ErrorCode.NOT_FOUND, "This guru has no uploaded icon.")
        response = FileResponse(default_storage.open(icon.name), content_type=icon.content_type)
        response["Cache-Control"] = "public, max-age=300"  # icon_url changes with the content
        return response

    @extend_schema(
        operation_id="guru_icon_upload",
        tags=["gurus"],
        summary="Upload a guru's icon (its icon_url then points here)",
        request={"multipart/form-data": UploadSerializer},
        responses={200: OutputSerializer, **errors(400, 401, 403, 404, 413)},
        examples=[
            OpenApiExample(
                "uploaded",
                value={"icon_url": "https://openguru.example.com/api/gurus/python/icon/?v=3f2a"},
                response_only=True,
            )
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        upload = self.UploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        guru = guru_get(slug=slug)
        url = request.build_absolute_uri(reverse("guru-icon", kwargs={"slug": guru.slug}))
        guru = guru_icon_store(guru=guru, upload=upload.validated_data["file"], icon_url=url)
        return Response({"icon_url": guru.icon_url})

from typing import Any

from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.auth import IsAdmin
from openguru.gurus.models import Guru
from openguru.gurus.selectors import guru_get, guru_list
from openguru.gurus.services import guru_create, guru_delete, guru_reembed, guru_update


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
            "embedding_model",
            "embedding_dimension",
            "created_at",
        ]


def _is_admin(request: Request, view: APIView) -> bool:
    return IsAdmin().has_permission(request, view)


class GuruListApi(APIView):
    class InputSerializer(serializers.Serializer):
        slug = serializers.SlugField(max_length=64)
        name = serializers.CharField(max_length=100)
        domain_knowledge = serializers.CharField(max_length=200, required=False, allow_blank=True)
        custom_instruction = serializers.CharField(required=False, allow_blank=True)
        icon_url = serializers.URLField(required=False, allow_blank=True)
        base_color = serializers.CharField(max_length=16, required=False)
        light_color = serializers.CharField(max_length=16, required=False)

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    def get(self, request: Request) -> Response:
        gurus = guru_list(active_only=not _is_admin(request, self))
        return Response(GuruOutput(gurus, many=True).data)

    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru = guru_create(**data.validated_data)
        return Response(GuruOutput(guru).data, status=status.HTTP_201_CREATED)


class GuruDetailApi(APIView):
    class UpdateSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100, required=False)
        domain_knowledge = serializers.CharField(max_length=200, required=False, allow_blank=True)
        custom_instruction = serializers.CharField(required=False, allow_blank=True)
        icon_url = serializers.URLField(required=False, allow_blank=True)
        base_color = serializers.CharField(max_length=16, required=False)
        light_color = serializers.CharField(max_length=16, required=False)
        active = serializers.BooleanField(required=False)

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    def get(self, request: Request, slug: str) -> Response:
        guru = guru_get(slug=slug, active_only=not _is_admin(request, self))
        return Response(GuruOutput(guru).data)

    def patch(self, request: Request, slug: str) -> Response:
        data = self.UpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru = guru_update(guru=guru_get(slug=slug), data=dict(data.validated_data))
        return Response(GuruOutput(guru).data)

    def delete(self, request: Request, slug: str) -> Response:
        guru_delete(guru=guru_get(slug=slug))
        return Response(status=status.HTTP_204_NO_CONTENT)


class GuruReembedApi(APIView):
    """Switch the guru to the configured embedding model and re-index all its sources."""

    def post(self, request: Request, slug: str) -> Response:
        queued = guru_reembed(guru=guru_get(slug=slug))
        return Response({"queued_sources": queued}, status=status.HTTP_202_ACCEPTED)

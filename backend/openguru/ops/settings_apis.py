"""The platform settings an admin tunes at run time, and the providers the deployment runs on."""

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.models import PlatformSettings
from openguru.core.openapi import always_present, errors
from openguru.core.platform_settings import (
    EDITABLE_FIELDS,
    platform_settings_get,
    platform_settings_update,
)
from openguru.ops.deployment import deployment_providers
from openguru.providers.llm.factory import get_llm


def _zero_to_one(help_text: str = "") -> serializers.FloatField:
    return serializers.FloatField(
        required=False, min_value=0.0, max_value=1.0, help_text=help_text or None
    )


class ProvidersOutput(serializers.Serializer):
    llm = serializers.CharField(help_text='"openai", "gemini", "fake" or "none" (extractive).')
    embedding = serializers.CharField()
    reranker = serializers.CharField(help_text='"tei" or "none".')
    vector_store = serializers.CharField()


class SettingsApi(APIView):
    class InputSerializer(serializers.Serializer):
        rerank_threshold = _zero_to_one()
        trust_score_threshold = _zero_to_one("Contexts less relevant than this are dropped.")
        trust_score_margin = _zero_to_one("Contexts below (best - margin) are dropped.")
        similar_question_threshold = _zero_to_one("Cosine above which a saved answer is reused.")
        low_trust_threshold = _zero_to_one("Analytics: answers below it count as weak.")
        widget_answer_max_length = serializers.IntegerField(
            required=False, min_value=100, max_value=100_000
        )
        answer_cache_enabled = serializers.BooleanField(required=False)

    class OutputSerializer(serializers.ModelSerializer):
        class Meta:
            model = PlatformSettings
            fields = [*EDITABLE_FIELDS, "updated_at"]

    class ReadOnlySerializer(OutputSerializer):
        providers = ProvidersOutput(read_only=True)
        llm_model = serializers.CharField(read_only=True, help_text='"" without an LLM.')
        embedding_model = serializers.CharField(read_only=True)
        answer_mode = serializers.CharField(read_only=True, help_text='"default" or "fast".')

        class Meta:
            model = PlatformSettings
            fields = [
                *EDITABLE_FIELDS,
                "updated_at",
                "providers",
                "llm_model",
                "embedding_model",
                "answer_mode",
            ]
            extra_kwargs = always_present(fields)

    _EXAMPLE = {
        "rerank_threshold": 0.1,
        "trust_score_threshold": 0.35,
        "trust_score_margin": 0.3,
        "similar_question_threshold": 0.95,
        "low_trust_threshold": 0.5,
        "widget_answer_max_length": 1200,
        "answer_cache_enabled": True,
        "updated_at": "2025-01-01T12:00:00Z",
        "providers": {
            "llm": "openai",
            "embedding": "local",
            "reranker": "none",
            "vector_store": "milvus",
        },
        "llm_model": "gpt-4o-mini",
        "embedding_model": "all-MiniLM-L6-v2",
        "answer_mode": "default",
    }

    def _output(self, row: PlatformSettings) -> dict[str, Any]:
        return {**self.OutputSerializer(row).data, **deployment_providers(llm=get_llm())}

    @extend_schema(
        operation_id="settings_get",
        tags=["settings"],
        summary="Platform settings, and the providers in use (read-only)",
        responses={200: ReadOnlySerializer, **errors(401, 403)},
        examples=[OpenApiExample("settings", value=_EXAMPLE, response_only=True)],
    )
    def get(self, request: Request) -> Response:
        return Response(self._output(platform_settings_get()))

    @extend_schema(
        operation_id="settings_update",
        tags=["settings"],
        summary="Change platform settings (the answer engine reads them within seconds)",
        request=InputSerializer,
        responses={200: ReadOnlySerializer, **errors(400, 401, 403)},
        examples=[
            OpenApiExample("stricter", value={"trust_score_threshold": 0.5}, request_only=True),
            OpenApiExample("settings", value=_EXAMPLE, response_only=True),
        ],
    )
    def patch(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(self._output(platform_settings_update(data=dict(data.validated_data))))

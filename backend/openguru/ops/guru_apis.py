from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.errors import ErrorCode
from openguru.core.openapi import ErrorSerializer, error_example, errors
from openguru.gurus.selectors import guru_bm25_analyzer, guru_get
from openguru.ops.guru_maintenance import guru_reanalyze, guru_reembed
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store


class GuruReembedApi(APIView):
    """Switch the guru to the configured embedding model and re-index all its sources."""

    class OutputSerializer(serializers.Serializer):
        queued_sources = serializers.IntegerField(help_text="How many sources were queued.")

    @extend_schema(
        operation_id="guru_reembed",
        tags=["gurus"],
        summary="Re-embed a guru with the configured model",
        request=None,
        responses={202: OutputSerializer, **errors(401, 403, 404)},
        examples=[
            OpenApiExample(
                "queued", value={"queued_sources": 3}, response_only=True, status_codes=["202"]
            )
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        queued = guru_reembed(
            guru=guru_get(slug=slug), embedder=get_embedder(), store=get_vector_store()
        )
        return Response({"queued_sources": queued}, status=status.HTTP_202_ACCEPTED)


class GuruReanalyzeApi(APIView):
    """Move the guru's chunks to the configured BM25 analyzer, keeping their vectors."""

    class OutputSerializer(serializers.Serializer):
        moved = serializers.BooleanField(
            help_text="False: the guru was on the configured analyzer already."
        )
        analyzer = serializers.CharField(
            allow_null=True,
            help_text="The BM25 analyzer of the guru's chunks now; null before the first ones.",
        )
        chunks = serializers.IntegerField(help_text="The guru's chunks.")

    @extend_schema(
        operation_id="guru_reanalyze",
        tags=["gurus"],
        summary="Move a guru to the configured BM25 analyzer (no re-embedding)",
        description=(
            "A guru's collection keeps the BM25 analyzer it was created with; this copies its "
            "chunks into a collection with the configured one (MILVUS_BM25_ANALYZER) and "
            "switches the guru to it. Synchronous: it takes as long as the copy."
        ),
        request=None,
        responses={
            200: OutputSerializer,
            **errors(401, 403, 404),
            409: OpenApiResponse(
                ErrorSerializer,
                description="A source of the guru is being processed: try again when it is done.",
                examples=[
                    error_example(
                        ErrorCode.CONFLICT,
                        "A source of 'python' is being processed; try again when it is done.",
                    )
                ],
            ),
        },
        examples=[
            OpenApiExample(
                "moved",
                value={"moved": True, "analyzer": "english", "chunks": 1234},
                response_only=True,
            )
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        guru, store = guru_get(slug=slug), get_vector_store()
        moved = guru_reanalyze(guru=guru, store=store)
        return Response(
            {
                "moved": moved,
                "analyzer": guru_bm25_analyzer(guru=guru, store=store),
                "chunks": store.count(guru.collection_name),
            }
        )

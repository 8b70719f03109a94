"""The public Q&A site's reads and writes: a guru's front page, the sitemap, votes and suggested
follow-up questions. No credentials but the site's session cookie, read only to decide who
may see a guru (`accounts/viewer.py`): the active public gurus for anyone, a private one for
the people granted it, and then marked not for search engines (`X-Robots-Tag`)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.accounts.access import guru_is_public, guru_readable_get
from openguru.accounts.viewer import request_viewer
from openguru.answers.models import Question, Vote
from openguru.answers.selectors import question_vote_counts
from openguru.answers.services import vote_record
from openguru.answers.site.follow_ups import question_follow_ups
from openguru.answers.site.selectors import (
    example_questions,
    questions_popular,
    questions_recent,
    site_question_get,
    sitemap_index,
    sitemap_questions,
    sources_by_type,
)
from openguru.core.client_address import client_fingerprint, client_ip
from openguru.core.errors import ErrorCode
from openguru.core.models import DB_ID_MAX
from openguru.core.openapi import errors
from openguru.gurus.models import Guru
from openguru.providers.llm.factory import get_llm
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.versions import guru_versions_offered

TAGS = ["answers"]
_SLUG = "how-do-i-create-a-virtual-environment"
_BINGE = "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40"
QUESTION_ERRORS = errors(
    400,
    404,
    more={
        404: [
            (ErrorCode.QUESTION_NOT_FOUND, f"No question '{_SLUG}' in this guru."),
            (ErrorCode.NOT_FOUND, "No such follow-up session."),
        ]
    },
)
BINGE_PARAMETER = OpenApiParameter(
    "binge", OpenApiTypes.UUID, description="A follow-up session's id: the question asked in it."
)


class PublicApi(APIView):
    """Anyone may call it; credentials sent anyway are not read (a stale one is no error)."""

    permission_classes = [AllowAny]
    authentication_classes = []


class BingeQuery(serializers.Serializer):
    binge = serializers.UUIDField(required=False)


def site_guru(request: Request, slug: str) -> Guru:
    """The guru of a site page, if whoever reads it may (else the 404 of a missing one)."""
    return guru_readable_get(actor=request_viewer(request), slug=slug)


def unindexed(response: Response, guru: Guru) -> Response:
    """A private (or inactive) guru's pages are for the people granted it: never indexed."""
    if not guru_is_public(guru):
        response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def question_from_request(request: Request, slug: str, question_slug: str) -> Question:
    query = BingeQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    guru = site_guru(request, slug)
    return site_question_get(
        guru=guru, slug=question_slug, binge_id=query.validated_data.get("binge")
    )


class SiteQuestionSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    question = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    trust_score = serializers.FloatField(help_text="0 to 1: how well the sources cover it.")
    date_updated = serializers.DateTimeField(source="updated_at")


class SourceCountSerializer(serializers.Serializer):
    type = serializers.CharField(help_text="web, pdf, youtube, github, text…")
    count = serializers.IntegerField()


class SourceTitleSerializer(serializers.Serializer):
    title = serializers.CharField(help_text="The source's title, else its address.")
    type = serializers.CharField(help_text="website, pdf, youtube, github_repo, text or faq.")


class SourceTotalsSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    by_type = SourceCountSerializer(many=True)
    titles = SourceTitleSerializer(
        many=True, help_text="Up to 20 indexed public sources, by title: what the guru knows."
    )


_SITE_QUESTION = {
    "slug": _SLUG,
    "question": "How do I create a virtual environment?",
    "description": "Creating a Python virtual environment with venv.",
    "trust_score": 0.82,
    "date_updated": "2025-01-01T12:00:00Z",
}


class GuruOverviewApi(PublicApi):
    class OutputSerializer(serializers.Serializer):
        example_questions = serializers.ListField(
            child=serializers.CharField(), help_text="Up to 6 questions to offer a visitor."
        )
        recent = SiteQuestionSerializer(many=True, help_text="The newest answers.")
        popular = SiteQuestionSerializer(many=True, help_text="Most upvoted, then newest.")
        sources = SourceTotalsSerializer()
        indexable = serializers.BooleanField(
            help_text="False for a private guru: its pages carry noindex."
        )
        versions = serializers.ListField(
            child=serializers.CharField(),
            help_text="The documentation versions its sources carry, newest first ([]: none).",
        )
        default_version = serializers.CharField(
            help_text='The version a question naming none is answered from ("": no versions).'
        )

    @extend_schema(
        operation_id="guru_overview",
        tags=TAGS,
        summary="A guru's front page: example, recent and popular questions, its sources",
        auth=[],
        responses={200: OutputSerializer, **errors(404)},
        examples=[
            OpenApiExample(
                "overview",
                value={
                    "example_questions": ["What is a virtual environment?"],
                    "recent": [_SITE_QUESTION],
                    "popular": [_SITE_QUESTION],
                    "sources": {
                        "total": 3,
                        "by_type": [{"type": "web", "count": 3}],
                        "titles": [{"title": "Virtual environments", "type": "website"}],
                    },
                    "indexable": True,
                    "versions": ["5.0", "4.2"],
                    "default_version": "5.0",
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, slug: str) -> Response:
        guru = site_guru(request, slug)
        output = self.OutputSerializer(
            {
                "example_questions": example_questions(guru=guru, store=get_vector_store()),
                "recent": questions_recent(guru=guru),
                "popular": questions_popular(guru=guru),
                "sources": sources_by_type(guru=guru),
                "indexable": guru_is_public(guru),
                **guru_versions_offered(guru=guru),
            }
        )
        return unindexed(Response(output.data), guru)


class SitemapIndexApi(PublicApi):
    class OutputSerializer(serializers.Serializer):
        page_size = serializers.IntegerField(help_text="Answers a page holds at most.")
        pages = serializers.ListField(
            child=serializers.IntegerField(),
            help_text="The pages of /api/sitemap/questions/ that may hold answers, in order.",
        )
        gurus = serializers.ListField(
            child=serializers.SlugField(), help_text="The active public gurus, by slug."
        )

    @extend_schema(
        operation_id="sitemap_index",
        tags=["site"],
        summary="The sitemap's pages of answers and the public gurus",
        auth=[],
        responses={200: OutputSerializer},
        examples=[
            OpenApiExample(
                "index",
                value={"page_size": 50000, "pages": [1, 2], "gurus": ["python"]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(sitemap_index()).data)


class SitemapQuestionsApi(PublicApi):
    class PageQuery(serializers.Serializer):
        page = serializers.IntegerField(min_value=1, max_value=DB_ID_MAX, required=False)

    class OutputSerializer(serializers.Serializer):
        guru_slug = serializers.SlugField()
        slug = serializers.SlugField()
        date_updated = serializers.DateTimeField()

    @extend_schema(
        operation_id="sitemap_questions",
        tags=["site"],
        summary="One sitemap page of the active public gurus' answers, newest first",
        auth=[],
        parameters=[
            OpenApiParameter(
                "page",
                int,
                description="A page the sitemap index lists; if not given, the newest answers'.",
            )
        ],
        responses={200: OutputSerializer(many=True), **errors(400)},
        examples=[
            OpenApiExample(
                "answers",
                value=[
                    {"guru_slug": "python", "slug": _SLUG, "date_updated": "2025-01-01T12:00:00Z"}
                ],
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        query = self.PageQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        # Plain strings already (the schema is OutputSerializer's): serializing a page of
        # tens of thousands of rows field by field would take longer than reading it.
        return Response(sitemap_questions(page=query.validated_data.get("page")))


class QuestionVoteApi(PublicApi):
    """One vote per visitor and answer (counted by a keyed hash of the address): voting again
    replaces the earlier vote."""

    class InputSerializer(serializers.Serializer):
        vote_type = serializers.ChoiceField(choices=Vote.Type.values)
        feedback = serializers.CharField(required=False, allow_blank=True, max_length=2000)
        binge_id = serializers.UUIDField(required=False, allow_null=True)

    class OutputSerializer(serializers.Serializer):
        msg = serializers.CharField()
        upvotes = serializers.IntegerField()
        downvotes = serializers.IntegerField()

    @extend_schema(
        operation_id="question_vote",
        tags=TAGS,
        summary="Vote an answer up or down",
        auth=[],
        request=InputSerializer,
        responses={200: OutputSerializer, **QUESTION_ERRORS},
        examples=[
            OpenApiExample("up", value={"vote_type": "upvote"}, request_only=True),
            OpenApiExample(
                "down in a session",
                value={"vote_type": "downvote", "feedback": "Too short.", "binge_id": _BINGE},
                request_only=True,
            ),
            OpenApiExample(
                "recorded",
                value={"msg": "Vote recorded.", "upvotes": 3, "downvotes": 1},
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request, slug: str, question_slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        guru = site_guru(request, slug)
        question = site_question_get(guru=guru, slug=question_slug, binge_id=values.get("binge_id"))
        vote_record(
            question=question,
            voter=client_fingerprint(client_ip(request)),
            vote_type=values["vote_type"],
            feedback=values.get("feedback", ""),
            source=Question.Source.USER,
        )
        counts = question_vote_counts(question=question)
        return Response(
            {
                "msg": "Vote recorded.",
                "upvotes": counts[Vote.Type.UP],
                "downvotes": counts[Vote.Type.DOWN],
            }
        )


class QuestionFollowUpsApi(PublicApi):
    @extend_schema(
        operation_id="question_follow_ups",
        tags=TAGS,
        summary="Questions a reader of this answer might ask next",
        description="Made once per answer by the language model and kept; an empty list "
        "without one.",
        auth=[],
        parameters=[BINGE_PARAMETER],
        responses={
            200: OpenApiResponse(
                {"type": "array", "items": {"type": "string"}},
                examples=[
                    OpenApiExample(
                        "suggestions",
                        value=["How do I activate it?", "How do I delete a virtual environment?"],
                        response_only=True,
                    )
                ],
            ),
            **QUESTION_ERRORS,
        },
    )
    def get(self, request: Request, slug: str, question_slug: str) -> Response:
        question = question_from_request(request, slug, question_slug)
        response = Response(question_follow_ups(question=question, llm=get_llm()))
        return unindexed(response, question.guru)

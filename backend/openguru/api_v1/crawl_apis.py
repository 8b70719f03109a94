"""Gurubase's crawl endpoints: discover a site's pages from a start URL (nothing is indexed;
the caller adds the URLs it wants as website sources)."""

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.openapi import always_present, errors
from openguru.core.ratelimit import api_key_rate_limit_check
from openguru.gurus.models import Guru
from openguru.gurus.selectors import guru_get
from openguru.integrations.models import APIKey
from openguru.sources.crawls import crawl_get, crawl_start, crawl_stop
from openguru.sources.models import Crawl


class CrawlOutput(serializers.ModelSerializer):
    start_time = serializers.DateTimeField(source="created_at")
    discovered_urls = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = Crawl
        fields = [
            "id", "url", "status", "discovered_urls", "start_time", "end_time", "link_limit",
            "error",
        ]  # fmt: skip
        extra_kwargs = always_present(fields)


CRAWL_EXAMPLE = OpenApiExample(
    "crawl",
    value={
        "id": 3,
        "url": "https://docs.python.org/3/tutorial/",
        "status": "COMPLETED",
        "discovered_urls": [
            "https://docs.python.org/3/tutorial/",
            "https://docs.python.org/3/tutorial/venv.html",
        ],
        "start_time": "2025-01-01T12:00:00Z",
        "end_time": "2025-01-01T12:00:09Z",
        "link_limit": 200,
        "error": "",
    },
    response_only=True,
)


class CrawlApi(APIView):
    """Crawling is an admin's tool: a staff user's X-API-KEY (rate-limited like every v1 call),
    or the console's signed-in session, or the admin token (the default admin permission)."""

    guru: Guru

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if isinstance(request.auth, APIKey):
            api_key_rate_limit_check(key_id=request.auth.pk)
        self.guru = guru_get(slug=kwargs["guru_slug"])

    @property
    def user(self) -> User | None:
        user = self.request.user
        return user if isinstance(user, User) else None  # the admin token has no row


class CrawlStartApi(CrawlApi):
    class InputSerializer(serializers.Serializer):
        url = serializers.CharField(max_length=2000)
        link_limit = serializers.IntegerField(required=False, min_value=1)

    @extend_schema(
        operation_id="v1_crawl_start",
        tags=["v1 data sources"],
        summary="Discover a site's pages (nothing is indexed)",
        description="Lists the pages reachable from `url`; add the ones you want as "
        "website sources. Needs a staff user's key.",
        request=InputSerializer,
        responses={200: CrawlOutput, **errors(400, 401, 403, 404, 429)},
        examples=[
            OpenApiExample(
                "start",
                value={"url": "https://docs.python.org/3/tutorial/", "link_limit": 200},
                request_only=True,
            ),
            CRAWL_EXAMPLE,
        ],
    )
    def post(self, request: Request, guru_slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        crawl = crawl_start(
            guru=self.guru,
            url=data.validated_data["url"],
            link_limit=data.validated_data.get("link_limit"),
            user=self.user,
        )
        # Read again: a worker (or an eager run) may have moved it on already.
        return Response(CrawlOutput(crawl_get(guru=self.guru, crawl_id=crawl.pk)).data)


class CrawlStatusApi(CrawlApi):
    @extend_schema(
        operation_id="v1_crawl_status",
        tags=["v1 data sources"],
        summary="A crawl and the pages it found so far",
        responses={200: CrawlOutput, **errors(401, 404, 429)},
        examples=[CRAWL_EXAMPLE],
    )
    def get(self, request: Request, guru_slug: str, crawl_id: int) -> Response:
        return Response(CrawlOutput(crawl_get(guru=self.guru, crawl_id=crawl_id)).data)


class CrawlStopApi(CrawlApi):
    @extend_schema(
        operation_id="v1_crawl_stop",
        tags=["v1 data sources"],
        summary="Stop a crawl, keeping the pages found so far",
        description="Needs a staff user's key.",
        request=None,
        responses={200: CrawlOutput, **errors(401, 403, 404, 429)},
        examples=[CRAWL_EXAMPLE],
    )
    def post(self, request: Request, guru_slug: str, crawl_id: int) -> Response:
        crawl = crawl_stop(crawl=crawl_get(guru=self.guru, crawl_id=crawl_id))
        return Response(CrawlOutput(crawl).data)

"""Gurubase's crawl endpoints: discover a site's pages from a start URL (nothing is indexed;
the caller adds the URLs it wants as website sources)."""

from typing import Any

from django.contrib.auth.models import User
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.ratelimit import api_key_rate_limit_check
from openguru.gurus.models import Guru
from openguru.gurus.selectors import guru_get
from openguru.integrations.models import APIKey
from openguru.sources.crawls import crawl_get, crawl_start, crawl_stop
from openguru.sources.models import Crawl


class CrawlOutput(serializers.ModelSerializer):
    start_time = serializers.DateTimeField(source="created_at")

    class Meta:
        model = Crawl
        fields = [
            "id", "url", "status", "discovered_urls", "start_time", "end_time", "link_limit",
            "error",
        ]  # fmt: skip


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
    def get(self, request: Request, guru_slug: str, crawl_id: int) -> Response:
        return Response(CrawlOutput(crawl_get(guru=self.guru, crawl_id=crawl_id)).data)


class CrawlStopApi(CrawlApi):
    def post(self, request: Request, guru_slug: str, crawl_id: int) -> Response:
        crawl = crawl_stop(crawl=crawl_get(guru=self.guru, crawl_id=crawl_id))
        return Response(CrawlOutput(crawl).data)

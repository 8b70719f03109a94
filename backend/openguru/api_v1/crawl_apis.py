"""Gurubase's crawl endpoints: discover a site's pages from a start URL (nothing is indexed;
the caller adds the URLs it wants as website sources)."""

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from openguru.api_v1.access import require_staff
from openguru.api_v1.apis import V1Api
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


class CrawlStartApi(V1Api):
    class InputSerializer(serializers.Serializer):
        url = serializers.CharField(max_length=2000)
        link_limit = serializers.IntegerField(required=False, min_value=1)

    def post(self, request: Request, guru_slug: str) -> Response:
        require_staff(self.caller)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        crawl = crawl_start(
            guru=self.caller.guru,
            url=data.validated_data["url"],
            link_limit=data.validated_data.get("link_limit"),
            user=self.caller.key.user,
        )
        # Read again: a worker (or an eager run) may have moved it on already.
        return Response(CrawlOutput(crawl_get(guru=self.caller.guru, crawl_id=crawl.pk)).data)


class CrawlStatusApi(V1Api):
    def get(self, request: Request, guru_slug: str, crawl_id: int) -> Response:
        return Response(CrawlOutput(crawl_get(guru=self.caller.guru, crawl_id=crawl_id)).data)


class CrawlStopApi(V1Api):
    def post(self, request: Request, guru_slug: str, crawl_id: int) -> Response:
        require_staff(self.caller)
        crawl = crawl_stop(crawl=crawl_get(guru=self.caller.guru, crawl_id=crawl_id))
        return Response(CrawlOutput(crawl).data)

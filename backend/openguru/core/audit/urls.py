from django.urls import path

from openguru.core.audit.apis import AuditEventListApi, AuditExportApi

urlpatterns = [
    path("audit/", AuditEventListApi.as_view(), name="audit-event-list"),
    path("audit/export/", AuditExportApi.as_view(), name="audit-event-export"),
]

"""The audit log: a row for every change by a person or key and every sign-in, with who, when,
from where and what before/after (secrets masked); filters, a streamed CSV, retention."""

import csv
import io
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from openguru.core.audit.models import AuditEvent
from openguru.core.audit.services import MASK, audit_prune
from openguru.core.audit.tasks import audit_events_prune

from tests.accounts.conftest import PASSWORD, Org, actor_client, csrf_client


def _actions() -> list[str]:
    return list(AuditEvent.objects.order_by("id").values_list("action", flat=True))


def _last(action: str) -> AuditEvent:
    return AuditEvent.objects.filter(action=action).latest("id")


def test_every_change_through_the_admin_api_is_logged(org: Org, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1/32"]
    maintainer = actor_client(org, "maintainer")
    maintainer.credentials(
        HTTP_X_API_KEY=maintainer._credentials["HTTP_X_API_KEY"],
        HTTP_X_FORWARDED_FOR="203.0.113.7",
    )
    admin = actor_client(org, "admin")
    AuditEvent.objects.all().delete()  # the clients' own keys

    guru = maintainer.patch(
        "/api/gurus/python/", {"name": "Py", "github_webhook_secret": "s3cret"}, format="json"
    )
    assert guru.status_code == 200
    source = maintainer.post(
        "/api/gurus/python/sources/",
        {"type": "text", "title": "Notes", "content": "Use four spaces."},
        format="json",
    ).json()
    widget = maintainer.post(
        "/api/gurus/python/widget-ids/", {"domain_pattern": "*.example.com"}, format="json"
    ).json()
    maintainer.delete(f"/api/gurus/python/widget-ids/{widget['id']}/")
    bot = maintainer.post(
        "/api/gurus/python/integrations/",
        {"type": "DISCORD", "external_id": "42", "bot_token": "discord-token"},
        format="json",
    ).json()
    maintainer.patch(
        f"/api/gurus/python/integrations/{bot['id']}/", {"bot_token": "another"}, format="json"
    )
    maintainer.delete(f"/api/gurus/python/integrations/{bot['id']}/")
    maintainer.post(f"/api/gurus/python/sources/{source['id']}/reindex/")
    maintainer.delete(f"/api/gurus/python/sources/{source['id']}/")

    admin.patch("/api/settings/", {"trust_score_threshold": 0.5}, format="json")
    admin.post("/api/gurus/", {"slug": "rust", "name": "Rust"}, format="json")
    admin.delete("/api/gurus/rust/")
    admin.patch(f"/api/members/{org.member.pk}/", {"role": "maintainer"}, format="json")
    admin.post(f"/api/members/{org.member.pk}/gurus/", {"guru": "other"}, format="json")
    admin.delete(f"/api/members/{org.member.pk}/gurus/other/")
    admin.post("/api/invitations/", {"email": "n@example.com", "role": "member"}, format="json")

    assert _actions() == [
        "guru.update", "source.create", "widget_id.create", "widget_id.delete",
        "api_key.create",  # the bot's own integration key
        "integration.create", "integration.update", "integration.delete",
        "source.reindex", "source.delete",
        "settings.update", "guru.create", "guru.delete",
        "member.update", "grant.add", "grant.remove", "invitation.create",
    ]  # fmt: skip

    update = _last("guru.update")
    assert (update.actor, update.actor_id, update.guru_slug) == ("max", org.maintainer.pk, "python")
    assert update.api_key_prefix.startswith("og_")
    assert update.client_ip == "203.0.113.7"  # core/ratelimit.client_ip, behind a trusted proxy
    assert update.before == {"name": "Python", "github_webhook_secret": ""}
    assert update.after == {"name": "Py", "github_webhook_secret": MASK}

    bot_update = _last("integration.update")
    assert bot_update.after == {"access_token": f"{MASK} (new)"}
    assert "discord-token" not in str(list(AuditEvent.objects.values()))
    assert _last("member.update").before == {"role": "member"}  # only what changed
    assert _last("member.update").after == {"role": "maintainer"}
    assert _last("settings.update").actor == "ada"


def test_keys_and_the_admin_token_are_logged(org: Org):
    token = actor_client(org, "admin_token")
    created = token.post("/api/api-keys/", {"name": "ci"}, format="json").json()
    event = _last("api_key.create")
    assert event.actor == "admin token" and event.after["name"] == "ci"
    assert MASK not in str(event.after) and "prefix" in event.after
    token.delete(f"/api/api-keys/{created['id']}/")
    assert _last("api_key.delete").before["name"] == "ci"


def test_sign_ins_are_logged_success_and_failure(org: Org):
    browser, csrf = csrf_client()
    wrong = {"username": "max", "password": "guess"}
    browser.post("/api/auth/login/", wrong, format="json", HTTP_X_CSRFTOKEN=csrf)
    failed = _last("auth.login_failed")
    assert failed.actor == "max" and failed.actor_id is None and failed.client_ip == "127.0.0.1"
    assert "guess" not in str(failed.before) + str(failed.after)

    right = {"username": "max", "password": PASSWORD}
    browser.post("/api/auth/login/", right, format="json", HTTP_X_CSRFTOKEN=csrf)
    signed_in = _last("auth.login")
    assert (signed_in.actor, signed_in.actor_id) == ("max", org.maintainer.pk)


def test_filters_and_csv_export(org: Org):
    admin = actor_client(org, "admin")
    maintainer = actor_client(org, "maintainer")
    maintainer.patch("/api/gurus/python/", {"name": "Py"}, format="json")
    admin.patch("/api/gurus/other/", {"name": "Others"}, format="json")
    browser, csrf = csrf_client()
    formula = {"username": "=HYPERLINK(1)", "password": "x"}
    browser.post("/api/auth/login/", formula, format="json", HTTP_X_CSRFTOKEN=csrf)

    page = admin.get("/api/audit/", {"guru": "python"}).json()
    assert [e["action"] for e in page["results"]] == ["guru.update"]
    assert admin.get("/api/audit/", {"actor": "ada", "action": "guru"}).json()["count"] == 1
    assert admin.get("/api/audit/", {"action": "api_key"}).json()["count"] == 2  # the fixtures'
    later = (timezone.now() + timedelta(minutes=1)).isoformat()
    assert admin.get("/api/audit/", {"since": later}).json()["count"] == 0
    assert admin.get("/api/audit/", {"until": later}).json()["count"] == AuditEvent.objects.count()
    assert admin.get("/api/audit/", {"since": "yesterday"}).status_code == 400

    export = admin.get("/api/audit/export/", {"action": "guru.update"})
    assert export.status_code == 200 and export["Content-Type"] == "text/csv"
    assert export.streaming
    rows = list(csv.DictReader(io.StringIO(b"".join(export.streaming_content).decode())))
    assert [(r["actor"], r["guru_slug"]) for r in rows] == [("ada", "other"), ("max", "python")]
    assert rows[0]["target"] == "other" and rows[0]["after"] == '{"name": "Others"}'
    failed = admin.get("/api/audit/export/", {"action": "auth.login_failed"})
    [row] = list(csv.DictReader(io.StringIO(b"".join(failed.streaming_content).decode())))
    assert row["actor"] == "'=HYPERLINK(1)"  # a spreadsheet shows it, never runs it


def test_old_events_are_pruned_by_the_retention_setting(org: Org, settings):
    settings.AUDIT_RETENTION_DAYS = 30
    AuditEvent.objects.all().delete()
    old = AuditEvent.objects.create(action="guru.update", actor="ada")
    AuditEvent.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))
    AuditEvent.objects.create(action="guru.update", actor="ada")
    assert audit_events_prune.delay().get() == 1
    assert AuditEvent.objects.count() == 1
    settings.AUDIT_RETENTION_DAYS = 0
    AuditEvent.objects.update(created_at=timezone.now() - timedelta(days=3650))
    assert audit_prune() == 0


def test_beat_prunes_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["prune-audit-events"]
    assert entry["task"] == "openguru.core.audit.tasks.audit_events_prune"

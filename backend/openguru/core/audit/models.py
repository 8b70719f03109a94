from django.db import models


class AuditEvent(models.Model):
    """One change by a person or key, or one sign-in. Rows name their actor and guru by value,
    not by foreign key: the log outlives the people, keys and gurus it mentions."""

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=64, db_index=True)  # "<entity>.<verb>": guru.update
    actor_id = models.IntegerField(null=True, blank=True, db_index=True)  # the user's id
    actor = models.CharField(max_length=200, blank=True)  # who, as people read it
    api_key_prefix = models.CharField(max_length=16, blank=True)  # when a key acted
    client_ip = models.CharField(max_length=64, blank=True)
    guru_slug = models.SlugField(max_length=64, blank=True, db_index=True)
    target_type = models.CharField(max_length=64, blank=True)
    target_id = models.CharField(max_length=64, blank=True)
    target = models.CharField(max_length=300, blank=True)  # what, as people read it
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action} {self.target}"

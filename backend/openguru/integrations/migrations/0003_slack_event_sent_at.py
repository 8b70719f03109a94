from django.db import migrations, models
from django.db.models import F


def _mark_earlier_events_sent(apps, schema_editor):
    # Events taken before this field existed were handed to the broker when they came: the
    # sweep of unsent events must not answer them again.
    slack_event = apps.get_model("integrations", "SlackEvent")
    slack_event.objects.filter(sent_at__isnull=True).update(sent_at=F("created_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("integrations", "0002_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="slackevent",
            name="sent_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(_mark_earlier_events_sent, migrations.RunPython.noop),
    ]

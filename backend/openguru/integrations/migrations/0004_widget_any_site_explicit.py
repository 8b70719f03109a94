from django.db import migrations, models


def _empty_means_any_site(apps, schema_editor):
    # An empty pattern used to grant every site and now grants none: the widget ids made
    # before say "*" instead, so the pages that embed them keep working.
    widget_id = apps.get_model("integrations", "WidgetId")
    widget_id.objects.filter(domain_pattern__regex=r"^\s*$").update(domain_pattern="*")


class Migration(migrations.Migration):
    dependencies = [
        ("integrations", "0003_slack_event_sent_at"),
    ]

    operations = [
        migrations.AlterField(
            model_name="widgetid",
            name="domain_pattern",
            field=models.CharField(
                blank=True,
                default="",
                help_text='The sites that may embed the widget: "https://docs.example.com" (that '
                'scheme, host and port), "docs.example.com", "*.example.com" (sub-domains), '
                '"http://localhost:*" (any port), or "*" for any site. Empty: no site.',
                max_length=300,
            ),
        ),
        migrations.RunPython(_empty_means_any_site, migrations.RunPython.noop),
    ]

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("answers", "0003_vote_follow_up_examples"),
    ]

    operations = [
        migrations.AddField(
            model_name="question",
            name="grounding",
            field=models.JSONField(blank=True, null=True),
        ),
    ]

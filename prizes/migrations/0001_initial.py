"""The prize list, moved here from ``scoring`` (whose ``0008`` forgot it) with its tables
kept under their old names (``db_table``), so no row moves: ``SeparateDatabaseAndState``
creates the models in Django's state only.  The content types move along, so every
permission on prizes (and the director group that holds them) stays as it was."""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models

MODELS = ("prize", "historicalprize")


def move_content_types(apps, schema_editor, old="scoring", new="prizes"):
    """Give the content types of both models (and so their permissions) to ``new``."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if ContentType.objects.using(db).filter(app_label=new, model=model).exists():
            continue
        ContentType.objects.using(db).filter(app_label=old, model=model).update(app_label=new)


def move_back(apps, schema_editor):
    move_content_types(apps, schema_editor, old="prizes", new="scoring")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("scoring", "0008_prize_moves_to_prizes"),
        ("tournament", "0014_tournament_is_demo"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="HistoricalPrize",
                    fields=[
                        (
                            "id",
                            models.BigIntegerField(
                                auto_created=True, blank=True, db_index=True, verbose_name="ID"
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("place", "Platz"),
                                    ("table", "Preistisch (Wahl nach Platz)"),
                                    ("category", "Beste(r) einer Kategorie"),
                                    ("last", "Letzter Platz (rote Laterne)"),
                                ],
                                default="place",
                                max_length=10,
                                verbose_name="Art",
                            ),
                        ),
                        (
                            "place",
                            models.PositiveSmallIntegerField(
                                blank=True, null=True, verbose_name="Platz"
                            ),
                        ),
                        (
                            "place_to",
                            models.PositiveSmallIntegerField(
                                blank=True, null=True, verbose_name="bis Platz"
                            ),
                        ),
                        (
                            "cash",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                max_digits=7,
                                null=True,
                                verbose_name="Geldpreis (EUR)",
                            ),
                        ),
                        (
                            "description",
                            models.CharField(blank=True, max_length=200, verbose_name="Preis"),
                        ),
                        ("history_id", models.AutoField(primary_key=True, serialize=False)),
                        ("history_date", models.DateTimeField(db_index=True)),
                        ("history_change_reason", models.CharField(max_length=100, null=True)),
                        (
                            "history_type",
                            models.CharField(
                                choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")],
                                max_length=1,
                            ),
                        ),
                        (
                            "category",
                            models.ForeignKey(
                                blank=True,
                                db_constraint=False,
                                null=True,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                to="tournament.category",
                                verbose_name="Kategorie",
                            ),
                        ),
                        (
                            "history_user",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                blank=True,
                                db_constraint=False,
                                null=True,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                to="tournament.tournament",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "historical Preis",
                        "db_table": "scoring_historicalprize",
                        "verbose_name_plural": "historical Preise",
                        "ordering": ("-history_date", "-history_id"),
                        "get_latest_by": ("history_date", "history_id"),
                    },
                    bases=(simple_history.models.HistoricalChanges, models.Model),
                ),
                migrations.CreateModel(
                    name="Prize",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("place", "Platz"),
                                    ("table", "Preistisch (Wahl nach Platz)"),
                                    ("category", "Beste(r) einer Kategorie"),
                                    ("last", "Letzter Platz (rote Laterne)"),
                                ],
                                default="place",
                                max_length=10,
                                verbose_name="Art",
                            ),
                        ),
                        (
                            "place",
                            models.PositiveSmallIntegerField(
                                blank=True, null=True, verbose_name="Platz"
                            ),
                        ),
                        (
                            "place_to",
                            models.PositiveSmallIntegerField(
                                blank=True, null=True, verbose_name="bis Platz"
                            ),
                        ),
                        (
                            "cash",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                max_digits=7,
                                null=True,
                                verbose_name="Geldpreis (EUR)",
                            ),
                        ),
                        (
                            "description",
                            models.CharField(blank=True, max_length=200, verbose_name="Preis"),
                        ),
                        (
                            "category",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="prizes",
                                to="tournament.category",
                                verbose_name="Kategorie",
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="prizes",
                                to="tournament.tournament",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "Preis",
                        "db_table": "scoring_prize",
                        "verbose_name_plural": "Preise",
                        "ordering": ["tournament", "kind", "place", "pk"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("cash__isnull", True), ("cash__gte", 0), _connector="OR"
                                ),
                                name="prize_cash_not_negative",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_back),
    ]

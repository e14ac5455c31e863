"""The prize list moves to its own app (``prizes``): this app forgets the two models, the
database keeps their tables (``scoring_prize``, ``scoring_historicalprize``), which
``prizes.0001_initial`` takes over under the same names.  Django's way of moving a model
between apps: ``SeparateDatabaseAndState`` with no database operation."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_seatscore_covering_index"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="HistoricalPrize"),
                migrations.DeleteModel(name="Prize"),
            ],
            database_operations=[],
        ),
    ]

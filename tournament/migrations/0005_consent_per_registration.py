"""Consent to be named moves from the player to the registration: it is given for one
tournament.  Every existing registration keeps what its player had (the only answer there
was); the player's field stays as the last answer, to pre-fill the next registration."""

from django.db import migrations, models


def copy_consent_to_registrations(apps, schema_editor):
    Registration = apps.get_model("tournament", "Registration")
    Player = apps.get_model("tournament", "Player")
    consenting = Player.objects.filter(last_consent_public=True)
    Registration.objects.filter(player__in=consenting).update(consent_public=True)


def copy_consent_back_to_players(apps, schema_editor):
    """Reverse: a player consents if any of their registrations did (the old, shared
    meaning; nothing better is possible with one value per player)."""
    Registration = apps.get_model("tournament", "Registration")
    Player = apps.get_model("tournament", "Player")
    Player.objects.filter(
        pk__in=Registration.objects.filter(consent_public=True).values("player_id")
    ).update(last_consent_public=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0004_round_forced_close"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="consent_public",
            field=models.BooleanField(
                default=False,
                help_text="Gilt nur für dieses Turnier.",
                verbose_name="Name darf veröffentlicht werden",
            ),
        ),
        migrations.RenameField(
            model_name="player",
            old_name="consent_public",
            new_name="last_consent_public",
        ),
        migrations.AlterField(
            model_name="player",
            name="last_consent_public",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "Die Antwort bei der letzten Anmeldung. Ob der Name erscheint, entscheidet "
                    "die Zustimmung der Anmeldung zum jeweiligen Turnier."
                ),
                verbose_name="Zuletzt gegebene Zustimmung (nur zum Vorbelegen)",
            ),
        ),
        migrations.RunPython(copy_consent_to_registrations, copy_consent_back_to_players),
    ]

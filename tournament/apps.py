from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    """Tournament set-up: events, players, registrations, rounds, the seating draw."""

    name = "tournament"
    verbose_name = _("Turnier")

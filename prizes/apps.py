from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class PrizesConfig(AppConfig):
    """The prize list: cash and things per place, the best of a category, the last place,
    resolved from the standings; and the tie-break set beside it."""

    name = "prizes"
    verbose_name = _("Preise")

    def ready(self) -> None:
        from scoring.cache import standings_source_changed
        from tournament.roles import ensure_groups

        from .models import Prize

        # the director's group holds this app's rights too (tournament.roles.DIRECTOR_APPS):
        # granted again once they exist, after this app's post_migrate made them
        post_migrate.connect(ensure_groups, sender=self)
        # the standings page and the printed documents link the prize list
        post_save.connect(standings_source_changed, sender=Prize, dispatch_uid="standings-prize")
        post_delete.connect(
            standings_source_changed, sender=Prize, dispatch_uid="standings-del-prize"
        )

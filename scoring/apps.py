from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Hand entry (validated and scored by the rules engine) and standings."""

    name = "scoring"
    verbose_name = _("Wertung")

    def ready(self) -> None:
        from .roles import ensure_groups
        from .signals import WATCHED, standings_source_changed

        post_migrate.connect(ensure_groups, sender=self)
        for model in WATCHED:
            post_save.connect(
                standings_source_changed, sender=model, dispatch_uid=f"standings-{model}"
            )
            post_delete.connect(
                standings_source_changed, sender=model, dispatch_uid=f"standings-del-{model}"
            )

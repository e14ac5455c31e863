from django.apps import AppConfig
from django.db.models.signals import m2m_changed, post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Hand entry (validated and scored by the rules engine) and standings."""

    name = "scoring"
    verbose_name = _("Wertung")

    def ready(self) -> None:
        from tournament.roles import ensure_groups

        from .cache import WATCHED, WATCHED_ON_SAVE, standings_source_changed

        # run after this app's permissions are made (tournament's were made before)
        post_migrate.connect(ensure_groups, sender=self)
        for model in WATCHED + WATCHED_ON_SAVE:
            post_save.connect(
                standings_source_changed, sender=model, dispatch_uid=f"standings-{model}"
            )
        for model in WATCHED:
            post_delete.connect(
                standings_source_changed, sender=model, dispatch_uid=f"standings-del-{model}"
            )

        from tournament.models import Category

        from .cache import category_changed

        m2m_changed.connect(
            category_changed,
            sender=Category.registrations.through,
            weak=False,
            dispatch_uid="scoring.category_changed",
        )

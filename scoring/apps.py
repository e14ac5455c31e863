from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Hand entry (validated and scored by the rules engine) and standings."""

    name = "scoring"
    verbose_name = _("Wertung")

    def ready(self) -> None:
        from .roles import ensure_groups

        post_migrate.connect(ensure_groups, sender=self)

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DoorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "door"
    verbose_name = _("Einlass: Check-in und Startgeld")

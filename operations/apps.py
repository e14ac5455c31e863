from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OperationsConfig(AppConfig):
    """Running the program on a club's evening: the venue runner (``python -m
    operations.venue``: server, backups, first start) and the demo (its data, its logins,
    and a generator of whole tournaments for tests and benchmarks)."""

    name = "operations"
    verbose_name = _("Betrieb")

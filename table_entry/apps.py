from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableEntryConfig(AppConfig):
    """Players entering at the table: the phone pages behind a table's link, their
    throttle, and the director's list of links (the links themselves: :mod:`scoring.links`)."""

    name = "table_entry"
    verbose_name = _("Eingabe am Tisch")

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeriesConfig(AppConfig):
    """Series of evenings (a cup, a season): the standings over the evenings and the
    director's pages that set a series up.  The ``Series`` model itself lives in
    ``tournament``, beside the tournaments it groups."""

    name = "series"
    verbose_name = _("Serien")

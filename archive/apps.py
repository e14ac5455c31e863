from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    """What outlasts the evening: a tournament as JSON (export and import), the standings
    as CSV/XLSX, the SQLite backups (by hand, on a timer, at every round close) and
    their restore, the results website and its upload to the club's web space."""

    name = "archive"
    verbose_name = _("Archiv")

    def ready(self) -> None:
        from scoring.signals import round_closed

        from .signals import backup_after_close, publish_after_close

        round_closed.connect(backup_after_close, dispatch_uid="archive.backup_after_close")
        round_closed.connect(publish_after_close, dispatch_uid="archive.publish_after_close")

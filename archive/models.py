"""What the archive keeps of its own: the newspaper report as the director edited it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class PressReport(models.Model):
    """One saved version of a tournament's newspaper report (:mod:`archive.press`), as the
    director edited it on the page: every save adds a row, the newest is shown again when
    the page is opened (issue 37.6: edits were lost on leaving the page), the older ones
    are the history.  ``text`` is plain text, paragraphs separated by blank lines."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="press_reports"
    )
    text = models.TextField(_("Text"), max_length=20000)
    saved_at = models.DateTimeField(_("gespeichert"), auto_now_add=True)
    saved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )

    class Meta:
        ordering = ["-saved_at", "-pk"]
        verbose_name = _("Pressebericht")
        verbose_name_plural = _("Presseberichte")

    def __str__(self) -> str:
        return f"{self.tournament} {self.saved_at:%d.%m.%Y %H:%M}"

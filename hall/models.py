"""Announcements and calls of one evening.  Neither is ever deleted by the app: a
withdrawn announcement and a call marked done stay, with who and when, as the evening's
history (shown on the console)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import TableLink
from tournament.models import Table, Tournament


class Announcement(models.Model):
    """A short text from the director for everyone in the hall: shown on the projector,
    every table's phone page and the public standings while :meth:`is_active` (not
    withdrawn, not expired).  ``text``: at most :data:`MAX_LENGTH` characters, shown
    escaped like every typed text."""

    MAX_LENGTH = 200

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(_("Durchsage"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(_("angezeigt seit"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    expires_at = models.DateTimeField(_("angezeigt bis"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("zurückgenommen am"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("Durchsage")
        verbose_name_plural = _("Durchsagen")

    def __str__(self) -> str:
        return self.text

    def is_active(self, now=None) -> bool:
        now = now or timezone.now()
        return self.withdrawn_at is None and (self.expires_at is None or self.expires_at > now)


class DirectorCall(models.Model):
    """A table's call for the director ("Turnierleitung rufen"), made from the table's
    phone page through its link, with an optional short ``reason``.  Open until the
    director marks it done (``done_at``, ``done_by``)."""

    REASON_LENGTH = 120

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="director_calls")
    link = models.ForeignKey(
        TableLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(_("Grund"), max_length=REASON_LENGTH, blank=True)
    created_at = models.DateTimeField(_("gerufen um"), default=timezone.now)
    done_at = models.DateTimeField(_("erledigt um"), null=True, blank=True)
    done_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("Ruf an die Turnierleitung")
        verbose_name_plural = _("Rufe an die Turnierleitung")
        constraints = [
            # one open call per table: a second tap while the first is open changes nothing
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(done_at__isnull=True), name="one_open_call"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.reason}"

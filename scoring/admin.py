"""Django admin for entered results; every change is kept in the history."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Hand, RoundTotal


@admin.register(Hand)
class HandAdmin(SimpleHistoryAdmin):
    list_display = (
        "table",
        "number",
        "declarer",
        "bid",
        "outcome",
        "declarer_won",
        "version",
        "entered_by",
    )
    list_filter = ("table__round__tournament", "outcome")
    readonly_fields = ("scores", "declarer_won", "version")


@admin.register(RoundTotal)
class RoundTotalAdmin(SimpleHistoryAdmin):
    list_display = ("round", "registration", "points", "version", "entered_by")

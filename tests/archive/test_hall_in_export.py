"""The evening's announcements and calls (issue 41) travel with the tournament's export:
"nothing entered is ever lost" holds for them too."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from hall import services as hall
from hall.models import Announcement, DirectorCall
from scoring import links
from tests.factories.tournaments import make_tournament, three_table
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_announcements_and_calls_are_exported_and_imported(director, tmp_path):
    tournament = make_tournament()
    tournament.table_entry = "opponent"
    tournament.save()
    shown = hall.announce(tournament, "Pause bis 21 Uhr", director, minutes=30)
    withdrawn = hall.announce(tournament, "Parkplatz: HN-AB 123", director)
    hall.withdraw(withdrawn, director)
    table = three_table(tournament)
    call, _created = hall.call_director(links.live_link(table), "Frage zum Reizen")
    hall.mark_done(call, director)

    path = tmp_path / "turnier.json"
    call_command("export_tournament", tournament.pk, str(path), stdout=StringIO())
    call_command("import_tournament", str(path), stdout=StringIO())
    copy = Tournament.objects.exclude(pk=tournament.pk).get()

    def announcements(of):
        return [
            (
                a.text,
                a.created_at,
                a.expires_at,
                a.withdrawn_at,
                getattr(a.withdrawn_by, "pk", None),
            )
            for a in Announcement.objects.filter(tournament=of).order_by("created_at", "text")
        ]

    assert announcements(copy) == announcements(tournament)
    assert len(announcements(copy)) == 2 and shown.expires_at is not None
    copied = DirectorCall.objects.get(table__round__tournament=copy)
    assert copied.table.number == table.number and copied.table != table
    assert (copied.reason, copied.created_at, copied.done_at) == (
        "Frage zum Reizen",
        DirectorCall.objects.get(pk=call.pk).created_at,
        DirectorCall.objects.get(pk=call.pk).done_at,
    )
    assert copied.done_by == director

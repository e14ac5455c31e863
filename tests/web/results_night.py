"""The evening the results website and the newspaper report are tested on (issue 28),
shared by tests/web and tests/browser."""

from __future__ import annotations

from scoring import links
from tests.conftest import close_round_anyway, make_tournament
from tests.printing.test_sheets_legible import play
from tournament import services as tournament_services
from tournament.models import Category


def results_evening(clerk):
    """Nine players (every third without consent, two in a category "Damen"), table entry
    on: round 1 with three games entered at each table and closed (shared places), round 2
    drawn and running with its tables' live links, round 3 to come."""
    tournament = make_tournament(players=9)
    tournament.table_entry = "opponent"
    tournament.save()
    ladies = Category.objects.create(tournament=tournament, name="Damen", slug="damen")
    for registration in tournament.registrations.order_by("start_number")[:2]:
        registration.categories.add(ladies)
    round_ = tournament.round_set.get(number=1)
    links.round_links(round_, clerk)  # each table's private link: never in the export
    for table in round_.tables.all():
        for number in range(1, 4):
            play(table, number, 3, clerk, declarer_wins=number != 2)
    close_round_anyway(tournament)
    running = tournament.round_set.get(number=2)
    tournament_services.draw_round(running, seed=3)
    tournament_services.start_round(running)
    links.round_links(running, clerk)  # its tables' live links
    return tournament

"""Issue 37.38: before a table enters its first hand, its players have no result. They
used to rank with 0 points above players on negative points; now they are listed last,
without place and total, until they have a result or their round is closed."""

from __future__ import annotations

import re

from django.urls import reverse

from printing import pdfs
from scoring import selectors, services
from tests.factories.hands import entry
from tests.factories.pdf import text_of
from tests.factories.tournaments import close_round_anyway, make_tournament


def _lost_hand_at_first_table(tournament, clerk):
    table = tournament.round_set.get(number=1).tables.order_by("number").first()
    lost = entry(melds={0: 20, 1: 140, 2: 60}, tricks={0: 150, 1: 50, 2: 50})
    hand, evaluation = services.save_hand(table, lost, clerk)
    assert evaluation.ok and hand.declarer_won is False
    return table


def test_players_without_a_result_come_last_without_a_place(client, clerk):
    tournament = make_tournament(players=6, consent=lambda i: True)
    table = _lost_hand_at_first_table(tournament, clerk)
    played = set(table.seats.values_list("registration_id", flat=True))
    rows = selectors.standings(tournament)
    assert [r.waiting for r in rows] == [False] * 3 + [True] * 3
    assert {r.registration_id for r in rows[:3]} == played
    assert rows[2].total < 0 and rows[2].rank == 3  # the declarer who lost ranks third
    assert all(r.rank is None for r in rows[3:])
    page = client.get(reverse("scoring:standings", args=[tournament.pk])).content.decode()
    assert "noch kein Ergebnis eingetragen" in page
    assert "hat Runden verpasst" not in page  # not the missed-rounds legend
    last = page.split("<tbody")[1].split("</tr>")[-2]
    assert re.search(r'class="[^"]*c-rank[^"]*"\s*>–</td>', last), last
    assert re.search(r'class="[^"]*c-total[^"]*"\s*>—</td>', last), last
    seat = tournament.round_set.get(number=1).tables.order_by("number").last().seats.first()
    number = seat.registration.start_number
    player = client.get(reverse("scoring:player", args=[tournament.pk, number])).content.decode()
    assert "noch kein Ergebnis" in player and " 0 Punkte" not in player
    results = text_of(pdfs.results_pdf(tournament))
    assert "noch kein Ergebnis eingetragen" in results


def test_a_closed_round_counts_for_every_seated_player(clerk):
    tournament = make_tournament(players=6, consent=lambda i: True)
    _lost_hand_at_first_table(tournament, clerk)
    close_round_anyway(tournament)  # the second table entered nothing: 0 points each
    rows = selectors.standings(tournament)
    assert not any(r.waiting for r in rows)
    assert all(r.rank is not None for r in rows)
    assert [r.total for r in rows][-1] < 0  # below the three with 0
    assert [r.rank for r in rows] == [1, 2, 3, 3, 3, 6]

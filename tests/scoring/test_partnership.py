"""Every preset runs a tournament (issue 12.4): ``partnership-250`` at tables of four with
partners opposite, as an individual event (partners change by the draw) and as a pairs
event (fixed partners, standings per pair); player counts that do not fit are refused
with the count and what is missing."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring import selectors
from scoring.models import SeatScore
from tests.factories.tournaments import (
    close_round_anyway,
    partnership_tournament,
    running_table_of_eight,
)
from tests.factories.web import enter_partnership_hand
from tournament import services
from tournament.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def seating(round_) -> list[list[int]]:
    """Start numbers per table in seat order."""
    return [
        [s.registration.start_number for s in t.seats.order_by("position")]
        for t in round_.tables.order_by("number")
    ]


def partners(tables) -> set[tuple[int, int]]:
    return {tuple(sorted((t[a], t[a + 2]))) for t in tables for a in (0, 1)}


# ------------------------------------------------------------------------------ set-up


def test_set_up_accepts_partnership_250(client, director):
    client.force_login(director)
    response = client.post(
        reverse("tournament:create"),
        {
            "name": "Partnerbinokel",
            "date": "2026-11-28",
            "preset": "partnership-250",
            "rounds": 3,
            "games_per_round": 12,
            "four_table_mode": "kreuz",
            "entry_mode": "hands",
            "event_type": "pairs",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    tournament = Tournament.objects.get()
    assert tournament.preset == "partnership-250"
    assert tournament.event_type == Tournament.EventType.PAIRS


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"four_table_mode": "sit-out"}, "four_table_mode", "nur zu viert"),
        ({"games_per_round": 9}, "games_per_round", "durch 4 teilbar"),
        (
            {"preset": "club-tournament", "event_type": "pairs"},
            "event_type",
            "Paarwertung gibt es nur",
        ),
    ],
)
def test_partnership_set_up_mistakes_are_named_at_their_field(
    client, director, change, field, words
):
    client.force_login(director)
    data = {
        "name": "Partnerbinokel",
        "date": "2026-11-28",
        "preset": "partnership-250",
        "rounds": 3,
        "games_per_round": 12,
        "four_table_mode": "kreuz",
        "entry_mode": "hands",
    }
    response = client.post(reverse("tournament:create"), dict(data, **change))
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert any(words in e for e in errors[field]), errors
    assert not Tournament.objects.exists()


# ------------------------------------------------------------------------ individual event


def test_sixteen_players_sit_at_four_tables_of_four_and_change_partners():
    tournament = partnership_tournament(16)
    seen_partners: Counter = Counter()
    met: Counter = Counter()
    for number in (1, 2, 3):
        if number > 1:
            close_round_anyway(tournament, number - 1)
        round_ = tournament.round_set.get(number=number)
        plan = services.draw_round(round_, seed=number)
        services.start_round(round_)
        tables = seating(round_)
        assert [len(t) for t in tables] == [4, 4, 4, 4]
        assert sorted(n for t in tables for n in t) == list(range(1, 17))
        assert plan.partner_repeats == 0
        seen_partners.update(partners(tables))
        for t in tables:
            met.update(itertools.combinations(sorted(t), 2))
    # 3 rounds × 8 partnerships, every one new
    assert len(seen_partners) == 24 and max(seen_partners.values()) == 1
    assert max(met.values()) == 1  # 16 players, 3 rounds: nobody meets twice


def test_thirty_players_are_refused_with_the_count_and_what_is_missing():
    tournament = partnership_tournament(30)
    with pytest.raises(ValidationError) as refused:
        services.draw_round(tournament.round_set.get(number=1), seed=1)
    message = refused.value.messages[0]
    assert "durch 4 teilbare Spielerzahl" in message
    assert "spielen 30" in message and "fehlende Spieler: 2, überzählige: 2" in message
    assert not tournament.round_set.get(number=1).tables.exists()


def test_draw_page_shows_the_count_message_not_a_500(client, director):
    tournament = partnership_tournament(31)
    client.force_login(director)
    response = client.post(
        reverse("scoring:round_action", args=[tournament.pk, 1, "auslosen"]),
        {"seed": "5"},
        follow=True,
    )
    assert response.status_code in (200, 422)
    assert "in dieser Runde spielen 31" in response.content.decode()
    assert "fehlende Spieler: 1, überzählige: 3" in response.content.decode()


def test_a_hand_entered_on_the_web_gives_both_partners_the_team_score(client, clerk):
    tournament, table = running_table_of_eight(clerk)
    client.force_login(clerk)
    response = enter_partnership_hand(client, tournament, table)
    assert response.status_code in (200, 302), response.content.decode()[:2000]
    seat = {s.position: s.registration for s in table.seats.all()}
    # team 1+3 (positions 0, 2): melds 140 + tricks 160 = 300 = bid, made; team 2+4: 20 + 90
    rows = {r.start_number: r for r in selectors.standings(tournament)}
    for position, points in ((0, 300), (2, 300), (1, 110), (3, 110)):
        assert rows[seat[position].start_number].total == points
    # the declaring side's game counts as won for both partners, the others none
    assert rows[seat[0].start_number].won == rows[seat[2].start_number].won == 1
    assert rows[seat[1].start_number].won == rows[seat[1].start_number].lost == 0
    assert SeatScore.objects.filter(declarer=True).count() == 2
    assert rows[seat[0].start_number].rank == rows[seat[2].start_number].rank == 1


def test_a_lost_game_counts_for_both_partners_of_the_declaring_side(client, clerk):
    tournament = partnership_tournament(4)
    tournament.clerks.add(clerk)
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    services.start_round(round_)
    table = round_.tables.get()
    client.force_login(clerk)
    enter_partnership_hand(client, tournament, table, bid=500)
    seat = {s.position: s.registration for s in table.seats.all()}
    rows = {r.start_number: r for r in selectors.standings(tournament)}
    assert rows[seat[0].start_number].total == rows[seat[2].start_number].total == -500
    assert rows[seat[0].start_number].lost == rows[seat[2].start_number].lost == 1
    assert rows[seat[1].start_number].lost == 0


# ----------------------------------------------------------------------------- pairs event


def test_pairs_sit_together_opposite_and_meet_new_pairs():
    tournament = partnership_tournament(16, Tournament.EventType.PAIRS)
    fixed = {(a, a + 1) for a in range(1, 16, 2)}
    opponents: Counter = Counter()
    for number in (1, 2, 3):
        if number > 1:
            close_round_anyway(tournament, number - 1)
        round_ = tournament.round_set.get(number=number)
        plan = services.draw_round(round_, seed=number)
        services.start_round(round_)
        tables = seating(round_)
        assert [len(t) for t in tables] == [4] * 4
        assert partners(tables) == fixed
        assert plan.repeats == 0
        for t in tables:
            opponents[tuple(sorted((t[0], t[1])))] += 1
    assert max(opponents.values()) == 1


def test_odd_number_of_pairs_and_players_without_a_partner_are_refused():
    tournament = partnership_tournament(14, Tournament.EventType.PAIRS)
    with pytest.raises(ValidationError) as refused:
        services.draw_round(tournament.round_set.get(number=1), seed=1)
    assert "gerade Zahl von Paaren" in refused.value.messages[0]
    assert "Zahl der Paare in dieser Runde: 7" in refused.value.messages[0]
    single = partnership_tournament(8, Tournament.EventType.PAIRS, pairs=False)
    services.form_pair(single, 1, 2)
    with pytest.raises(ValidationError) as refused:
        services.draw_round(single.round_set.get(number=1), seed=1)
    assert "Ohne Partner: Startnummer 3, 4, 5, 6, 7, 8" in refused.value.messages[0]


def test_forming_pairs_on_the_registrations_page(client, director):
    tournament = partnership_tournament(4, Tournament.EventType.PAIRS, pairs=False)
    client.force_login(director)
    url = reverse("tournament:registrations", args=[tournament.pk])
    assert "Paare bilden" in client.get(url).content.decode()
    response = client.post(url, {"action": "pair", "first": 1, "second": 3})
    assert response.status_code == 302
    assert dict(Registration.objects.values_list("start_number", "pair")) == {
        1: 1,
        2: None,
        3: 1,
        4: None,
    }
    response = client.post(url, {"action": "pair", "first": 3, "second": 4})
    assert response.status_code == 422
    assert "spielt schon in Paar 1" in response.content.decode()
    response = client.post(url, {"action": "unpair", "pair": "1"})
    assert not Registration.objects.filter(pair__isnull=False).exists()


def test_pairs_are_refused_in_an_individual_event():
    tournament = partnership_tournament(4)
    with pytest.raises(ValidationError, match="nur bei einem Turnier mit Paarwertung"):
        services.form_pair(tournament, 1, 2)


def test_pair_standings_rank_pairs_with_shared_places(client, clerk):
    tournament = partnership_tournament(8, Tournament.EventType.PAIRS)
    tournament.clerks.add(clerk)
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    services.start_round(round_)
    client.force_login(clerk)
    # the same hand at both tables: the declaring pairs tie, and so do the other two
    for table in round_.tables.all():
        response = enter_partnership_hand(client, tournament, table)
        assert response.status_code in (200, 302)
    rows = selectors.pair_standings(tournament)
    assert [(r.rank, r.total) for r in rows] == [(1, 300), (1, 300), (3, 110), (3, 110)]
    assert all(len(r.members) == 2 for r in rows)
    assert rows[0].won == 1 and rows[2].won == 0
    # the public standings page and the CSV list pairs
    page = client.get(reverse("scoring:standings", args=[tournament.pk])).content.decode()
    assert "Paar" in page and rows[0].members[0].name in page
    csv = client.get(reverse("archive:standings", args=[tournament.pk, "csv"])).content.decode()
    header, *lines = csv.strip().splitlines()
    assert header.startswith("Platz,Paar")
    assert len(lines) == 4 and lines[0].startswith("1,")


def test_pairs_whose_table_has_entered_nothing_wait_without_place_or_total(client, clerk):
    """Issue 37.38 for pairs events: before a table enters its first hand, its two pairs
    have no result. They were ranked with 0 points, above pairs with negative totals."""
    tournament = partnership_tournament(8, Tournament.EventType.PAIRS)
    tournament.clerks.add(clerk)
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    services.start_round(round_)
    client.force_login(clerk)
    first, second = round_.tables.order_by("number")
    assert enter_partnership_hand(client, tournament, first).status_code in (200, 302)
    rows = selectors.pair_standings(tournament)
    waiting = [r for r in rows if r.waiting]
    assert len(waiting) == 2 and rows[-2:] == waiting  # listed last
    assert all(r.rank is None for r in waiting)
    assert [r.rank for r in rows if not r.waiting] == [1, 2]
    seated = {s.registration.pair for s in second.seats.select_related("registration")}
    assert {r.pair for r in waiting} == seated
    fragment = client.get(reverse("scoring:standings_fragment", args=[tournament.pk]))
    html = fragment.content.decode()
    assert "noch kein Ergebnis eingetragen" in html
    csv = client.get(reverse("archive:standings", args=[tournament.pk, "csv"])).content.decode()
    assert csv.strip().splitlines()[-1].split(",")[0] in ("", "–")


def test_score_sheet_and_player_view_name_the_partners(client):
    tournament = partnership_tournament(8, Tournament.EventType.PAIRS)
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    services.start_round(round_)
    from printing import documents

    sheet = documents.score_sheets(round_, filled=False)[0]
    assert sheet.teams == {0: "A", 2: "A", 1: "B", 3: "B"}
    assert "A: Platz 1 + 3 · B: Platz 2 + 4" in sheet.teams_text
    seats = list(round_.tables.get(number=1).seats.order_by("position"))
    page = client.get(
        reverse("scoring:player", args=[tournament.pk, seats[0].registration.start_number])
    ).content.decode()
    partner = seats[2].registration.public_name()
    assert f'<bdi>{partner}</bdi> <span class="muted">(Partner)</span>' in page


def test_a_swap_that_would_split_pairs_is_refused():
    tournament = partnership_tournament(8, Tournament.EventType.PAIRS)
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    regs = {r.start_number: r for r in tournament.registrations.all()}
    with pytest.raises(ValidationError, match="Partner fest zusammen"):
        services.swap_players(round_, regs[1], regs[3])
    services.swap_players(round_, regs[1], regs[2])  # partners may change places
    assert partners(seating(round_)) == {(1, 2), (3, 4), (5, 6), (7, 8)}


def test_pair_standings_follow_the_tie_break(monkeypatch):
    """Pairs on equal points are placed by the tournament's tie-break, as players are: the
    best single round first, then fewer lost games; equal on all of these, they share."""
    tournament = partnership_tournament(8, Tournament.EventType.PAIRS)
    # pair: (round 1, round 2, games lost) — every pair 400 points
    per_pair = {1: (200, 200, 0), 2: (300, 100, 2), 3: (100, 300, 1), 4: (300, 100, 2)}
    pair_of = dict(tournament.registrations.values_list("start_number", "pair"))
    regs = dict(tournament.registrations.values_list("start_number", "pk"))

    def fake_standings(t, round_number=None, public=True):
        return [
            selectors.StandingRow(
                rank=0,
                start_number=number,
                name=f"V{number}",
                club="",
                rounds=list(per_pair[pair_of[number]][:2]),
                total=400,
                won=0,
                lost=per_pair[pair_of[number]][2],
                fee=None,
                registration_id=regs[number],
            )
            for number in sorted(regs)
        ]

    monkeypatch.setattr(selectors.pairs, "standings", fake_standings)
    shared = [(r.pair, r.rank) for r in selectors.pair_standings(tournament)]
    assert shared == [(1, 1), (2, 1), (3, 1), (4, 1)]
    Tournament.objects.filter(pk=tournament.pk).update(tie_break=Tournament.TieBreak.BEST_ROUND)
    tournament.refresh_from_db()
    ranked = [(r.pair, r.rank) for r in selectors.pair_standings(tournament)]
    assert ranked == [(3, 1), (2, 2), (4, 2), (1, 4)]
    # one round's standings always share
    assert {r.rank for r in selectors.pair_standings(tournament, 1)} == {1}

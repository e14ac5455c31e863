"""Running tournaments and their tables."""

from __future__ import annotations

from datetime import date

from tournament.models import Tournament
from tournament.roles import CLERK_GROUP


def make_tournament(players: int = 9, consent=lambda i: i % 3 != 0, **kwargs):
    """A tournament with ``players`` registered (every third without consent), round 1
    drawn with seed 7 and running."""
    from django.contrib.auth import get_user_model

    from tournament import services
    from tournament.models import Player

    kwargs.setdefault("clerks", get_user_model().objects.filter(groups__name=CLERK_GROUP))
    tournament = services.create_tournament(
        name="Testturnier", date=date(2026, 11, 21), venue="Plochingen", **kwargs
    )
    for i in range(1, players + 1):
        player = Player.objects.create(
            first_name=f"Vorname{i}",
            last_name=f"Nachname{i}",
            club="TSV",
        )
        services.register(tournament, player, consent_public=consent(i))
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=7)
    services.start_round(round_)
    return tournament


def assign_to_all_tournaments(user) -> None:
    """Make ``user`` a clerk of every tournament there is (``make_tournament`` does the
    converse for clerks made first), so tests need not care which came first."""
    for tournament in Tournament.objects.all():
        tournament.clerks.add(user)


def close_round_anyway(tournament, number: int = 1):
    """Close round ``number`` although hands are missing, as a director may with a reason
    (rounds run in order: the next round can be drawn only after this)."""
    from scoring import services

    round_ = tournament.round_set.get(number=number)
    services.close_round(round_, reason="Test: Runde ohne alle Spiele")
    return round_


def three_table(tournament, round_number: int = 1):
    """The first table of three (by number) in round ``round_number``."""
    return (
        tournament.round_set.get(number=round_number)
        .tables.filter(seats__position=2)
        .exclude(seats__position=3)
        .order_by("number")
        .first()
    )


def first_round_tables(tournament) -> list:
    """The tables of round 1, by number."""
    return list(tournament.round_set.get(number=1).tables.order_by("number"))


# --------------------------------------------------------------------- partnership-250

PARTNERS = {"preset": "partnership-250", "four_table_mode": Tournament.FourTableMode.KREUZ}


def partnership_tournament(players=16, event_type=Tournament.EventType.INDIVIDUAL, pairs=True):
    """A ``partnership-250`` tournament with ``players`` registered (all consenting); for
    a pairs event with start numbers 1+2, 3+4, … paired when ``pairs``."""
    from tournament import services
    from tournament.models import Player

    tournament = services.create_tournament(
        name="Partnerbinokel", date=date(2026, 11, 28), event_type=event_type, **PARTNERS
    )
    for i in range(1, players + 1):
        player = Player.objects.create(first_name=f"V{i}", last_name=f"N{i}")
        services.register(tournament, player, consent_public=True)
    if event_type == Tournament.EventType.PAIRS and pairs:
        for a in range(1, players, 2):
            services.form_pair(tournament, a, a + 1)
    return tournament


def running_table_of_eight(clerk):
    """An 8-player ``partnership-250`` tournament with ``clerk`` as its clerk, round 1
    drawn (seed 3) and started: the tournament and table 1."""
    from tournament import services

    tournament = partnership_tournament(8)
    tournament.clerks.add(clerk)
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    services.start_round(round_)
    return tournament, round_.tables.get(number=1)


# --------------------------------------------------------------------- printing

LONG_FIRST, LONG_LAST = "Maximilian-Alexander", "Württemberger-Hohenlohe"
LONG_CLUB = "Binokelfreunde Ober- und Unterensingen-Wernau e.V. 1923"
LONG_VENUE = (
    "Gasthaus zum Goldenen Ochsen, Festsaal im Obergeschoss, Hauptstraße 123, "
    "73207 Plochingen am Neckar"
)


def mixed_tournament(**kwargs):
    """Seven players: one table of 4 and one of 3 in round 1; the player at the 4-table's
    third seat has a very long name and club, the venue is long."""
    tournament = make_tournament(players=7, **kwargs)
    tournament.venue = LONG_VENUE
    tournament.save()
    round_ = tournament.round_set.get(number=1)
    four = next(t for t in round_.tables.all() if t.seats.count() == 4)
    seat = four.seats.get(position=2)
    registration = seat.registration
    player = registration.player
    player.first_name, player.last_name, player.club = LONG_FIRST, LONG_LAST, LONG_CLUB
    player.save()
    registration.consent_public = True
    registration.save()
    return tournament, round_, four


def running_event(
    people: list[tuple[str, str, str]],
    user,
    *,
    melds: tuple[int, int, int] = (140, 20, 60),
    **tournament_fields,
):
    """A tournament (``tournament_fields`` for ``create_tournament``; name "Herbst" and the
    21.11.2026 unless given) whose ``people`` — (first name, last name, club) — are all
    registered with consent to be named, round 1 drawn with seed 7 and running, and game 1
    at table 1 entered by ``user``: the declarer bids 300 in hearts and the three players
    meld ``melds`` (in seat order after the dealer) and take 175, 30 and 45 trick points.
    Shared by the security tests of the printed documents and the spreadsheets."""
    from scoring import services as scoring_services
    from tournament import services
    from tournament.models import Player

    tournament_fields.setdefault("name", "Herbst")
    tournament_fields.setdefault("date", date(2026, 11, 21))
    tournament = services.create_tournament(**tournament_fields)
    for first, last, club in people:
        player = Player.objects.create(first_name=first, last_name=last, club=club)
        services.register(tournament, player, consent_public=True)
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=7)
    services.start_round(round_)
    table = round_.tables.order_by("number").first()
    dealer = scoring_services.dealer_for(table, 3, 1)
    order = [(dealer + 1 + i) % 3 for i in range(3)]
    entry = scoring_services.HandInput(
        number=1, dealer=dealer, declarer=order[0], bid=300, outcome="played", trump="H",
        melds=dict(zip(order, melds, strict=True)),
        tricks=dict(zip(order, (175, 30, 45), strict=True)),
    )  # fmt: skip
    hand, evaluation = scoring_services.save_hand(table, entry, user)
    assert hand is not None, evaluation.errors
    return tournament

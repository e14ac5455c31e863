"""A small running tournament with typed names, shared by the security tests of the printed
documents and the spreadsheets."""

from __future__ import annotations

from datetime import date

from scoring import services as scoring_services
from tournament import services
from tournament.models import Player, Tournament


def running_event(
    people: list[tuple[str, str, str]],
    user,
    *,
    melds: tuple[int, int, int] = (140, 20, 60),
    **tournament_fields,
) -> Tournament:
    """A tournament (``tournament_fields`` for ``create_tournament``; name "Herbst" and the
    21.11.2026 unless given) whose ``people`` — (first name, last name, club) — are all
    registered with consent to be named, round 1 drawn with seed 7 and running, and game 1
    at table 1 entered by ``user``: the declarer bids 300 in hearts and the three players
    meld ``melds`` (in seat order after the dealer) and take 175, 30 and 45 trick points."""
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

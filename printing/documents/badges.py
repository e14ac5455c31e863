"""The documents a player carries through the evening: the name badge (:func:`badge_rows`)
and the running slip ("Laufzettel", :func:`running_slip_rows`) with the player's table in
every round drawn so far.

Both lie on the tables or hang on a jacket where anyone in the hall can read them, so they
name only players who consented (:func:`consents`), as the table plan and the table cards
do; the others appear by start number only, without name or club."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import Registration, Seat, Tournament

from .common import consents, isolate

#: the lengths (in characters) above which a name, or a club, is printed in the smaller
#: type ``"long"`` and the smallest ``"longer"`` (the CSS classes of the print templates)
NAME_STEPS = (22, 44)
CLUB_STEPS = (34, 80)


def type_size(text: str, steps: tuple[int, int]) -> str:
    """The type size class for ``text``: ``""`` (the normal size), ``"long"`` or
    ``"longer"`` as its length passes ``steps``."""
    if len(text) > steps[1]:
        return "longer"
    return "long" if len(text) > steps[0] else ""


@dataclass
class Badge:
    """One name badge: the start number, the name as "Vorname Nachname" and the club (both
    empty when the player did not consent to being named; each part isolated,
    :func:`isolate`), and the type size classes of name and club (:func:`type_size`)."""

    start_number: int
    name: str
    club: str
    name_size: str = ""
    club_size: str = ""


@dataclass
class SlipRound:
    """A round on a running slip: its ``number``; ``table`` and ``seat`` (1-based) where
    the player is seated in the drawn round, else ``None``; ``plays`` is false for a round
    the player does not play (starts later or withdrew before it: printed "–").  A round
    the player plays that is not drawn yet has neither table nor seat (an empty box)."""

    number: int
    table: int | None = None
    seat: int | None = None
    plays: bool = True


@dataclass
class Slip:
    """One running slip: start number, name ("Vorname Nachname", empty without consent)
    and one :class:`SlipRound` per round of the tournament, in order."""

    start_number: int
    name: str
    rounds: list[SlipRound]
    name_size: str = ""


def _registrations(tournament: Tournament) -> list[Registration]:
    """Every registration of ``tournament`` by start number, players loaded (one query)."""
    return list(tournament.registrations.select_related("player").order_by("start_number"))


def _printed_name(registration: Registration) -> tuple[str, str]:
    """The name printed for ``registration`` ("" without consent) and its type size."""
    if not consents(registration):
        return "", ""
    player = registration.player
    # each part isolated: a right-to-left override in the first name stays in it
    name = f"{isolate(player.first_name)} {isolate(player.last_name)}"
    return name, type_size(f"{player.first_name} {player.last_name}", NAME_STEPS)


def badge_rows(tournament: Tournament) -> list[Badge]:
    """One :class:`Badge` per registration of ``tournament`` (withdrawn players and late
    arrivals included), by start number.  Name and club only with consent.  One query."""
    badges = []
    for registration in _registrations(tournament):
        name, name_size = _printed_name(registration)
        club = registration.player.club if name else ""
        badges.append(
            Badge(
                start_number=registration.start_number,
                name=name,
                club=isolate(club) if club else "",
                name_size=name_size,
                club_size=type_size(club, CLUB_STEPS),
            )
        )
    return badges


def _seats(tournament: Tournament) -> dict[tuple[int, int], tuple[int, int]]:
    """(registration id, round number) → (table number, seat 1-based) for every seat of
    every drawn round of ``tournament`` (one query)."""
    rows = Seat.objects.filter(round__tournament=tournament).values_list(
        "registration_id", "round__number", "table__number", "position"
    )
    return {(reg, number): (table, position + 1) for reg, number, table, position in rows}


def _slip_round(registration: Registration, number: int, seat: tuple[int, int] | None):
    """The :class:`SlipRound` of round ``number`` for ``registration``: where it sits when
    seated (even in a round it has since withdrawn from: it sat there), else "–" for a
    round it does not play, else an empty box."""
    if seat is not None:
        return SlipRound(number, table=seat[0], seat=seat[1])
    return SlipRound(number, plays=registration.plays_in(number))


def running_slip_rows(tournament: Tournament) -> list[Slip]:
    """One :class:`Slip` per registration of ``tournament`` (withdrawn players and late
    arrivals included), by start number, each with a :class:`SlipRound` for rounds 1 to
    ``tournament.rounds``: table and seat where the round is drawn, "–" where the player
    does not play it (``Registration.first_round``, ``withdrawn_after_round``), an empty
    box otherwise.  Names only with consent.  Two queries."""
    seats = _seats(tournament)
    slips = []
    for registration in _registrations(tournament):
        name, name_size = _printed_name(registration)
        rounds = [
            _slip_round(registration, n, seats.get((registration.pk, n)))
            for n in range(1, tournament.rounds + 1)
        ]
        slips.append(Slip(registration.start_number, name, rounds, name_size))
    return slips


def in_pages(items: list, per_page: int) -> list[list]:
    """``items`` cut into pages of ``per_page`` (the last one may hold fewer); no page for
    no items."""
    return [items[i : i + per_page] for i in range(0, len(items), per_page)]

"""Rounds: draw a round (the seating search of :mod:`.seating` on the meetings of the
earlier rounds, saved as tables and seats with the seed, first dealer and scorer), swap
two players, set a table's first dealer and scorer, start a round.  Rounds run in order
(a round is drawn or started only when every earlier one is closed), and a round is
locked (:func:`lock_round`) while its status is checked and changed.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Registration, Round, Seat, Table, Tournament
from .pairs import pairs_of
from .seating import DrawPlan, _partners, fours_only, plan_draw, plan_pairs_draw


def meetings_before(round_: Round) -> Counter[tuple[int, int]]:
    """How often each pair of start numbers sat at one table in earlier rounds."""
    return _earlier_tables(round_)[0]


def _earlier_tables(
    round_: Round,
) -> tuple[Counter[tuple[int, int]], Counter[tuple[int, int]], Counter[int]]:
    """Meetings (as :func:`meetings_before`) and partnerships (seats 0+2 and 1+3 of a table
    of four) per pair of start numbers, and seats at a table of four per start number, in
    the rounds before ``round_``; one query."""
    met: Counter[tuple[int, int]] = Counter()
    partnered: Counter[tuple[int, int]] = Counter()
    at_four: Counter[int] = Counter()
    seats = (
        Seat.objects.filter(round__tournament=round_.tournament, round__number__lt=round_.number)
        .values_list("table_id", "position", "registration__start_number")
        .order_by("table_id", "position")
    )
    for _table, group in itertools.groupby(seats, key=lambda row: row[0]):
        in_order = [n for _t, _p, n in group]
        met.update(itertools.combinations(sorted(in_order), 2))
        partnered.update(_partners(in_order))
        if len(in_order) == 4:
            at_four.update(in_order)
    return met, partnered, at_four


@transaction.atomic
def draw_round(round_: Round, seed: int | None = None) -> DrawPlan:
    """Seat every player of ``round_`` (replacing an earlier draw of this planned round).

    ``seed`` defaults to a fresh random number; it is stored on the round, so the same
    draw can be made again.  First dealer and scorer per table are drawn with the same
    seed.  Raises ``ValidationError`` if the round has started or the count cannot be seated.

    With a ruleset played only at tables of four (``partnership-250``) every table has
    four players, partners opposite (seats 1+3 and 2+4 as printed); the player count must
    be divisible by 4.  An individual event changes partners by the draw each round
    (repeat partnerships weigh most); a pairs event (``Tournament.EventType.PAIRS``)
    seats each pair together opposite and two pairs a table, and needs every playing
    player in a complete pair and an even number of pairs.
    """
    if lock_round(round_.pk).status != Round.Status.PLANNED:
        raise ValidationError(_("Die Runde hat schon begonnen; die Auslosung steht fest."))
    _require_previous_closed(round_, "draw")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    tournament = round_.tournament
    registrations = {
        r.start_number: r
        for r in tournament.registrations.all()
        if r.plays_in(round_.number) and r.present()
    }
    met, partnered, at_four = _earlier_tables(round_)
    fours = fours_only(tournament.ruleset)
    if tournament.event_type == Tournament.EventType.PAIRS:
        pairs, problems = pairs_of(list(registrations.values()))
        if problems:
            raise ValidationError(problems)
        plan = plan_pairs_draw(pairs, met, seed)
    elif fours and tournament.ruleset.partnerships:
        plan = plan_draw(list(registrations), met, seed, fours=True, partnered=partnered)
    else:
        plan = plan_draw(list(registrations), met, seed, fours=fours, at_four=at_four)
    rng = random.Random(seed ^ 0x5EA7)
    round_.tables.all().delete()
    for number, players in enumerate(plan.tables, start=1):
        table = Table.objects.create(
            round=round_,
            number=number,
            first_dealer=rng.randrange(len(players)),
            scorer=rng.randrange(len(players)),
        )
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, registration=registrations[n], position=pos)
            for pos, n in enumerate(players)
        )
    round_.seed = seed
    round_.save(update_fields=["seed"])
    return plan


@transaction.atomic
def swap_players(round_: Round, first: Registration, second: Registration) -> None:
    """Exchange the seats of two players before ``round_`` starts.

    Raises ``ValidationError`` if the round is no longer planned or either player has no
    seat in it.
    """
    if lock_round(round_.pk).status != Round.Status.PLANNED:
        raise ValidationError(_("Plätze können nur vor Rundenbeginn getauscht werden."))
    seats = {
        s.registration_id: s
        for s in Seat.objects.select_for_update().filter(
            round=round_, registration__in=[first, second]
        )
    }
    if len(seats) != 2:
        raise ValidationError(_("Beide Spieler müssen in dieser Runde gesetzt sein."))
    if round_.tournament.event_type == Tournament.EventType.PAIRS and first.pair != second.pair:
        raise ValidationError(
            _(
                "In der Paarwertung sitzen Partner fest zusammen; nur zwei Partner eines Paares "
                "können die Plätze tauschen."
            )
        )
    a, b = seats[first.pk], seats[second.pk]
    # swap through a temporary row state to respect the unique (round, registration) rule
    a_reg, b_reg = a.registration_id, b.registration_id
    Seat.objects.filter(pk=a.pk).delete()
    Seat.objects.filter(pk=b.pk).update(registration_id=a_reg)
    Seat.objects.create(
        table_id=a.table_id, round=round_, registration_id=b_reg, position=a.position
    )


@transaction.atomic
def set_table_roles(table: Table, first_dealer: int, scorer: int) -> None:
    """Set who deals first and who keeps the score sheet at ``table`` (seat positions).

    Allowed until the round is closed; the first dealer only while no hand of the table is
    entered (the dealer of every entered game follows from it).  Raises ``ValidationError``
    naming the field otherwise, or for a position that is not at the table.
    """
    lock_round(table.round_id)  # serialises with hand entry and closing the round
    table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
    size = table.seats.count()
    errors: dict[str, list[str]] = {}
    for name, value in (("first_dealer", first_dealer), ("scorer", scorer)):
        if not 0 <= value < size:
            errors[name] = [_("Dieser Platz ist nicht am Tisch.")]
    if table.round.status == Round.Status.CLOSED:
        errors.setdefault("__all__", []).append(
            _("Die Runde ist abgeschlossen; der Tisch kann nicht mehr geändert werden.")
        )
    if first_dealer != table.first_dealer and table.hands.exists():
        errors.setdefault("first_dealer", []).append(
            _("An diesem Tisch sind schon Spiele erfasst; der erste Geber steht fest.")
        )
    if errors:
        raise ValidationError(errors)
    table.first_dealer, table.scorer = first_dealer, scorer
    table.save(update_fields=["first_dealer", "scorer"])


def first_open_round_before(round_: Round) -> Round | None:
    """The first round before ``round_`` that is not closed, or None (one query)."""
    return (
        Round.objects.filter(tournament_id=round_.tournament_id, number__lt=round_.number)
        .exclude(status=Round.Status.CLOSED)
        .order_by("number")
        .first()
    )


def _require_previous_closed(round_: Round, action: str) -> None:
    """Rounds run in order: round N may be drawn (``action="draw"``) or started
    (``"start"``) only when every earlier round is closed (the draw of N uses the meetings
    of N-1, so it must see N-1 complete), which also means at most one round runs at a
    time.  Raises ``ValidationError`` naming the first round still open."""
    open_before = first_open_round_before(round_)
    if open_before is None:
        return
    if action == "draw":
        message = _(
            "Runde %(n)s kann erst ausgelost werden, wenn Runde %(before)s abgeschlossen ist "
            "(Runden laufen der Reihe nach)."
        )
    else:
        message = _(
            "Runde %(n)s kann erst gestartet werden, wenn Runde %(before)s abgeschlossen ist "
            "(Runden laufen der Reihe nach)."
        )
    raise ValidationError(message % {"n": round_.number, "before": open_before.number})


def lock_round(round_id: int) -> Round:
    """The round, re-read and locked for the rest of the transaction (``SELECT … FOR
    UPDATE`` on PostgreSQL; on SQLite the immediate transaction already holds the write
    lock), so that a status check and the write it guards cannot interleave with closing
    the round or with another entry."""
    return Round.objects.select_for_update().select_related("tournament").get(pk=round_id)


@transaction.atomic
def start_round(round_: Round) -> None:
    """Open ``round_`` for entry and record when (``started_at``: the round clock counts
    from here); it must be drawn.  Raises ``ValidationError`` otherwise."""
    locked = lock_round(round_.pk)
    if locked.status != Round.Status.PLANNED:
        raise ValidationError(_("Die Runde läuft schon oder ist abgeschlossen."))
    if not locked.tables.exists():
        raise ValidationError(_("Die Runde ist noch nicht ausgelost."))
    _require_previous_closed(locked, "start")
    locked.status = Round.Status.RUNNING
    locked.started_at = timezone.now()
    locked.save(update_fields=["status", "started_at"])
    round_.status, round_.started_at = locked.status, locked.started_at


def absent_from_draw(round_: Round) -> list[Registration]:
    """The players registered for ``round_`` whom its draw leaves out because they are not
    checked in at the door (``Tournament.check_in``; empty without it), by start number.
    The rule :func:`draw_round` applies; the overview and the door page name them."""
    return [
        r
        for r in _registrations_by_number(round_.tournament)
        if r.plays_in(round_.number) and not r.present()
    ]


def present_not_drawn(round_: Round) -> list[Registration]:
    """Players checked in for ``round_`` (a planned round already drawn) who have no seat
    in it: they arrived after the draw, which must be repeated to seat them (empty
    without check-in or before the draw)."""
    tournament = round_.tournament
    if not tournament.check_in or round_.status != Round.Status.PLANNED:
        return []
    seated = set(round_.seats.values_list("registration_id", flat=True))
    if not seated:
        return []
    return [
        r
        for r in _registrations_by_number(tournament)
        if r.plays_in(round_.number) and r.present() and r.pk not in seated
    ]


def _registrations_by_number(tournament: Tournament) -> list[Registration]:
    return list(tournament.registrations.select_related("player").order_by("start_number"))

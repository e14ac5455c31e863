"""Re-scoring an imported tournament with the engine, as hand entry scores a clerk's input:
every hand and every version of it in its history must give the stored points (or, with
``rescore``, takes the engine's: :class:`ScoreChange`), seat scores must follow from the
hands and round totals must be plausible (:func:`_rescore`, which runs inside the
import's transaction).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from scoring import services
from scoring.models import Hand, RoundTotal, SeatScore
from tournament.models import Seat, Table, Tournament

from .plan import TransferError, _refuse

#: How many differing hands a refusal names.
SHOWN_DIFFERENCES = 5


@dataclass(frozen=True)
class ScoreChange:
    """A hand (or one version of it in the history, ``version`` set) whose points in the
    file differ from what the engine computes from its record: ``stored`` and ``engine``
    are game points by table position."""

    round: int
    table: int
    number: int
    stored: object
    engine: list[int]
    version: int | None = None

    def __str__(self) -> str:
        where = _("Runde %(round)s, Tisch %(table)s, Spiel %(number)s") % {
            "round": self.round,
            "table": self.table,
            "number": self.number,
        }
        if self.version is not None:
            where += " " + _("(Fassung %(v)s im Verlauf)") % {"v": self.version}
        stored = (
            " / ".join(str(p) for p in self.stored)
            if isinstance(self.stored, list)
            else str(self.stored)
        )
        return _("%(where)s: in der Datei %(stored)s, nach den Regeln %(engine)s") % {
            "where": where,
            "stored": stored,
            "engine": " / ".join(str(p) for p in self.engine),
        }


def _table_sizes(tournament: Tournament, using: str) -> dict[int, list[Seat]]:
    """Seats of every table of ``tournament`` by table id, in position order, after
    checking that each table has 3 or 4 seats (as its ruleset allows) at positions 0 … n-1,
    all of the table's round, and first dealer and scorer among them."""
    ruleset = tournament.ruleset
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.using(using)
        .filter(round__tournament=tournament)
        .select_related("table__round", "registration")
        .order_by("table_id", "position")
    ):
        seats[seat.table_id].append(seat)
    tables = Table.objects.using(using).filter(round__tournament=tournament)
    for table in tables.select_related("round"):
        at_table = seats.get(table.pk, [])
        where = _("Runde %(round)s, Tisch %(table)s") % {
            "round": table.round.number,
            "table": table.number,
        }
        size = len(at_table)
        if not at_table:
            continue  # a table without players: nothing is entered there
        if [s.position for s in at_table] != list(range(size)) or (
            size not in ruleset.seat_counts and size not in (3, 4)
        ):
            raise _refuse(_("%(where)s: die Plätze sind ungültig."), where=where)
        if any(s.round_id != table.round_id for s in at_table):
            raise _refuse(_("%(where)s: ein Platz gehört zu einer anderen Runde."), where=where)
        if table.first_dealer >= size or table.scorer >= size:
            raise _refuse(
                _("%(where)s: erster Geber oder Schreiber sitzt nicht am Tisch."), where=where
            )
        if any(s.registration.tournament_id != tournament.pk for s in at_table):
            raise _refuse(_("%(where)s: ein Spieler ist nicht gemeldet."), where=where)
    return seats


def _engine_scores(tournament: Tournament, seats: list[Seat], record) -> tuple[list[int], bool]:
    """The engine's points by table position and the declarer's result for ``record`` (a
    :class:`~scoring.models.Hand` or one of its history records) at a table with ``seats``,
    scored exactly as the clerk's entry is (:func:`scoring.services.evaluate`).  Raises
    :class:`TransferError` when the record is not a valid hand."""
    size = len(seats)
    positions = {record.dealer, record.declarer, record.penalty_seat} - {None}
    if any(p >= size for p in positions):
        raise ValueError(_("ein Platz liegt außerhalb des Tisches"))
    entry = services.hand_input_from(record)
    if tournament.ruleset.plays_without_trump(entry.outcome):
        # a trump written on a Durch before the entry refused it: it never changed a score
        entry.trump = ""
    evaluation = services.evaluate(tournament, size, entry)
    if message := services._game_number_error(tournament, entry.number):
        evaluation.errors.setdefault("number", []).append(message)
    if not evaluation.ok:
        field_name, messages = next(iter(evaluation.errors.items()))
        raise ValueError(f"{field_name}: {' '.join(messages)}")
    assert evaluation.score is not None
    return [evaluation.scores[p] for p in range(size)], evaluation.score.declarer_won


def _rescore(tournament: Tournament, using: str, rescore: bool) -> list[ScoreChange]:
    """Re-score every hand of the imported ``tournament`` (and every version of it in its
    history) with the engine, check its seat scores and its round totals.

    Without ``rescore`` a difference refuses the import, naming the first
    :data:`SHOWN_DIFFERENCES` hands; with it the engine's points replace the file's (the
    hand gets a new version whose history names the reason) and the changes are returned.
    Seat scores are rebuilt from the hands either way (they are derived, never entered).
    Round totals are checked by the engine's plausibility rules
    (:func:`scoring.services.check_totals`); they have no record to re-score.
    """
    seats = _table_sizes(tournament, using)
    changes = _rescore_hands(tournament, seats, using, rescore)
    changes += _rescore_history(tournament, seats, using, rescore)
    if changes and not rescore:
        raise _differences(changes)

    _check_seat_scores(tournament, seats, using, rebuild=rescore)
    _check_round_totals(tournament, seats, using)
    if (
        SeatScore.objects.using(using)
        .exclude(tournament=tournament)
        .filter(hand__table__round__tournament=tournament)
        .exists()
    ):
        raise _refuse(_("Punkte eines Spiels sind einem anderen Turnier zugeordnet."))
    return changes


def _rescore_hands(
    tournament: Tournament, seats: dict[int, list[Seat]], using: str, rescore: bool
) -> list[ScoreChange]:
    """Re-score every hand of ``tournament`` (``seats``: by table id, as
    :func:`_table_sizes` returns them) with the engine, by round, table and number.
    Returns the hands whose points differ from the engine's; with ``rescore`` the engine's
    points are saved as a new version of the hand.  Raises :class:`TransferError` for a
    hand the engine refuses."""
    changes: list[ScoreChange] = []
    hands = Hand.objects.using(using).filter(table__round__tournament=tournament)
    for hand in hands.select_related("table__round").order_by(
        "table__round__number", "table__number", "number"
    ):
        where = ScoreChange(hand.table.round.number, hand.table.number, hand.number, [], [])
        at_table = seats.get(hand.table_id, [])
        try:
            engine, declarer_won = _engine_scores(tournament, at_table, hand)
        except ValueError as exc:
            raise _refuse(
                _("%(where)s: das Spiel ist nach den Regeln ungültig (%(error)s)."),
                where=str(where).split(":")[0],
                error=exc,
            ) from exc
        if hand.scores != engine or hand.declarer_won != declarer_won:
            changes.append(ScoreChange(where.round, where.table, where.number, hand.scores, engine))
            if rescore:
                hand.scores, hand.declarer_won = engine, declarer_won
                hand.version += 1
                hand._change_reason = _("Import: Punkte nach den Regeln neu berechnet")
                hand.save(using=using)
    return changes


def _rescore_history(
    tournament: Tournament, seats: dict[int, list[Seat]], using: str, rescore: bool
) -> list[ScoreChange]:
    """Re-score every version in the history of ``tournament``'s hands (deletions left
    out) with the engine, oldest first.  Returns the versions whose points differ
    (:attr:`ScoreChange.version` set); with ``rescore`` the engine's points are written
    into the history record.  A version the engine no longer accepts is kept as it is."""
    changes: list[ScoreChange] = []
    history = Hand.history.using(using).filter(table__round__tournament=tournament)
    for record in history.exclude(history_type="-").order_by("history_date", "history_id"):
        at_table = seats.get(record.table_id)
        if not at_table:
            continue
        table = at_table[0].table
        try:
            engine, declarer_won = _engine_scores(tournament, at_table, record)
        except ValueError:
            continue  # an old version the engine no longer accepts: kept as history
        if record.scores != engine or record.declarer_won != declarer_won:
            changes.append(
                ScoreChange(
                    table.round.number,
                    table.number,
                    record.number,
                    record.scores,
                    engine,
                    record.version,
                )
            )
            if rescore:
                type(record)._base_manager.using(using).filter(pk=record.pk).update(
                    scores=engine, declarer_won=declarer_won
                )
    return changes


def _differences(changes: list[ScoreChange]) -> TransferError:
    """The refusal of an import whose points differ from the engine's (``changes``, not
    empty): it names the first :data:`SHOWN_DIFFERENCES` hands, live hands before versions
    in the history."""
    live = [c for c in changes if c.version is None]
    shown = "; ".join(str(c) for c in (live or changes)[:SHOWN_DIFFERENCES])
    return _refuse(
        _(
            "Die Punkte von %(n)s Spielen in der Datei stimmen nicht mit dem überein, was "
            "die Regeln aus den Eingaben berechnen: %(shown)s. Mit --rescore werden die "
            "berechneten Punkte übernommen."
        ),
        n=len(changes),
        shown=shown,
    )


def _check_round_totals(tournament: Tournament, seats: dict[int, list[Seat]], using: str) -> None:
    """Round totals of the file only in a tournament that enters totals, plausible at
    each table by the engine's rules (:func:`scoring.services.check_totals`), and only
    for players seated in that round.  Raises :class:`TransferError`."""
    for table_seats in seats.values():
        table = table_seats[0].table
        stored = {
            t.registration_id: t
            for t in RoundTotal.objects.using(using).filter(round_id=table.round_id)
        }
        mine = {s.registration_id for s in table_seats}
        if not mine & set(stored):
            continue
        if tournament.entry_mode != Tournament.EntryMode.TOTALS:
            raise _refuse(
                _(
                    "Runde %(round)s, Tisch %(table)s: Rundensummen in einem Turnier, das "
                    "jedes Spiel erfasst."
                ),
                round=table.round.number,
                table=table.number,
            )
        entries = {
            s.position: services.TotalInput(
                stored[s.registration_id].points,
                stored[s.registration_id].games_won,
                stored[s.registration_id].games_lost,
            )
            for s in table_seats
            if s.registration_id in stored
        }
        if errors := services.check_totals(table, entries, table_seats):
            field_name, messages = next(iter(errors.items()))
            raise _refuse(
                _("Runde %(round)s, Tisch %(table)s, %(field)s: %(messages)s"),
                round=table.round.number,
                table=table.number,
                field=field_name,
                messages=" ".join(messages),
            )
    seated = {(s.round_id, s.registration_id) for at in seats.values() for s in at}
    for total in RoundTotal.objects.using(using).filter(round__tournament=tournament):
        if (total.round_id, total.registration_id) not in seated:
            raise _refuse(
                _("Rundensumme eines Spielers, der in dieser Runde an keinem Tisch sitzt.")
            )


def _check_seat_scores(
    tournament: Tournament, seats: dict[int, list[Seat]], using: str, rebuild: bool
) -> None:
    """The seat scores of the file are exactly what the hands give (they feed the
    standings); with ``rebuild`` they are made so.  Raises :class:`TransferError`."""
    hands = list(
        Hand.objects.using(using)
        .filter(table__round__tournament=tournament)
        .select_related("table__round")
    )
    expected = set()
    for hand in hands:
        at_table = seats.get(hand.table_id, [])
        positions = services.active_positions(tournament, len(at_table), hand.dealer)
        declaring = services.declaring_side(tournament.ruleset, positions, hand.declarer)
        for seat in at_table:
            if seat.position in positions:
                expected.add(
                    (
                        hand.pk,
                        seat.registration_id,
                        hand.table.round.number,
                        hand.scores[seat.position],
                        seat.position in declaring,
                        seat.position in declaring and hand.declarer_won,
                    )
                )
    stored = SeatScore.objects.using(using).filter(
        Q(tournament=tournament) | Q(hand__in=[h.pk for h in hands])
    )
    found = set(
        stored.values_list(
            "hand_id", "registration_id", "round_number", "points", "declarer", "declarer_won"
        )
    )
    if found == expected:
        return
    if not rebuild:
        raise _refuse(
            _(
                "Die Punkte je Spieler (%(model)s) in der Datei passen nicht zu den Spielen. "
                "Mit --rescore werden sie aus den Spielen neu berechnet."
            ),
            model=SeatScore._meta.label_lower,
        )
    stored.delete()
    SeatScore.objects.using(using).bulk_create(
        SeatScore(
            hand_id=hand_id,
            tournament=tournament,
            round_number=round_number,
            registration_id=registration_id,
            points=points,
            declarer=declarer,
            declarer_won=won,
        )
        for hand_id, registration_id, round_number, points, declarer, won in sorted(expected)
    )

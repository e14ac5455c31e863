"""Hand entry: the thin layer between the clerk's form and the rules engine.

A :class:`HandInput` is what the clerk typed, with seats given as *table positions*
(0 … 3).  :func:`evaluate` maps it to an engine hand record — at a 4-player table where the
dealer sits out, the three active positions become engine seats 0, 1, 2 in playing order —,
validates and scores it, and maps every engine error back to the form field it concerns, with
a German (or English) message.  :func:`save_hand` stores the entry and the engine's per-seat
scores in one transaction; a correction bumps the hand's version and is kept in its history.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from rules import HandRecord, HandScore, InvalidInput, parse_record, score_hand
from rules.scoring import SPECIAL_OUTCOMES
from rules.totals import check_round_total
from tournament.models import Round, Seat, Table, Tournament

from .messages import engine_message
from .models import Hand, RoundTotal, SeatScore


@dataclass
class HandInput:
    """One hand as entered.  Seats are table positions; ``melds``/``tricks`` map a
    position to points (``None`` = left blank).  A single blank trick field is computed
    from the total (250) by :func:`evaluate` and reported in ``Evaluation.computed``."""

    number: int
    dealer: int
    declarer: int | None
    bid: int | None
    outcome: str
    trump: str = ""
    melds: dict[int, int | None] = field(default_factory=dict)
    tricks: dict[int, int | None] = field(default_factory=dict)
    won: bool | None = None
    penalty_type: str = ""
    penalty_seat: int | None = None


@dataclass
class Evaluation:
    """The engine's verdict on a :class:`HandInput`.

    ``errors``: form field → messages (empty when valid); ``record``/``score``: the engine
    record and its score (``None`` when invalid); ``scores``: points per table position;
    ``computed``: trick points filled in from the total, by position.
    """

    errors: dict[str, list[str]]
    positions: list[int]
    record: HandRecord | None = None
    score: HandScore | None = None
    scores: dict[int, int] = field(default_factory=dict)
    computed: dict[int, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


class StaleEntry(Exception):
    """The hand was changed by someone else since the clerk loaded it."""

    def __init__(self, hand: Hand):
        self.hand = hand
        super().__init__(f"hand {hand.pk} is at version {hand.version}")


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in position order, with registrations and players loaded."""
    return list(table.seats.select_related("registration__player").order_by("position"))


def dealer_for(table: Table, size: int, number: int) -> int:
    """Table position of the dealer of game ``number`` (1-based): the deal passes on one
    seat per game from the table's first dealer."""
    return (table.first_dealer + number - 1) % size


def active_positions(tournament: Tournament, size: int, dealer: int) -> list[int]:
    """Table positions that play a hand, in engine seat order.

    At a 4-player table in "dealer sits out" mode the dealer does not play: the three
    others, starting after the dealer.  Otherwise every position (Kreuzbinokel at 4: seats
    0+2 against 1+3, as the engine's partnerships expect).
    """
    if size == 4 and tournament.four_table_mode == Tournament.FourTableMode.SIT_OUT:
        return [(dealer + i) % 4 for i in range(1, 4)]
    return list(range(size))


def _field_for(engine_field: str, positions: list[int]) -> str:
    """Form field name for an engine error field such as ``melds[2]`` or ``penalty.seat``."""
    if "[" in engine_field:
        name, index = engine_field.rstrip("]").split("[", 1)
        if name in ("melds", "tricks", "tricks_taken") and index.isdigit():
            return f"{name}_{positions[int(index)]}"
        return name
    return {
        "penalty.type": "penalty_type",
        "penalty.seat": "penalty_seat",
        "penalty": "penalty_type",
        "seats": "__all__",
    }.get(engine_field, engine_field)


def evaluate(tournament: Tournament, size: int, entry: HandInput) -> Evaluation:
    """Validate and score ``entry`` at a table of ``size`` players under the tournament's
    frozen ruleset.  Never raises for bad input: every problem is in ``errors``."""
    ruleset = tournament.ruleset
    positions = active_positions(tournament, size, entry.dealer)
    result = Evaluation(errors={}, positions=positions)

    def add(field_name: str, message: str) -> None:
        result.errors.setdefault(field_name, []).append(message)

    declarer = entry.declarer
    if declarer is not None and declarer not in positions:
        add("declarer", _("Der Geber setzt aus und kann nicht Spielführer sein."))
        declarer = None
    penalty_seat = entry.penalty_seat
    if entry.penalty_type and penalty_seat is not None and penalty_seat not in positions:
        add("penalty_seat", _("Dieser Spieler spielt in diesem Spiel nicht mit."))
        penalty_seat = None
    if entry.outcome == "played" and not entry.trump:
        add("trump", _("Bitte Trumpf angeben."))
    own = set(result.errors)  # our messages are more specific than the engine's for these

    data: dict[str, object] = {
        "seats": len(positions),
        "declarer": positions.index(declarer) if declarer is not None else None,
        "bid": entry.bid,
        "outcome": entry.outcome,
    }
    if entry.outcome in ("played", "abgehen"):
        melds = [entry.melds.get(p) for p in positions]
        data["melds"] = [m if m is not None else 0 for m in melds]
    if entry.outcome == "played":
        tricks = [entry.tricks.get(p) for p in positions]
        blanks = [i for i, t in enumerate(tricks) if t is None]
        if len(blanks) == 1:
            known = sum(t for t in tricks if t is not None)
            value = ruleset.trick_points_total - known
            tricks[blanks[0]] = value
            result.computed[positions[blanks[0]]] = value
        elif blanks:
            for i in blanks:
                add(
                    f"tricks_{positions[i]}",
                    _("Stichpunkte fehlen (nur ein Feld darf leer bleiben)."),
                )
            own.add("tricks")
            tricks = [t if t is not None else 0 for t in tricks]
        data["tricks"] = tricks
    if entry.outcome in SPECIAL_OUTCOMES:
        data["won"] = entry.won
    if entry.penalty_type:
        data["penalty"] = {
            "type": entry.penalty_type,
            "seat": positions.index(penalty_seat) if penalty_seat is not None else None,
        }
    try:
        record = parse_record(ruleset, data)
    except InvalidInput as exc:
        for error in exc.errors:
            name = _field_for(error.field, positions)
            if name not in own and not (name.startswith("tricks") and "tricks" in own):
                add(name, engine_message(error, ruleset))
        return result
    if result.errors:
        return result
    score = score_hand(ruleset, record)
    result.record, result.score = record, score
    result.scores = {p: 0 for p in range(size)}
    for engine_seat, position in enumerate(positions):
        result.scores[position] = score.scores[engine_seat]
    return result


def standings_cache_key(tournament_id: int) -> str:
    """Cache key prefix of a tournament's public standings; bumped on every save."""
    version = cache.get_or_set(f"standings-version:{tournament_id}", 1)
    return f"standings:{tournament_id}:{version}"


def invalidate_standings(tournament_id: int) -> None:
    """Make every cached standings fragment of the tournament stale."""
    try:
        cache.incr(f"standings-version:{tournament_id}")
    except ValueError:
        cache.set(f"standings-version:{tournament_id}", 2)


def save_hand(
    table: Table,
    entry: HandInput,
    user,
    expected_version: int | None = None,
) -> tuple[Hand | None, Evaluation]:
    """Validate, score and store one hand of ``table`` in one transaction.

    A new game number creates the hand; an existing one is a correction and requires
    ``expected_version`` to match the stored version (else :class:`StaleEntry` is
    raised, carrying the current hand).  Returns ``(hand, evaluation)``; ``hand`` is ``None``
    and nothing is written when the evaluation has errors.  Raises ``PermissionError`` when
    the round is not running.
    """
    round_: Round = table.round
    tournament = round_.tournament
    _check_writable(round_, Tournament.EntryMode.HANDS)
    seats = table_seats(table)
    evaluation = evaluate(tournament, len(seats), entry)
    if entry.number < 1 or entry.number > tournament.games_per_round:
        evaluation.errors.setdefault("number", []).append(
            _("Spielnummer muss zwischen 1 und %(n)s liegen.") % {"n": tournament.games_per_round}
        )
    if not evaluation.ok:
        return None, evaluation
    assert evaluation.record is not None and evaluation.score is not None
    positions = evaluation.positions
    values = {
        "dealer": entry.dealer,
        "declarer": entry.declarer,
        "bid": entry.bid,
        "trump": entry.trump,
        "outcome": entry.outcome,
        "melds": _by_position(evaluation.record.melds or (), positions, len(seats)),
        "tricks": (
            _by_position(evaluation.record.tricks, positions, len(seats))
            if evaluation.record.tricks is not None
            else None
        ),
        "won": evaluation.record.won,
        "penalty_type": entry.penalty_type,
        "penalty_seat": entry.penalty_seat if entry.penalty_type else None,
        "scores": [evaluation.scores[p] for p in range(len(seats))],
        "declarer_won": evaluation.score.declarer_won,
    }
    with transaction.atomic():
        hand = Hand.objects.select_for_update().filter(table=table, number=entry.number).first()
        if hand is None:
            hand = Hand.objects.create(table=table, number=entry.number, entered_by=user, **values)
        else:
            if expected_version is None or expected_version != hand.version:
                raise StaleEntry(hand)
            for key, value in values.items():
                setattr(hand, key, value)
            hand.version += 1
            hand.entered_by = user
            hand.save()
        _rebuild_seat_scores(hand, seats, positions, round_.number, tournament.pk)
        transaction.on_commit(lambda: invalidate_standings(tournament.pk))
    return hand, evaluation


def _check_writable(round_: Round, mode: str) -> None:
    """Raise ``PermissionError`` unless ``round_`` is running and its tournament enters
    results in ``mode`` (``hands`` or ``totals``)."""
    if round_.status != Round.Status.RUNNING:
        raise PermissionError(_("Die Runde läuft nicht; Einträge sind gesperrt."))
    if round_.tournament.entry_mode != mode:
        raise PermissionError(
            _("Dieses Turnier erfasst Rundensummen, keine einzelnen Spiele.")
            if mode == Tournament.EntryMode.HANDS
            else _("Dieses Turnier erfasst einzelne Spiele, keine Rundensummen.")
        )


@dataclass
class TotalInput:
    """One player's round total from a paper score sheet: game points and the games won
    and lost as declarer (``None`` = left blank)."""

    points: int | None
    won: int | None = 0
    lost: int | None = 0


class StaleTotals(Exception):
    """Round totals of the table were changed by someone else since the clerk loaded them;
    ``totals`` holds the current ones by table position, ``changed`` the positions whose
    version differs from the one the clerk loaded."""

    def __init__(self, totals: dict[int, RoundTotal], changed: list[int]):
        self.totals = totals
        self.changed = changed
        super().__init__("round totals changed meanwhile")


def table_totals(table: Table, seats: list[Seat] | None = None) -> dict[int, RoundTotal]:
    """The stored round totals of ``table``'s players, by table position."""
    seats = seats if seats is not None else table_seats(table)
    by_registration = {
        t.registration_id: t
        for t in RoundTotal.objects.filter(
            round_id=table.round_id, registration_id__in=[s.registration_id for s in seats]
        ).select_related("entered_by")
    }
    return {
        s.position: by_registration[s.registration_id]
        for s in seats
        if s.registration_id in by_registration
    }


def check_totals(
    table: Table, entries: dict[int, TotalInput], seats: list[Seat]
) -> dict[str, list[str]]:
    """Plausibility of a table's round totals under the tournament's ruleset.

    ``entries`` maps table positions to :class:`TotalInput`.  Returns form field
    (``points_<pos>``, ``won_<pos>``, ``lost_<pos>``, ``__all__``) → German messages; empty
    when plausible.  Each total is checked by :func:`rules.totals.check_round_total`
    (multiple of 10 where the ruleset rounds, within what the round's games can give); the
    table as a whole cannot have more declarer games than games were played.
    """
    tournament = table.round.tournament
    ruleset = tournament.ruleset
    games = tournament.games_per_round
    size = len(seats)
    playing = len(active_positions(tournament, size, 0))
    if playing not in ruleset.seat_counts:  # e.g. a ruleset for four only: bound by the table
        playing = size if size in ruleset.seat_counts else max(ruleset.seat_counts)
    errors: dict[str, list[str]] = {}
    declared = 0
    for seat in seats:
        entry = entries.get(seat.position)
        pos = seat.position
        entry = entry or TotalInput(points=None)
        if entry.points is None:
            errors.setdefault(f"points_{pos}", []).append(_("Rundensumme fehlt."))
        for error in check_round_total(
            ruleset, playing, games, entry.points or 0, entry.won or 0, entry.lost or 0
        ):
            if error.field == "points" and entry.points is None:
                continue
            errors.setdefault(f"{error.field}_{pos}", []).append(engine_message(error, ruleset))
        declared += (entry.won or 0) + (entry.lost or 0)
    if declared > games:
        errors.setdefault("__all__", []).append(
            _(
                "Am Tisch wurden %(n)s Spiele als Spielführer eingetragen, aber nur %(games)s "
                "Spiele gespielt."
            )
            % {"n": declared, "games": games}
        )
    return errors


def save_round_totals(
    table: Table,
    entries: dict[int, TotalInput],
    user,
    expected_versions: dict[int, int | None] | None = None,
) -> tuple[list[RoundTotal] | None, dict[str, list[str]]]:
    """Check and store the round totals of every player at ``table`` in one transaction.

    ``expected_versions`` maps positions to the version the clerk loaded (``None`` for a
    total not yet entered); a mismatch raises :class:`StaleTotals` and writes nothing.  A
    changed total gets a new version, kept in its history; an unchanged one is left alone.
    Returns ``(totals, errors)``; ``totals`` is ``None`` and nothing is written when
    ``errors`` is not empty.  Raises ``PermissionError`` unless the round is running and
    the tournament enters round totals.
    """
    round_ = table.round
    _check_writable(round_, Tournament.EntryMode.TOTALS)
    seats = table_seats(table)
    errors = check_totals(table, entries, seats)
    if errors:
        return None, errors
    expected_versions = expected_versions or {}
    try:
        saved = _store_round_totals(table, seats, entries, user, expected_versions)
    except IntegrityError as exc:
        # a first entry of the same table committed meanwhile (nothing to lock before it
        # existed): the unique constraint refuses the second one; show the current totals
        raise StaleTotals(table_totals(table, seats), [s.position for s in seats]) from exc
    return saved, {}


def _store_round_totals(table, seats, entries, user, expected_versions) -> list[RoundTotal]:
    """The write half of :func:`save_round_totals`, in one transaction."""
    round_ = table.round
    saved: list[RoundTotal] = []
    with transaction.atomic():
        current = {
            t.registration_id: t
            for t in RoundTotal.objects.select_for_update().filter(
                round=round_, registration_id__in=[s.registration_id for s in seats]
            )
        }
        changed = [
            seat.position
            for seat in seats
            if (getattr(current.get(seat.registration_id), "version", None))
            != expected_versions.get(seat.position)
        ]
        if changed:
            raise StaleTotals(table_totals(table, seats), changed)
        for seat in seats:
            entry = entries[seat.position]
            values = {
                "points": entry.points,
                "games_won": entry.won or 0,
                "games_lost": entry.lost or 0,
            }
            total = current.get(seat.registration_id)
            if total is None:
                total = RoundTotal.objects.create(
                    round=round_, registration_id=seat.registration_id, entered_by=user, **values
                )
            elif any(getattr(total, k) != v for k, v in values.items()):
                for key, value in values.items():
                    setattr(total, key, value)
                total.version += 1
                total.entered_by = user
                total.save()
            saved.append(total)
        transaction.on_commit(lambda: invalidate_standings(round_.tournament_id))
    return saved


def _by_position(values, positions: list[int], size: int) -> list[int | None]:
    """Engine per-seat ``values`` as a list by table position (``None`` for a position
    not in the hand, e.g. the dealer sitting out, or when the engine has no values)."""
    by_position: list[int | None] = [None] * size
    for engine_seat, value in enumerate(values):
        by_position[positions[engine_seat]] = value
    return by_position


def _rebuild_seat_scores(
    hand: Hand, seats: list[Seat], positions: list[int], round_number: int, tournament_id: int
) -> None:
    SeatScore.objects.filter(hand=hand).delete()
    SeatScore.objects.bulk_create(
        SeatScore(
            hand=hand,
            tournament_id=tournament_id,
            round_number=round_number,
            registration_id=seat.registration_id,
            points=hand.scores[seat.position],
            declarer=seat.position == hand.declarer,
            declarer_won=seat.position == hand.declarer and hand.declarer_won,
        )
        for seat in seats
        if seat.position in positions
    )

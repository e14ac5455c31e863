"""Tournament set-up services: create a tournament with a frozen ruleset, register players,
draw the seating of a round, swap players, start and close rounds.

The seating draw (FIELD-NOTES "The event"): tables of 3, and of 4 only where the player count
requires it (never 2 or 5); seeded and reproducible (the seed is stored with the round); among
many seeded candidate plans the one with the fewest repeat meetings is kept, then improved by
swapping players between tables.  A ruleset played only four-handed (``partnership-250``,
seed 000) seats tables of 4 with partners opposite: partners change every round in an
individual event, fixed pairs stay together in a pairs event; a count that does not fit
(players not divisible by 4, an odd number of pairs) is refused with the count and what is
missing, never seated by leaving someone out (see :func:`draw_round`).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from rules import PRESETS, RulesetError

from .engine_messages import ruleset_message
from .models import Category, Player, Registration, Round, Seat, Table, Tournament


def create_tournament(
    *,
    name: str,
    date: date,
    venue: str = "",
    preset: str = "club-tournament",
    overrides: dict | None = None,
    rounds: int = 3,
    games_per_round: int = 12,
    four_table_mode: str = Tournament.FourTableMode.SIT_OUT,
    entry_mode: str = Tournament.EntryMode.HANDS,
    lost_game_fee: Decimal | None = None,
    confirmation_required: bool = False,
    mark_unconfirmed: bool = True,
    missed_rounds: str = Tournament.MissedRounds.ZERO,
    tie_break: str = Tournament.TieBreak.SHARED,
    event_type: str = Tournament.EventType.INDIVIDUAL,
    clerks: Sequence = (),
) -> Tournament:
    """Create a tournament with a frozen copy of ``preset`` (plus ``overrides``) and its
    ``rounds`` empty rounds.  ``confirmation_required``: every entry must be confirmed by a
    second account; ``mark_unconfirmed``: the public standings then flag provisional points.
    ``missed_rounds``: how the overall standings treat a player who missed a round
    (``Tournament.MissedRounds``); ``tie_break``: how equal totals are ordered
    (``Tournament.TieBreak``).  ``clerks``: the accounts that may enter results (more can be added in the admin).
    ``event_type``: individual (default) or fixed pairs (``Tournament.EventType``).

    A ruleset played only at tables of four (``partnership-250``, seed 000: four players,
    partners opposite) makes every table a table of four: ``four_table_mode`` must then be
    ``kreuz`` (all four play) and the games per round a multiple of 4.  A pairs event needs
    such a ruleset with partnerships.  Raises ``ValidationError`` naming the field for an
    unknown preset, overrides the ruleset rejects, a ruleset with neither 3- nor 4-player
    tables, those combinations, or a number of games the tables cannot share evenly."""
    errors: dict[str, list[str]] = {}
    ruleset = None
    if preset not in PRESETS:
        errors["preset"] = [_("Unbekanntes Regelwerk: %(p)s") % {"p": preset}]
    else:
        try:
            ruleset = PRESETS[preset].with_overrides(overrides) if overrides else PRESETS[preset]
        except RulesetError as exc:
            errors["overrides"] = [ruleset_message(e) for e in exc.errors]
    fours = ruleset is not None and fours_only(ruleset)
    if ruleset is not None and 3 not in ruleset.seat_counts and not fours:
        errors["preset"] = [
            _("Dieses Regelwerk kennt weder Dreier- noch Vierertische; Turniere spielen zu dritt.")
        ]
    if fours and four_table_mode == Tournament.FourTableMode.SIT_OUT:
        errors["four_table_mode"] = [
            _(
                "Dieses Regelwerk spielt nur zu viert, alle vier spielen mit (Partner "
                "gegenüber): bitte „Kreuzbinokel (2 gegen 2)“ wählen."
            )
        ]
    if event_type == Tournament.EventType.PAIRS and not (fours and ruleset.partnerships):
        errors["event_type"] = [
            _(
                "Paarwertung gibt es nur mit einem Regelwerk, das an Vierertischen mit "
                "festen Partnern gegenüber spielt (Partnerschaft 250)."
            )
        ]
    if fours and games_per_round % 4:
        errors["games_per_round"] = [
            _(
                "An Vierertischen muss die Spielzahl durch 4 teilbar sein, damit jeder gleich "
                "oft gibt."
            )
        ]
    elif not fours and games_per_round % 3:
        errors["games_per_round"] = [
            _("Die Spielzahl muss durch 3 teilbar sein, damit jeder gleich oft gibt.")
        ]
    if errors:
        raise ValidationError(errors)
    assert ruleset is not None
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            date=date,
            venue=venue,
            preset=preset,
            ruleset_json=ruleset.to_dict(),
            ruleset_fingerprint=ruleset.fingerprint,
            rounds=rounds,
            games_per_round=games_per_round,
            four_table_mode=four_table_mode,
            entry_mode=entry_mode,
            lost_game_fee=lost_game_fee,
            confirmation_required=confirmation_required,
            mark_unconfirmed=mark_unconfirmed,
            missed_rounds=missed_rounds,
            tie_break=tie_break,
            event_type=event_type,
        )
        Round.objects.bulk_create(
            Round(tournament=tournament, number=n) for n in range(1, rounds + 1)
        )
        tournament.clerks.set(clerks)
    return tournament


def register(
    tournament: Tournament,
    player: Player,
    start_number: int | None = None,
    first_round: int = 1,
    *,
    consent_public: bool = False,
) -> Registration:
    """Register ``player``; without ``start_number`` the next free number is given.

    ``consent_public``: the player agrees to be named on this tournament's public pages,
    exports and printed lists (only this tournament's; FIELD-NOTES: players must consent).
    It is also kept on the player as the last answer, to pre-fill the next registration."""
    if start_number is None:
        start_number = (tournament.registrations.aggregate(m=Max("start_number"))["m"] or 0) + 1
    if player.last_consent_public != consent_public:
        player.last_consent_public = consent_public
        player.save(update_fields=["last_consent_public"])
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        start_number=start_number,
        first_round=first_round,
        consent_public=consent_public,
    )


# --------------------------------------------------------------------------- the draw


def fours_only(ruleset) -> bool:
    """Whether ``ruleset`` is played only at tables of four (``partnership-250``, seed 000
    "Die Spieler": four players, partners sitting opposite): then every table of a
    tournament has four players and a 3-player table is impossible."""
    return 3 not in ruleset.seat_counts and 4 in ruleset.seat_counts


def table_sizes(players: int, fours: bool = False) -> list[int]:
    """Table sizes for ``players``: all 3s, with as few 4s as the count needs; with
    ``fours`` (a ruleset played only at tables of four, :func:`fours_only`) all 4s.

    Raises ``ValidationError`` for 1, 2 or 5 players, which cannot be seated at tables of
    3 and 4; with ``fours`` for a count not divisible by 4, naming the count and how many
    players are missing or one too many (the club decides who sits out or who is added:
    the draw never leaves anyone out by itself).
    """
    if fours:
        rest = players % 4
        if players < 4 or rest:
            missing = 4 - rest if players >= 4 else 4 - players
            raise ValidationError(
                _(
                    "Für Partnerbinokel (nur Vierertische, Partner gegenüber) braucht es eine "
                    "durch 4 teilbare Spielerzahl; in dieser Runde spielen %(n)s – fehlende "
                    "Spieler: %(missing)s, überzählige: %(extra)s."
                )
                % {"n": players, "missing": missing, "extra": rest or players}
            )
        return [4] * (players // 4)
    fours_needed = players % 3  # 3k+1 players need one table of 4, 3k+2 need two
    threes = (players - 4 * fours_needed) // 3
    if players < 3 or threes < 0:
        raise ValidationError(
            _("%(n)s Spieler lassen sich nicht an Dreier- und Vierertische setzen.")
            % {"n": players}
        )
    return [4] * fours_needed + [3] * threes


@dataclass(frozen=True)
class DrawPlan:
    """A seating plan: ``tables`` of start numbers in seat order, and the number of
    ``repeats`` (pairs of players who met before).  At a partnership table of four the
    seats 0+2 and 1+3 are partners (the engine's sides, :meth:`rules.Ruleset.sides`);
    ``partner_repeats`` counts partners who were partners before."""

    tables: tuple[tuple[int, ...], ...]
    repeats: int
    partner_repeats: int = 0


#: How much worse a repeated partnership is than a repeated meeting, when the draw of an
#: individual event at partnership tables weighs its candidates: partners should change
#: every round (partners also meet, so a repeat partnership costs both).
PARTNER_WEIGHT = 10

#: Where a draw mixes tables of three and four (dealer sits out at the four), each earlier
#: seat of a player at a table of four weighs this many repeat meetings when the draw
#: would seat him at a four again: the four-table seats spread over the evening (issue
#: 37.32: two players sat at the four twice, 9 of 12 games each time, while 28 never did).
FOUR_WEIGHT = 10


def _repeats(tables: Sequence[Sequence[int]], met: Counter[tuple[int, int]]) -> int:
    return sum(met[pair] for t in tables for pair in itertools.combinations(sorted(t), 2))


def _partners(table: Sequence[int]) -> list[tuple[int, int]]:
    """The partner pairs (smaller start number first) of a table of four, seats 0+2, 1+3."""
    if len(table) != 4:
        return []
    return [tuple(sorted((table[0], table[2]))), tuple(sorted((table[1], table[3])))]


def _search(
    pool: list[int],
    sizes: list[int],
    cost,
    rng: random.Random,
    candidates: int,
    reorder: bool,
) -> list[list[int]]:
    """The seating of ``pool`` into tables of ``sizes`` with the lowest ``cost`` (a
    function of one table, summed over the tables) found: the best of ``candidates`` seeded
    shuffles, then improved by swapping two players of different tables, and with
    ``reorder`` two players of one table (which changes who partners whom), while that
    lowers the cost."""

    def split(order: list[int]) -> list[list[int]]:
        out, i = [], 0
        for size in sizes:
            out.append(order[i : i + size])
            i += size
        return out

    best: list[list[int]] | None = None
    best_score = 0
    for _attempt in range(candidates):
        order = pool[:]
        rng.shuffle(order)
        tables = split(order)
        score = sum(cost(t) for t in tables)
        if best is None or score < best_score:
            best, best_score = tables, score
        if best_score == 0:
            break
    assert best is not None
    improved = best_score > 0
    while improved:
        improved = False
        for a, b in itertools.combinations(range(len(best)), 2):
            for i, j in itertools.product(range(len(best[a])), range(len(best[b]))):
                before = cost(best[a]) + cost(best[b])
                best[a][i], best[b][j] = best[b][j], best[a][i]
                if cost(best[a]) + cost(best[b]) < before:
                    improved = True
                else:
                    best[a][i], best[b][j] = best[b][j], best[a][i]
        if reorder:
            for table in best:
                for i, j in ((1, 2), (2, 3)):
                    if j >= len(table):
                        continue
                    before = cost(table)
                    table[i], table[j] = table[j], table[i]
                    if cost(table) < before:
                        improved = True
                    else:
                        table[i], table[j] = table[j], table[i]
    return best


def plan_draw(
    start_numbers: Sequence[int],
    met: Counter[tuple[int, int]],
    seed: int,
    candidates: int = 200,
    *,
    fours: bool = False,
    partnered: Counter[tuple[int, int]] | None = None,
    at_four: Counter[int] | None = None,
) -> DrawPlan:
    """A reproducible seating plan for ``start_numbers``.

    ``met`` counts earlier meetings per pair (smaller start number first).  The plan with
    the fewest repeat meetings among ``candidates`` seeded shuffles is improved by
    swapping two players of different tables while that lowers the count.  Same inputs and
    ``seed`` → same plan.

    ``fours``: only tables of four (:func:`table_sizes` raises ``ValidationError`` for a
    count not divisible by 4).  ``partnered`` (individual event at partnership tables):
    earlier partnerships per pair; a repeated partnership then weighs
    :data:`PARTNER_WEIGHT` repeat meetings, and players of one table are also reordered,
    so partners change from round to round wherever the count allows.  ``at_four``
    (tables of three and four mixed): earlier seats per start number at a table of four;
    seating a player there again weighs :data:`FOUR_WEIGHT` repeat meetings per earlier
    seat, so the four-table seats go round the field.
    """
    rng = random.Random(seed)
    sizes = table_sizes(len(start_numbers), fours)
    partners = partnered if partnered is not None else Counter()
    fourth = at_four if at_four is not None and not fours else Counter()

    def cost(table: Sequence[int]) -> int:
        score = _repeats([table], met)
        if partners:
            score += PARTNER_WEIGHT * sum(partners[p] for p in _partners(table))
        if fourth and len(table) == 4:
            score += FOUR_WEIGHT * sum(fourth[p] for p in table)
        return score

    best = _search(
        sorted(start_numbers),
        sizes,
        cost,
        rng,
        candidates if met or fourth else 1,
        reorder=partnered is not None,
    )
    return DrawPlan(
        tuple(tuple(t) for t in best),
        _repeats(best, met),
        sum(partners[p] for t in best for p in _partners(t)),
    )


def plan_pairs_draw(
    pairs: Sequence[tuple[int, int]],
    met: Counter[tuple[int, int]],
    seed: int,
    candidates: int = 200,
) -> DrawPlan:
    """A reproducible seating plan for a pairs event: ``pairs`` of start numbers (fixed
    partners), two pairs a table, each pair opposite each other (seats 0+2 and 1+3, the
    engine's sides).  Repeat meetings of two pairs (any of their players met before, by
    ``met``) are avoided as in :func:`plan_draw`; ``repeats`` of the plan counts those
    (partners meeting each other again is the point of a pair).

    Raises ``ValidationError`` for an odd number of pairs (or fewer than two), naming the
    count: a table needs two pairs, and the draw never leaves a pair out by itself."""
    if len(pairs) < 2 or len(pairs) % 2:
        raise ValidationError(
            _(
                "Für die Paarwertung braucht es eine gerade Zahl von Paaren (zwei Paare je "
                "Tisch); Zahl der Paare in dieser Runde: %(n)s – ein Paar fehlt oder ist zu viel."
            )
            % {"n": len(pairs)}
        )
    units = {i: tuple(p) for i, p in enumerate(pairs)}

    def cost(table: Sequence[int]) -> int:
        a, b = (units[u] for u in table)
        return sum(met[tuple(sorted((x, y)))] for x in a for y in b)

    met_units = any(met)
    best = _search(
        list(units),
        [2] * (len(units) // 2),
        cost,
        random.Random(seed),
        candidates if met_units else 1,
        reorder=False,
    )
    tables = tuple(
        (units[a][0], units[b][0], units[a][1], units[b][1]) for a, b in (t for t in best)
    )
    # partners always sit together: only meetings of two pairs are repeats
    return DrawPlan(tables, sum(cost(t) for t in best), 0)


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


def pairs_of(registrations: Sequence[Registration]) -> tuple[list[tuple[int, int]], list[str]]:
    """The pairs among ``registrations`` (those with a ``pair`` number) as start numbers in
    pair-number order, and what is wrong for a pairs draw: players without a pair, pairs
    of whom only one plays."""
    by_pair: dict[int, list[int]] = {}
    single: list[int] = []
    for reg in registrations:
        if reg.pair is None:
            single.append(reg.start_number)
        else:
            by_pair.setdefault(reg.pair, []).append(reg.start_number)
    problems = []
    if single:
        problems.append(
            _("Ohne Partner: Startnummer %(numbers)s. Paare werden auf der Anmeldeseite gebildet.")
            % {"numbers": ", ".join(map(str, sorted(single)))}
        )
    for number, members in sorted(by_pair.items()):
        if len(members) != 2:
            problems.append(
                _("Paar %(pair)s ist nicht vollständig (Startnummer %(numbers)s).")
                % {"pair": number, "numbers": ", ".join(map(str, sorted(members)))}
            )
    pairs = [tuple(sorted(members)) for _n, members in sorted(by_pair.items()) if len(members) == 2]
    return pairs, problems


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
        r.start_number: r for r in tournament.registrations.all() if r.plays_in(round_.number)
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


def may_enter(user, tournament: Tournament) -> bool:
    """Whether ``user`` may enter and confirm results of ``tournament``: its director
    (``tournament.change_tournament``) or an account listed among its ``clerks``."""
    if user is None or not user.is_authenticated:
        return False
    if user.has_perm("tournament.change_tournament"):
        return True
    return tournament.clerks.filter(pk=user.pk).exists()


@transaction.atomic
def start_round(round_: Round) -> None:
    """Open ``round_`` for entry; it must be drawn.  Raises ``ValidationError`` otherwise."""
    locked = lock_round(round_.pk)
    if locked.status != Round.Status.PLANNED:
        raise ValidationError(_("Die Runde läuft schon oder ist abgeschlossen."))
    if not locked.tables.exists():
        raise ValidationError(_("Die Runde ist noch nicht ausgelost."))
    _require_previous_closed(locked, "start")
    locked.status = Round.Status.RUNNING
    locked.save(update_fields=["status"])
    round_.status = locked.status


@transaction.atomic
def register_player(
    tournament: Tournament,
    *,
    first_name: str,
    last_name: str,
    club: str = "",
    consent_public: bool = False,
    start_number: int | None = None,
    first_round: int = 1,
    year_of_birth: int | None = None,
    player_id: int | None = None,
) -> Registration:
    """Register a player: the one chosen by type-ahead (``player_id``, see
    :func:`search_players`), else an existing player with the same name and club (and the
    same ``year_of_birth`` where both are known), else a new one.  A year of birth given
    for a player without one is stored on the player.  ``consent_public`` holds for this
    registration only (see :func:`register`).

    Raises ``ValidationError`` (by field) when the start number is taken, the player is
    already registered or unknown, or ``first_round`` is not a round of the tournament.
    """
    if not 1 <= first_round <= tournament.rounds:
        raise ValidationError({"first_round": _("Diese Runde gibt es nicht.")})
    if (
        start_number is not None
        and tournament.registrations.filter(start_number=start_number).exists()
    ):
        raise ValidationError({"start_number": _("Diese Startnummer ist schon vergeben.")})
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise ValidationError(
                {"last_name": _("Der gewählte Spieler existiert nicht mehr; bitte neu suchen.")}
            )
    else:
        same = Player.objects.filter(
            first_name=first_name.strip(), last_name=last_name.strip(), club=club.strip()
        ).order_by("pk")
        if year_of_birth is not None:
            same = same.filter(Q(year_of_birth=year_of_birth) | Q(year_of_birth__isnull=True))
        player = same.first() or Player.objects.create(
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            club=club.strip(),
            year_of_birth=year_of_birth,
            last_consent_public=consent_public,
        )
    if year_of_birth is not None and player.year_of_birth is None:
        player.year_of_birth = year_of_birth
        player.save(update_fields=["year_of_birth"])
    existing = tournament.registrations.filter(player=player).first()
    if existing is not None and existing.withdrawn_after_round is not None:
        raise ValidationError({"last_name": withdrawn_message(existing)})
    if existing is not None:
        raise ValidationError({"last_name": _("Dieser Spieler ist schon angemeldet.")})
    return register(tournament, player, start_number, first_round, consent_public=consent_public)


def withdrawn_message(registration: Registration) -> str:
    """Why a withdrawn player is not registered again: they keep their start number and
    come back with "wieder anmelden" (or, when that is no longer possible, why not)."""
    try:
        draws_cleared_by_reinstating(registration)
    except ValidationError as exc:
        return exc.messages[0]
    return _(
        "%(name)s hat schon Startnummer %(n)s und ist abgemeldet %(when)s. Nicht neu "
        "anmelden, sondern in der Liste der Anmeldungen „wieder anmelden“ wählen."
    ) % {
        "name": registration.player,
        "n": registration.start_number,
        "when": withdrawal_text(registration.withdrawn_after_round),
    }


#: Most players the registration type-ahead lists.
SEARCH_LIMIT = 10


def search_players(text: str, limit: int = SEARCH_LIMIT) -> list[Player]:
    """Players whose last name, first name or "first last" starts with ``text`` (case
    does not matter; at least 2 characters, else ``[]``), for the registration
    type-ahead; each with ``tournaments`` (how many tournaments they entered, the busiest
    first) so the door sees who is a regular.  One query."""
    # a NUL cannot be in a name (forms refuse it) and PostgreSQL refuses it in a query
    text = " ".join(text.replace("\x00", "").split())[:100]
    if len(text) < 2:
        return []
    first, _sep, rest = text.partition(" ")
    match = Q(last_name__istartswith=text) | Q(first_name__istartswith=text)
    if rest:
        match |= Q(first_name__istartswith=first, last_name__istartswith=rest)
        match |= Q(last_name__istartswith=first, first_name__istartswith=rest)
    return list(
        Player.objects.filter(match)
        .annotate(tournaments=Count("registrations"))
        .order_by("-tournaments", "last_name", "first_name", "pk")[:limit]
    )


@transaction.atomic
def merge_players(keep: Player, duplicate: Player, user=None) -> Player:
    """Merge two records of one person (director): every registration of ``duplicate``
    moves to ``keep``, which takes over a year of birth it lacks; then ``duplicate`` is
    deleted.  Nothing is lost: each moved registration and the deletion are in the history
    (django-simple-history) with the reason "Zusammengeführt …", by ``user``.

    Raises ``ValidationError`` when both are the same record or both are registered in one
    tournament (two start numbers of one person: withdraw one there first)."""
    if keep.pk == duplicate.pk:
        raise ValidationError(_("Bitte zwei verschiedene Spieler wählen."))
    both = (
        Tournament.objects.filter(registrations__player=keep)
        .filter(registrations__player=duplicate)
        .order_by("date")
    )
    clash = [str(t) for t in both]
    if clash:
        raise ValidationError(
            _(
                "%(a)s und %(b)s spielen beide in %(t)s; dieselbe Person kann dort nicht "
                "zweimal gemeldet sein. Zusammenführen nicht möglich."
            )
            % {"a": keep, "b": duplicate, "t": ", ".join(clash)}
        )
    reason = _("Zusammengeführt: Spieler %(old)s (%(name)s) in Spieler %(new)s") % {
        "old": duplicate.pk,
        "name": duplicate,
        "new": keep.pk,
    }

    def mark(instance) -> None:
        instance._change_reason = reason
        if user is not None:
            instance._history_user = user

    for registration in Registration.objects.select_for_update().filter(player=duplicate):
        registration.player = keep
        mark(registration)
        registration.save(update_fields=["player"])
    if keep.year_of_birth is None and duplicate.year_of_birth is not None:
        keep.year_of_birth = duplicate.year_of_birth
        mark(keep)
        keep.save(update_fields=["year_of_birth"])
    mark(duplicate)
    duplicate.delete()
    return keep


@transaction.atomic
def form_pair(tournament: Tournament, first: int, second: int) -> int:
    """Make the players with start numbers ``first`` and ``second`` a fixed pair of a pairs
    event: both get the next free pair number, which is returned.  Saved one by one, so the
    change is in each registration's history.

    Raises ``ValidationError`` on ``first``/``second`` for an unknown start number or a
    player already in a pair, and on ``__all__`` when the tournament is not a pairs event
    or a round has started (the pairs are fixed for the whole event; a planned round
    is simply drawn again)."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one pair-number sequence
    if tournament.event_type != Tournament.EventType.PAIRS:
        raise ValidationError(_("Paare gibt es nur bei einem Turnier mit Paarwertung."))
    if tournament.round_set.exclude(status=Round.Status.PLANNED).exists():
        raise ValidationError(
            _("Das Turnier hat begonnen; die Paare stehen für das ganze Turnier fest.")
        )
    found = {
        r.start_number: r for r in tournament.registrations.filter(start_number__in=[first, second])
    }
    errors: dict[str, list[str]] = {}
    for name, number in (("first", first), ("second", second)):
        reg = found.get(number)
        if reg is None:
            errors[name] = [_("Startnummer %(n)s ist nicht angemeldet.") % {"n": number}]
        elif reg.pair is not None:
            errors[name] = [
                _("Startnummer %(n)s spielt schon in Paar %(pair)s.")
                % {"n": number, "pair": reg.pair}
            ]
    if first == second:
        errors.setdefault("second", []).append(_("Bitte zwei verschiedene Startnummern angeben."))
    if errors:
        raise ValidationError(errors)
    number = (tournament.registrations.aggregate(m=Max("pair"))["m"] or 0) + 1
    for reg in (found[first], found[second]):
        reg.pair = number
        reg.save(update_fields=["pair"])
    return number


@transaction.atomic
def split_pair(tournament: Tournament, pair: int) -> None:
    """Undo pair number ``pair`` before the first draw (both partners are single again).
    Raises ``ValidationError`` once a round has started."""
    if tournament.round_set.exclude(status=Round.Status.PLANNED).exists():
        raise ValidationError(
            _("Das Turnier hat begonnen; die Paare stehen für das ganze Turnier fest.")
        )
    for reg in tournament.registrations.filter(pair=pair):
        reg.pair = None
        reg.save(update_fields=["pair"])


# --------------------------------------------------------------------------- withdrawals
#
# A registration plays one unbroken stretch of rounds, ``first_round`` to
# ``withdrawn_after_round`` (``Registration.plays_in``); the draw and the standings rely on
# it.  A withdrawal ends the stretch after the last round that has started.  It can be
# undone ("wieder anmelden") as long as no round after it has started without the player:
# a mistake, or a player who comes back before the next round begins.  A round after it
# that is drawn but not started loses its draw on the undo (it must be drawn again, now
# with the player).  Once such a round has started without the player, coming back would
# leave a gap in the stretch, so the undo is refused; the results so far stay.


def withdrawal_round(tournament: Tournament) -> int:
    """The round a withdrawal made now comes after: the highest round that has started
    (running or closed), ``0`` while no round has started.  The player still plays a running
    round; later draws skip them."""
    started = tournament.round_set.exclude(status=Round.Status.PLANNED)
    return started.aggregate(last=Max("number"))["last"] or 0


def withdrawal_text(after_round: int) -> str:
    """``withdrawn_after_round`` in words: "nach Runde 2", or "vor Runde 1" for ``0``."""
    if after_round < 1:
        return _("vor Runde 1")
    return _("nach Runde %(n)s") % {"n": after_round}


def draws_cleared_by_withdrawal(registration: Registration) -> list[Round]:
    """The planned rounds after :func:`withdrawal_round` that are already drawn with the
    player seated, in order (usually none): a withdrawal now deletes their draw."""
    after = withdrawal_round(registration.tournament)
    return list(
        registration.tournament.round_set.filter(
            number__gt=after, status=Round.Status.PLANNED, seats__registration=registration
        )
        .distinct()
        .order_by("number")
    )


def draws_cleared_by_reinstating(registration: Registration) -> list[Round]:
    """What undoing the withdrawal of ``registration`` would do: the planned rounds after
    the withdrawal already drawn without the player, in order (usually none), whose draw
    the undo deletes so that they are drawn again with the player.

    Raises ``ValidationError`` when the player is not withdrawn, or when a round after the
    withdrawal (that the player would play) has started without them: then the player
    cannot come back (see the comment above :func:`withdrawal_round`)."""
    after = registration.withdrawn_after_round
    if after is None:
        raise ValidationError(_("%(name)s ist nicht abgemeldet.") % {"name": registration.player})
    rounds = registration.tournament.round_set.filter(
        number__gt=max(after, registration.first_round - 1)
    ).order_by("number")
    seated = set(registration.seats.values_list("round_id", flat=True))
    cleared = []
    for round_ in rounds:
        if round_.pk in seated:  # drawn with the player before the withdrawal
            continue
        if round_.status != Round.Status.PLANNED:
            raise ValidationError(
                _(
                    "„Wieder anmelden“ ist nicht mehr möglich: Runde %(n)s hat ohne %(name)s "
                    "begonnen, und eine Teilnahme mit Lücke kennt die Wertung nicht. %(name)s "
                    "bleibt abgemeldet %(when)s; die Ergebnisse bis dahin bleiben in der "
                    "Rangliste."
                )
                % {"n": round_.number, "name": registration.player, "when": withdrawal_text(after)}
            )
        if round_.tables.exists():
            cleared.append(round_)
    return cleared


def _clear_draw(round_: Round) -> None:
    """Delete the draw of a planned round (its tables, seats and seed); it must be drawn
    again.  Raises ``ValidationError`` when the round has started meanwhile."""
    locked = lock_round(round_.pk)
    if locked.status != Round.Status.PLANNED:
        raise ValidationError(
            _("Runde %(n)s hat inzwischen begonnen; bitte die Seite neu laden.")
            % {"n": locked.number}
        )
    locked.tables.all().delete()
    locked.seed = None
    locked.save(update_fields=["seed"])


def _lock_rounds(tournament_id: int) -> None:
    """Lock every round of the tournament for the rest of the transaction (in id order, as
    every locker of several rounds does): a draw or a round start, which lock their round
    (:func:`lock_round`), then waits for a withdrawal or its undoing and sees it, and they
    wait for a draw in progress and clear it (PostgreSQL; SQLite's immediate transactions
    already serialize writers)."""
    list(Round.objects.select_for_update().filter(tournament_id=tournament_id).order_by("pk"))


@transaction.atomic
def withdraw(registration: Registration) -> list[Round]:
    """Withdraw a player after :func:`withdrawal_round`: later draws skip them, their
    results so far stay.  A planned round already drawn with the player seated loses its
    draw (:func:`draws_cleared_by_withdrawal`; to be drawn again); those rounds are returned.
    The change is kept in the registration's history with the reason "Abgemeldet …".

    Raises ``ValidationError`` when the player is already withdrawn (a second click, an
    old form), so an earlier withdrawal is never moved to a later round."""
    _lock_rounds(registration.tournament_id)
    reg = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
    if reg.withdrawn_after_round is not None:
        raise ValidationError(
            _("%(name)s ist schon abgemeldet (%(when)s).")
            % {"name": reg.player, "when": withdrawal_text(reg.withdrawn_after_round)}
        )
    after = withdrawal_round(reg.tournament)
    cleared = draws_cleared_by_withdrawal(reg)
    for round_ in cleared:
        _clear_draw(round_)
    reg.withdrawn_after_round = after
    reg._change_reason = _("Abgemeldet %(when)s") % {"when": withdrawal_text(after)}
    reg.save(update_fields=["withdrawn_after_round"])
    registration.withdrawn_after_round = after
    return cleared


@transaction.atomic
def reinstate(registration: Registration, *, clear_draws: bool = False) -> list[Round]:
    """Undo the withdrawal of ``registration`` ("wieder anmelden"): the player plays every
    round from ``first_round`` on again.  A planned round after the withdrawal that is
    already drawn without the player loses its draw (it must be drawn again, now with
    them), but only with ``clear_draws``; those rounds are returned.  The change is kept in
    the registration's history with the reason "Wieder angemeldet …".

    Raises ``ValidationError`` when :func:`draws_cleared_by_reinstating` does (not
    withdrawn, or a later round has started without the player), and when a draw would be
    deleted without ``clear_draws``."""
    _lock_rounds(registration.tournament_id)
    reg = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
    cleared = draws_cleared_by_reinstating(reg)
    if cleared and not clear_draws:
        raise ValidationError(
            _(
                "Runde %(n)s ist schon ohne %(name)s ausgelost; beim Wieder-Anmelden wird "
                "diese Auslosung gelöscht. Bitte bestätigen."
            )
            % {"n": cleared[0].number, "name": reg.player}
        )
    for round_ in cleared:
        _clear_draw(round_)
    was = reg.withdrawn_after_round
    reg.withdrawn_after_round = None
    reg._change_reason = _("Wieder angemeldet (war abgemeldet %(when)s)") % {
        "when": withdrawal_text(was)
    }
    reg.save(update_fields=["withdrawn_after_round"])
    registration.withdrawn_after_round = None
    return cleared


# --------------------------------------------------------------------------- at the door


@dataclass(frozen=True)
class ListEntry:
    """One line of a pasted player list: ``line`` (1-based line number in the pasted
    text), the names and club as typed (trimmed), and ``duplicate``: ``""`` when new,
    ``"registered"`` when the player is already registered in this tournament,
    ``"withdrawn"`` when registered but withdrawn (to come back with "wieder anmelden",
    :func:`reinstate`), ``"list"`` when the same name and club came earlier in the list."""

    line: int
    last_name: str
    first_name: str
    club: str
    duplicate: str = ""


#: Longest name and club the ``Player`` columns hold (characters).
_NAME_MAX, _CLUB_MAX = 100, 200


def _key(first_name: str, last_name: str, club: str) -> tuple[str, str, str]:
    return (first_name.casefold(), last_name.casefold(), club.casefold())


def parse_player_list(tournament: Tournament, text: str) -> list[ListEntry]:
    """Read a pasted list, one player a line as ``Nachname, Vorname; Verein`` (the club is
    optional; blank lines are skipped), and flag duplicates (see :class:`ListEntry`).

    Raises ``ValidationError`` on field ``players`` listing every line without a first and a
    last name or with a name longer than the columns hold, so nothing is half-read."""
    entries: list[ListEntry] = []
    errors: list[str] = []
    registered = {
        _key(r.player.first_name, r.player.last_name, r.player.club): r.withdrawn_after_round
        for r in tournament.registrations.select_related("player")
    }
    seen: set[tuple[str, str, str]] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        names, _sep, club = line.partition(";")
        last_name, comma, first_name = names.partition(",")
        last_name, first_name, club = last_name.strip(), first_name.strip(), club.strip()
        if not comma or not last_name or not first_name:
            errors.append(
                _("Zeile %(n)s: bitte „Nachname, Vorname; Verein“ angeben (gelesen: „%(text)s“).")
                % {"n": number, "text": line[:80]}
            )
            continue
        if len(last_name) > _NAME_MAX or len(first_name) > _NAME_MAX or len(club) > _CLUB_MAX:
            errors.append(_("Zeile %(n)s: Name oder Verein ist zu lang.") % {"n": number})
            continue
        key = _key(first_name, last_name, club)
        if key in registered:
            duplicate = "registered" if registered[key] is None else "withdrawn"
        else:
            duplicate = "list" if key in seen else ""
        seen.add(key)
        entries.append(ListEntry(number, last_name, first_name, club, duplicate))
    if errors:
        raise ValidationError({"players": errors})
    if not entries:
        raise ValidationError({"players": [_("Die Liste enthält keinen Spieler.")]})
    return entries


def register_many(tournament: Tournament, text: str, first_round: int = 1) -> list[Registration]:
    """Register every player of a pasted list (see :func:`parse_player_list`) with the next
    free start numbers, in list order, all or nothing: any duplicate (already registered,
    withdrawn, or twice in the list) or unreadable line refuses the whole list with ``ValidationError`` on
    ``players``.  Consent stays unticked (it is asked at the door, one by one)."""
    if not 1 <= first_round <= tournament.rounds:
        raise ValidationError({"first_round": _("Diese Runde gibt es nicht.")})
    entries = parse_player_list(tournament, text)
    reasons = {
        "registered": _("Zeile %(n)s: %(name)s ist schon angemeldet."),
        "withdrawn": _(
            "Zeile %(n)s: %(name)s ist abgemeldet. Die Zeile löschen und in der Liste der "
            "Anmeldungen „wieder anmelden“ wählen."
        ),
        "list": _("Zeile %(n)s: %(name)s steht doppelt in der Liste."),
    }
    duplicates = [
        reasons[e.duplicate] % {"n": e.line, "name": f"{e.first_name} {e.last_name}"}
        for e in entries
        if e.duplicate
    ]
    if duplicates:
        raise ValidationError({"players": duplicates})
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)  # one number sequence
        return [
            register_player(
                tournament,
                first_name=e.first_name,
                last_name=e.last_name,
                club=e.club,
                first_round=first_round,
            )
            for e in entries
        ]


def update_registration(
    registration: Registration,
    *,
    first_name: str,
    last_name: str,
    club: str = "",
    consent_public: bool = False,
) -> Registration:
    """Correct a registration at the door: the player's name and club (the same person in
    every tournament, so the player is changed) and this tournament's consent.  Earlier
    values stay in the history of ``Player`` and ``Registration``.

    Raises ``ValidationError`` on ``last_name`` when the corrected name and club are those of
    another player already registered in this tournament."""
    player = registration.player
    first_name, last_name, club = first_name.strip(), last_name.strip(), club.strip()
    clash = (
        registration.tournament.registrations.exclude(pk=registration.pk)
        .filter(
            player__first_name__iexact=first_name,
            player__last_name__iexact=last_name,
            player__club__iexact=club,
        )
        .exists()
    )
    if clash:
        raise ValidationError({"last_name": _("Dieser Spieler ist schon angemeldet.")})
    with transaction.atomic():
        if (player.first_name, player.last_name, player.club) != (first_name, last_name, club):
            player.first_name, player.last_name, player.club = first_name, last_name, club
            player.save(update_fields=["first_name", "last_name", "club"])
        if registration.consent_public != consent_public:
            registration.consent_public = consent_public
            registration.save(update_fields=["consent_public"])
    return registration


def set_consents(tournament: Tournament, start_numbers: Sequence[int]) -> int:
    """Tick consent for the given start numbers in one go (those who agreed at the door);
    other registrations keep their answer.  Returns how many registrations changed.  Saved
    one by one so each change is in the registration's history."""
    changed = 0
    with transaction.atomic():
        for reg in tournament.registrations.filter(
            start_number__in=list(start_numbers), consent_public=False
        ):
            reg.consent_public = True
            reg.save(update_fields=["consent_public"])
            changed += 1
    return changed


#: Most categories one tournament may have (each is a column on the registrations page).
MAX_CATEGORIES = 12


def add_category(tournament: Tournament, name: str) -> Category:
    """A new category ("Damen", "Jugend U18", "Gast") of ``tournament``.  Raises
    ``ValidationError`` on ``name`` when it is empty, gives no address name (only
    punctuation), is taken (ignoring case) or the tournament has :data:`MAX_CATEGORIES`."""
    name = " ".join(name.split())
    slug = slugify(name)
    if not name or not slug:
        raise ValidationError({"name": _("Bitte einen Namen mit Buchstaben oder Ziffern angeben.")})
    if tournament.categories.filter(slug=slug).exists():
        raise ValidationError(
            {"name": _("Die Kategorie „%(name)s“ gibt es schon.") % {"name": name}}
        )
    if tournament.categories.count() >= MAX_CATEGORIES:
        raise ValidationError(
            {"name": _("Höchstens %(n)s Kategorien je Turnier.") % {"n": MAX_CATEGORIES}}
        )
    return Category.objects.create(tournament=tournament, name=name, slug=slug)


def set_categories(tournament: Tournament, members: dict[int, Sequence[int]]) -> int:
    """Make the members of each category of ``tournament`` exactly the registrations with
    the start numbers in ``members[category id]`` (a category not in ``members`` keeps
    none; unknown start numbers are ignored: the form only offers registered ones).
    Returns how many memberships changed; each change is kept in the category's history."""
    changed = 0
    regs = {r.start_number: r.pk for r in tournament.registrations.only("pk", "start_number")}
    with transaction.atomic():
        for category in tournament.categories.prefetch_related("registrations"):
            wanted = {regs[n] for n in members.get(category.pk, ()) if n in regs}
            current = {r.pk for r in category.registrations.all()}
            if wanted != current:
                changed += len(wanted ^ current)
                category.registrations.set(wanted)
    return changed

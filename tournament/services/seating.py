"""The seating search of the draw, on plain data: the table sizes for a player count, the
seeded search for the plan with the fewest repeat meetings (:func:`plan_draw`,
:func:`plan_pairs_draw`) and its weights.  Start numbers and counters in, a
:class:`DrawPlan` out; no database (the rounds module reads the earlier tables and saves
the plan, :func:`tournament.services.rounds.draw_round`).

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

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


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

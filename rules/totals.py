"""Plausibility of a round total typed from a paper score sheet.

Some tournaments keep paper sheets at the tables and enter only each player's round total
(FIELD-NOTES, "Erfassung").  The engine cannot re-score such a total, but it can reject what
no sequence of hands under the ruleset could produce:

- with ``rounding == "tens"`` every hand score is a multiple of 10 (melds are multiples of
  10, trick points are rounded to tens, bids move in steps of 10), so the total is too;
- a hand can add at most :func:`hand_score_bounds` ``high`` points and take away at most
  ``low`` (melds limited to what a hand of the table's size can hold), so ``games`` hands
  stay within ``games`` times those bounds;
- a player is declarer at most once per hand: games won plus lost as declarer ≤ ``games``.

The bounds are deliberately generous (they hold for every legal hand), so they catch typos
such as an extra digit rather than merely unusual evenings.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .errors import FieldError, InvalidInput
from .meldrange import meld_range, seat_hand_size
from .ruleset import Ruleset
from .validation import _int


@dataclass(frozen=True)
class ScoreBounds:
    """The range of game points one player can get from one hand: ``low`` ≤ score ≤
    ``high`` (``low`` ≤ 0 ≤ ``high``)."""

    low: int
    high: int


def side_max_meld(ruleset: Ruleset, seats: int) -> int:
    """The most meld points one scoring side can enter at a table of ``seats`` (game points):
    the highest total one hand of the seat's size can hold (:func:`rules.meldrange.meld_range`,
    the same limit that :func:`rules.validation.parse_record` applies to each seat) times the
    number of hands the side pools (two for partners, else one)."""
    per_hand = meld_range(ruleset, seat_hand_size(ruleset, seats)).max
    return per_hand * max(len(side) for side in ruleset.sides(seats))


@lru_cache(maxsize=64)
def hand_score_bounds(ruleset: Ruleset, seats: int) -> ScoreBounds:
    """Bounds on one player's score from one hand at a table of ``seats`` players.

    ``high`` = most melds a side can enter (:func:`side_max_meld`, from the hand size) + all
    trick points + the largest opponents' bonus + the largest special-game credit.  ``low``
    = minus the largest deduction: a lost game, Abgehen, Verwerfen or misdiscard at the
    highest sensible bid, or a lost special game.  The highest sensible bid is the first
    bidding step above the most any side can make (most melds + all trick points): no
    declarer can make more, one step more is the least bid that is out of reach (where
    conceding is allowed only then), and bids beyond it are treated as impossible.  Source: the penalty parameters of the ruleset itself
    (``lost``, ``abgehen``, ``revoke``, ``misdiscard``, the special games).
    """
    reachable = side_max_meld(ruleset, seats) + ruleset.trick_points_total
    steps = max(0, (reachable - ruleset.min_bid) // ruleset.bid_step + 1)
    top_bid = ruleset.min_bid + steps * ruleset.bid_step

    bonuses = [ruleset.lost.opponents_bonus.points(top_bid, seats)]
    penalties = [ruleset.lost.declarer.points(top_bid)]
    if ruleset.abgehen is not None:
        bonuses.append(ruleset.abgehen.opponents_bonus.points(top_bid, seats))
        penalties.append(ruleset.abgehen.declarer.points(top_bid))
        if ruleset.abgehen.declarer_when_unreachable is not None:
            penalties.append(ruleset.abgehen.declarer_when_unreachable.points(top_bid))
    if ruleset.revoke is not None:
        penalties.append(ruleset.revoke.offender.points(top_bid))
    if ruleset.misdiscard is not None:
        bonuses.append(ruleset.misdiscard.opponents_bonus.points(top_bid, seats))
        penalties.append(ruleset.misdiscard.declarer.points(top_bid))
    specials = [
        game
        for game in (
            ruleset.durch,
            ruleset.durch_aufgelegt,
            ruleset.durch_ohne_dabb,
            ruleset.bettel,
        )
        if game is not None
    ]
    penalties.extend(game.lost for game in specials)
    high = reachable + max(bonuses) + max((game.won for game in specials), default=0)
    return ScoreBounds(low=-max(penalties), high=high)


def check_round_total(
    ruleset: Ruleset,
    seats: int,
    games: int,
    points: object,
    won: object = 0,
    lost: object = 0,
) -> list[FieldError]:
    """Every reason why ``points`` cannot be a player's total of ``games`` hands at a table
    of ``seats`` players, with ``won``/``lost`` games as declarer.  Empty when plausible.

    Error fields: ``points``, ``won``, ``lost``.  Codes: ``type`` (not a whole number),
    ``multiple`` (params ``value``; the ruleset rounds to tens), ``range`` (params
    ``value``, ``low``, ``high``), ``negative``, ``games`` (params ``won``, ``lost``,
    ``games``: more declarer games than hands).  Never raises for bad values; raises
    ``ValueError`` only for a nonsensical call (``games`` < 1, ``seats`` not a table size
    of the ruleset).
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    if seats not in ruleset.seat_counts:
        raise ValueError(f"the ruleset has no table of {seats}")
    errors: list[FieldError] = []
    if not _int(points):
        errors.append(FieldError("points", "points must be a whole number", code="type"))
    else:
        assert isinstance(points, int)
        bounds = hand_score_bounds(ruleset, seats)
        low, high = bounds.low * games, bounds.high * games
        if ruleset.rounding == "tens" and points % 10:
            errors.append(
                FieldError(
                    "points",
                    f"{points} is not a multiple of 10 (the ruleset rounds to tens)",
                    code="multiple",
                    params={"value": points},
                )
            )
        if not low <= points <= high:
            errors.append(
                FieldError(
                    "points",
                    f"{points} is outside what {games} hands can give ({low} … {high})",
                    code="range",
                    params={"value": points, "low": low, "high": high},
                )
            )
    counts: dict[str, int] = {}
    for name, value in (("won", won), ("lost", lost)):
        if not _int(value):
            errors.append(FieldError(name, f"{name} must be a whole number", code="type"))
        elif value < 0:  # type: ignore[operator]
            errors.append(FieldError(name, f"{name} must not be negative", code="negative"))
        else:
            counts[name] = value  # type: ignore[assignment]
    if len(counts) == 2 and counts["won"] + counts["lost"] > games:
        errors.append(
            FieldError(
                "won",
                f"{counts['won']} won + {counts['lost']} lost is more than {games} games",
                code="games",
                params={"won": counts["won"], "lost": counts["lost"], "games": games},
            )
        )
    return errors


def validate_round_total(
    ruleset: Ruleset, seats: int, games: int, points: object, won: object = 0, lost: object = 0
) -> None:
    """:func:`check_round_total`, raising :class:`InvalidInput` with every problem."""
    errors = check_round_total(ruleset, seats, games, points, won, lost)
    if errors:
        raise InvalidInput(errors)

"""The engine's inputs: hand records valid by construction (a hypothesis strategy, with
the card values and sides it needs) and rulesets changed from the club preset."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from rules import PRESETS
from rules.cards import make_deck
from rules.errors import RulesetError
from rules.meldrange import meld_range
from rules.ruleset import Ruleset

_CLUB = PRESETS["club-tournament"]

#: a deal of four seats (9 cards each, a dabb of 4), for the ``deals`` of a ruleset
FOUR_DEAL = {"seats": 4, "cards_per_player": 9, "dabb": 4}


def card_value(ruleset: Ruleset, card: str) -> int:
    """Card points of one card, read straight from the ruleset's scheme."""
    cp = ruleset.card_points
    return {
        "A": cp.ace,
        "T": cp.ten,
        "K": cp.king,
        "Q": cp.ober,
        "J": cp.unter,
        "9": cp.low,
    }[card[0]]


def sides(ruleset: Ruleset, seats: int) -> list[tuple[int, ...]]:
    """The sides at a table of ``seats``: partners opposite at four when the ruleset plays
    partnerships, else each seat alone."""
    if seats == 4 and ruleset.partnerships:
        return [(0, 2), (1, 3)]
    return [(s,) for s in range(seats)]


@st.composite
def valid_records(draw: st.DrawFn, ruleset: Ruleset) -> dict[str, Any]:
    """A hand record that is valid by construction: trick points come from an actual split of
    the pack into the tricks each seat took (plus the declarer's discards)."""
    seats = draw(st.sampled_from(ruleset.seat_counts))
    deal = ruleset.deal_for(seats)
    declarer = draw(st.integers(0, seats - 1))
    bid = ruleset.min_bid + ruleset.bid_step * draw(st.integers(0, 100))
    outcome = draw(st.sampled_from(ruleset.outcomes))
    # meld totals a hand of this size can hold (others are refused: test_meldrange.py)
    attainable = meld_range(ruleset, deal.cards_per_player).totals
    melds = draw(st.lists(st.sampled_from(attainable), min_size=seats, max_size=seats))
    record: dict[str, Any] = {"seats": seats, "declarer": declarer, "outcome": outcome}
    if outcome == "played":
        winners = draw(
            st.lists(
                st.integers(0, seats - 1),
                min_size=deal.cards_per_player,
                max_size=deal.cards_per_player,
            )
        )
        taken = [winners.count(s) for s in range(seats)]
        pack = draw(st.permutations(make_deck(ruleset.deck_size)))
        tricks, pos = [], 0
        for seat in range(seats):
            n = taken[seat] * seats + (deal.dabb if seat == declarer else 0)
            tricks.append(sum(card_value(ruleset, c) for c in pack[pos : pos + n]))
            pos += n
        assert pos == ruleset.deck_size
        tricks[winners[-1]] += ruleset.last_trick_bonus
        record.update(melds=melds, tricks=tricks)
        if draw(st.booleans()):
            record["tricks_taken"] = taken
        choices: list[dict[str, Any] | None] = [None]
        if ruleset.revoke is not None:
            choices += [{"type": "verwerfen", "seat": s} for s in range(seats)]
        if ruleset.misdiscard is not None:
            choices.append({"type": "falsch-druecken", "seat": declarer})
        penalty = draw(st.sampled_from(choices))
        if penalty is not None:
            record["penalty"] = penalty
    elif outcome == "abgehen":
        record["melds"] = melds
        assert ruleset.abgehen is not None
        if ruleset.abgehen.only_when_unreachable:
            side = next(s for s in sides(ruleset, seats) if declarer in s)
            limit = sum(melds[s] for s in side) + ruleset.trick_points_total
            while bid <= limit:
                bid += ruleset.bid_step
    else:
        if draw(st.booleans()):
            record["melds"] = [0] * seats
        record["won"] = draw(st.booleans())
    record["bid"] = bid
    return record


def errors_of(**changes):
    """The errors of the club preset with ``changes`` (top-level keys of its dict)."""
    data = {**_CLUB.to_dict(), **changes}
    del data["fingerprint"]
    try:
        Ruleset.from_dict(data)
    except RulesetError as exc:
        return [(e.field, e.code, e.message, e.params) for e in exc.errors]
    return []

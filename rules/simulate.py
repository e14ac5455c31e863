"""Dealing and playing hands out with legal plays, for demo data, tests and benchmarks.

Nothing here is a playing strength claim: players bid from their best meld plus a rough trick
estimate, the declarer discards the cards worth least to keep, and every card played is a
random *legal* card (:func:`rules.play.legal_cards`).  What matters is that the numbers are
real: melds are counted by :func:`rules.melds.best_meld`, trick points are the card points of
the tricks actually taken, and the record passes :func:`rules.validation.parse_record`.

All randomness comes from the ``random.Random`` passed in, so a seed reproduces a tournament.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import RANK_STRENGTH, SUITS, make_deck
from .melds import best_meld
from .play import legal_cards, trick_winner
from .record import HandRecord
from .ruleset import Ruleset
from .scoring import HandScore, score_hand
from .validation import parse_record


@dataclass(frozen=True)
class Deal:
    """Cards dealt for one hand: ``hands`` per seat and the ``dabb`` (canonical codes)."""

    hands: tuple[tuple[str, ...], ...]
    dabb: tuple[str, ...]


@dataclass(frozen=True)
class PlayedTricks:
    """A hand played out: ``points`` per seat (card points of the tricks taken, + the
    last-trick bonus, + the declarer's discards), ``taken`` (tricks per seat) and ``tricks``
    (each trick as ``(leader seat, cards in play order)``)."""

    points: tuple[int, ...]
    taken: tuple[int, ...]
    tricks: tuple[tuple[int, tuple[str, ...]], ...]


@dataclass(frozen=True)
class SimulatedHand:
    """A complete simulated hand: the ``deal``, the ``trump``, the declarer's ``discards``,
    the validated ``record``, its ``score`` and the ``tricks`` as played (each
    ``(leader seat, cards in play order)``; empty when the declarer conceded)."""

    deal: Deal
    trump: str | None
    discards: tuple[str, ...]
    record: HandRecord
    score: HandScore
    tricks: tuple[tuple[int, tuple[str, ...]], ...] = ()


def deal_cards(ruleset: Ruleset, seats: int, rng: random.Random) -> Deal:
    """Shuffle the ruleset's pack and deal ``seats`` hands and the Dabb."""
    spec = ruleset.deal_for(seats)
    deck = make_deck(ruleset.deck_size)
    rng.shuffle(deck)
    n = spec.cards_per_player
    hands = tuple(tuple(deck[i * n : (i + 1) * n]) for i in range(seats))
    return Deal(hands, tuple(deck[seats * n :]))


def play_out(
    ruleset: Ruleset,
    hands: Sequence[Sequence[str]],
    trump: str | None,
    leader: int,
    rng: random.Random,
    declarer: int | None = None,
    discards: Sequence[str] = (),
) -> PlayedTricks:
    """Play every trick with random legal cards, ``leader`` leading the first.

    Returns the trick points per seat (the last trick's winner gets the bonus, the
    ``declarer`` the points of ``discards``) and the tricks taken.
    """
    seats = len(hands)
    remaining = [list(h) for h in hands]
    points = [0] * seats
    taken = [0] * seats
    tricks: list[tuple[int, tuple[str, ...]]] = []
    value = ruleset.card_points.value
    while remaining[leader]:
        trick: list[str] = []
        for offset in range(seats):
            seat = (leader + offset) % seats
            allowed, _ = legal_cards(ruleset, trump, trick, remaining[seat])
            card = rng.choice(allowed)
            remaining[seat].remove(card)
            trick.append(card)
        winner = (leader + trick_winner(trick, trump)) % seats
        points[winner] += sum(value(c[0]) for c in trick)
        taken[winner] += 1
        tricks.append((leader, tuple(trick)))
        leader = winner
    points[leader] += ruleset.last_trick_bonus
    if declarer is not None:
        points[declarer] += sum(value(c[0]) for c in discards)
    return PlayedTricks(tuple(points), tuple(taken), tuple(tricks))


def _estimate(ruleset: Ruleset, hand: Sequence[str]) -> tuple[int, str]:
    """A player's rough worth of a hand: best meld over the trumps + a trick guess."""
    best = (0, SUITS[0])
    for suit in SUITS:
        meld = best_meld(ruleset, hand, suit).total
        strength = sum(ruleset.card_points.value(c[0]) for c in hand if c[0] in "AT")
        trumps = sum(1 for c in hand if c[1] == suit)
        guess = meld + strength + 8 * trumps
        if guess > best[0]:
            best = (guess, suit)
    return best


def _round_bid(ruleset: Ruleset, value: int) -> int:
    steps = max(0, (value - ruleset.min_bid) // ruleset.bid_step)
    return ruleset.min_bid + steps * ruleset.bid_step


def simulate_hand(ruleset: Ruleset, seats: int, dealer: int, rng: random.Random) -> SimulatedHand:
    """Deal, bid, take the Dabb, discard, meld and play one hand; return it scored.

    The first bidder (:attr:`Ruleset.first_bidder_offset` seats from the dealer) opens the
    bidding; the first trick is led by that seat or
    by the declarer, as ``ruleset.play.first_lead`` says.  The highest estimate wins the bid
    (at least the minimum); a declarer whose meld + all trick points cannot reach the bid
    concedes where the ruleset allows it.  No special games are simulated; in
    ``partnership-250`` the partners' card exchange is left out.
    """
    dealt = deal_cards(ruleset, seats, rng)
    first = (dealer + ruleset.first_bidder_offset) % seats
    estimates = [_estimate(ruleset, h) for h in dealt.hands]
    order = [(first + i) % seats for i in range(seats)]
    declarer = max(order, key=lambda s: estimates[s][0])
    # Declarers reach about 1.5× this estimate (median); bidding 1.05–1.55× it makes roughly
    # one hand in five a lost game or a concession, as at a club table.
    bid = _round_bid(ruleset, int(estimates[declarer][0] * rng.uniform(1.05, 1.55)))

    hand = list(dealt.hands[declarer]) + list(dealt.dabb)
    trump = max(
        SUITS, key=lambda s: (best_meld(ruleset, hand, s).total, sum(c[1] == s for c in hand))
    )
    discards: list[str] = []
    if dealt.dabb:
        keep = {c for m in best_meld(ruleset, hand, trump).melds for c in m.cards}
        candidates = sorted(
            (c for c in hand if c not in keep and c[1] != trump),
            key=lambda c: (RANK_STRENGTH[c[0]], c),
        )
        if len(candidates) < len(dealt.dabb):
            candidates += sorted(
                (c for c in hand if c not in candidates), key=lambda c: (RANK_STRENGTH[c[0]], c)
            )
        discards = candidates[: len(dealt.dabb)]
        for c in discards:
            hand.remove(c)
    hands = [list(h) for h in dealt.hands]
    hands[declarer] = hand

    meld_points = [best_meld(ruleset, h, trump).total for h in hands]
    data: dict[str, object] = {"seats": seats, "declarer": declarer, "bid": bid}
    sides = ruleset.sides(seats)
    side = next(s for s in sides if declarer in s)
    side_melds = sum(meld_points[s] for s in side)
    reachable = side_melds + ruleset.trick_points_total
    hopeless = bid > side_melds + ruleset.trick_points_total * 0.8  # would need 200 of 250
    may_concede = ruleset.abgehen is not None and (
        bid > reachable or (hopeless and not ruleset.abgehen.only_when_unreachable)
    )
    tricks: tuple[tuple[int, tuple[str, ...]], ...] = ()
    if may_concede:
        data.update(outcome="abgehen", melds=meld_points)
    else:
        leader = declarer if ruleset.play.first_lead == "declarer" else first
        played = play_out(ruleset, hands, trump, leader, rng, declarer, discards)
        data.update(
            outcome="played",
            melds=meld_points,
            tricks=list(played.points),
            tricks_taken=list(played.taken),
        )
        tricks = played.tricks
    record = parse_record(ruleset, data)
    return SimulatedHand(dealt, trump, tuple(discards), record, score_hand(ruleset, record), tricks)

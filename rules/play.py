"""Trick legality, for revoke (Verwerfen) rulings and for playing hands out.

Given the trump suit, the cards already in the trick (lead first), the player's hand and the
card played, :func:`check_play` says whether the play was legal, which obligation it broke,
which cards were legal, and which card of the trick is winning.  The obligations and their
order come from the ruleset's :class:`rules.ruleset.PlayRules`:

1. ``must-follow-suit`` (Farbzwang): holding the led suit, play it.
2. ``must-head-trick`` (Stichzwang): following suit, beat the highest card of the led suit if
   able — in ``dabb-app`` even after the trick was trumped (seed 003, "Stiche" 2), in
   ``club-tournament`` and ``swabian-traditional`` only while no trump lies in the trick.
3. ``must-trump`` (Trumpfzwang): void in the led suit, play a trump if able.
4. ``must-overtrump``: trumping, beat the highest trump in the trick if able.

``partnership-250`` has one duty in place of 2 and 4, ``must-win-trick`` (seed 000,
"Stichphase"): win the trick whenever the other rules allow, which is no duty at all once the
trick cannot be won.  Of two equal cards the first played wins (seed 001, "Stichkraft").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import RANK_STRENGTH
from .errors import FieldError, InvalidInput
from .melds import parse_hand, parse_trump
from .ruleset import Ruleset


@dataclass(frozen=True)
class PlayVerdict:
    """Result of :func:`check_play`.

    ``legal``; ``rule``: the obligation broken (``"must-follow-suit"``, ``"must-head-trick"``,
    ``"must-trump"``, ``"must-overtrump"``, ``"must-win-trick"``) or ``None``; ``legal_cards``:
    the distinct legal cards in hand order; ``winner``: position in the trick (0 = the lead)
    of the card winning it once the played card is added.
    """

    legal: bool
    rule: str | None
    legal_cards: tuple[str, ...]
    winner: int

    def to_dict(self) -> dict[str, object]:
        """``{"legal", "rule", "legal_cards", "winner"}`` as the command line prints it."""
        return {
            "legal": self.legal,
            "rule": self.rule,
            "legal_cards": list(self.legal_cards),
            "winner": self.winner,
        }


def beats(card: str, other: str, led: str, trump: str | None) -> bool:
    """Whether ``card`` played after ``other`` takes the trick from it.

    A trump beats every non-trump; within a suit the stronger rank wins and of two equal
    cards the earlier stays winning; a card of neither the led suit nor trump never wins.
    """
    if card[1] == other[1]:
        return RANK_STRENGTH[card[0]] > RANK_STRENGTH[other[0]]
    return trump is not None and card[1] == trump


def trick_winner(trick: Sequence[str], trump: str | None) -> int:
    """Position (0 = lead) of the card winning ``trick`` (canonical codes, at least one)."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    led = trick[0][1]
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], led, trump):
            best = i
    return best


def _higher(cards: Sequence[str], than: str) -> list[str]:
    return [c for c in cards if c[1] == than[1] and RANK_STRENGTH[c[0]] > RANK_STRENGTH[than[0]]]


def _strongest(trick: Sequence[str], suit: str) -> str | None:
    best = None
    for c in trick:
        if c[1] == suit and (best is None or RANK_STRENGTH[c[0]] > RANK_STRENGTH[best[0]]):
            best = c
    return best


def legal_cards(
    ruleset: Ruleset, trump: str | None, trick: Sequence[str], hand: Sequence[str]
) -> tuple[list[str], dict[str, str]]:
    """The cards of ``hand`` that may be played to ``trick``.

    Returns the legal cards (distinct, hand order) and, for each illegal distinct card, the
    first obligation it breaks.  ``trump`` may be ``None`` (Durch and Bettel are played
    without trump).  Never returns an empty list for a non-empty hand.
    """
    distinct = list(dict.fromkeys(hand))
    if not trick:
        return distinct, {}
    rules = ruleset.play
    win_rule = rules.heading == "win"
    head_name = "must-win-trick" if win_rule else "must-head-trick"
    over_name = "must-win-trick" if win_rule else "must-overtrump"
    led = trick[0][1]
    trumped = trump is not None and led != trump and any(c[1] == trump for c in trick)
    broken: dict[str, str] = {}

    def restrict(candidates: list[str], allowed: list[str], rule: str) -> list[str]:
        if not allowed:
            return candidates
        for c in candidates:
            if c not in allowed:
                broken.setdefault(c, rule)
        return allowed

    candidates = distinct
    following = [c for c in distinct if c[1] == led]
    if following:
        if not rules.must_follow_suit:
            return candidates, broken
        candidates = restrict(candidates, following, "must-follow-suit")
        if rules.heading == "led-suit" or (rules.heading in ("winnable", "win") and not trumped):
            top = _strongest(trick, led)
            assert top is not None
            candidates = restrict(candidates, _higher(candidates, top), head_name)
        return candidates, broken
    trumps = [c for c in distinct if trump is not None and c[1] == trump]
    if trumps and rules.must_trump:
        candidates = restrict(candidates, trumps, "must-trump")
        if rules.must_overtrump or win_rule:
            top = _strongest(trick, trump) if trump else None
            if top is not None:
                candidates = restrict(candidates, _higher(candidates, top), over_name)
    return candidates, broken


def check_play(
    ruleset: Ruleset, trump: str | None, trick: Sequence[str], hand: Sequence[str], card: str
) -> PlayVerdict:
    """Judge one play.  All cards are canonical codes; ``card`` must be in ``hand``.

    Raises ``ValueError`` if ``card`` is not in ``hand`` (use :func:`play_request` for raw
    input, which reports that as a field error).
    """
    if card not in hand:
        raise ValueError(f"{card} is not in the hand")
    allowed, broken = legal_cards(ruleset, trump, trick, hand)
    legal = card in allowed
    return PlayVerdict(
        legal=legal,
        rule=None if legal else broken.get(card),
        legal_cards=tuple(allowed),
        winner=trick_winner([*trick, card], trump),
    )


def play_request(
    ruleset: Ruleset, trump: object, trick: object, hand: object, card: object
) -> PlayVerdict:
    """Validate raw input (as read from JSON) and return :func:`check_play`.

    ``trump`` may be ``null`` for a game without trump.  Errors (all collected, raised as
    :class:`InvalidInput`): ``trump``; ``trick``/``trick[i]`` (codes, at most seats − 1
    cards); ``hand``/``hand[i]`` (codes, not empty, at most a hand's size); ``card`` (a code
    that is in the hand); a card that would exist three times in trick and hand together.
    """
    errors: list[FieldError] = []
    try:
        suit = parse_trump(trump, allow_none=True)
    except InvalidInput as exc:
        errors.extend(exc.errors)
        suit = None
    max_trick = max(ruleset.seat_counts) - 1
    max_hand = max(d.cards_per_player for d in ruleset.deals)
    trick_cards, trick_errors = parse_hand(ruleset, trick, field="trick", max_cards=max_trick)
    hand_cards, hand_errors = parse_hand(ruleset, hand, field="hand", max_cards=max_hand)
    errors.extend(trick_errors + hand_errors)
    if isinstance(hand, list) and not hand:
        errors.append(FieldError("hand", "the hand is empty", code="empty"))
    played: str | None = None
    card_list, card_errors = parse_hand(ruleset, [card], field="card")
    if card_errors:
        errors.extend(FieldError("card", e.message, code=e.code) for e in card_errors)
    else:
        played = card_list[0]
        if not hand_errors and played not in hand_cards:
            errors.append(FieldError("card", f"{played} is not in the hand", code="not_in_hand"))
    if not trick_errors and not hand_errors:
        for code, n in (Counter(trick_cards) + Counter(hand_cards)).items():
            if n > 2:
                errors.append(
                    FieldError(
                        "hand",
                        f"{code} is in trick and hand {n} times; the pack has two",
                        code="copies",
                    )
                )
    if errors:
        raise InvalidInput(errors)
    assert played is not None
    return check_play(ruleset, suit, trick_cards, hand_cards, played)

"""Meld counting: a hand and the trump suit → the best meld and its breakdown.

The class rule (seed 000, "Melden"; seed 001, "Kombinationen"): a card may serve in one meld
of each class.  So the Schippen-Ober can be in a Binokel (class ``binokel``) and in four Ober
(class ``kind``), but a family's King and Ober cannot also form a pair (both class ``suit``),
nor can one King and two Ober of a suit make two pairs.

The Rundgang (a pair in every suit, seed 001 "Rundgang") is not a meld of its own in the
presets: its 240 points fall out of the four pairs (3×20 + 40) plus four Kings (80) plus four
Ober (60), and it drops to 200 beside a family, exactly as seed 001 explains.

Method: within a class, meld instances that share no card are independent, so the hand is
split into small connected components (one per suit for suit melds, one per rank for
four/eight of a kind, one for Binokel) and each is solved by a memoised search over the card
counts.  The result is the maximum total; ties keep the first-found breakdown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from .cards import SUITS, parse_card, sort_cards
from .errors import FieldError, InvalidInput
from .ruleset import MeldSpec, Ruleset


@dataclass(frozen=True)
class Meld:
    """One meld found in a hand: meld-table ``name`` (id), ``points`` (game points), the
    ``cards`` it uses (canonical codes) and its German ``label``."""

    name: str
    points: int
    cards: tuple[str, ...]
    label: str

    def to_dict(self) -> dict[str, object]:
        """``{"name", "points", "cards"}`` as the command line prints it."""
        return {"name": self.name, "points": self.points, "cards": list(self.cards)}


@dataclass(frozen=True)
class MeldResult:
    """The best meld of a hand: ``total`` game points and the ``melds`` that make it."""

    total: int
    melds: tuple[Meld, ...]

    def to_dict(self) -> dict[str, object]:
        """``{"total": int, "melds": [...]}`` as the command line prints it."""
        return {"total": self.total, "melds": [m.to_dict() for m in self.melds]}


@dataclass(frozen=True)
class _Instance:
    spec: MeldSpec
    cards: tuple[str, ...]  # multiset, sorted


class _Component:
    """Meld instances of one class that (transitively) share cards; solved by memo search."""

    def __init__(self, instances: list[_Instance]):
        self.instances = sorted(instances, key=lambda inst: -inst.spec.points)
        self.cards = tuple(sorted({c for inst in self.instances for c in inst.cards}))
        index = {c: i for i, c in enumerate(self.cards)}
        self.vectors: list[tuple[int, ...]] = []
        for inst in self.instances:
            vec = [0] * len(self.cards)
            for c in inst.cards:
                vec[index[c]] += 1
            self.vectors.append(tuple(vec))
        self.points = [inst.spec.points for inst in self.instances]
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def _best(self, i: int, counts: tuple[int, ...]) -> int:
        key = (i, counts)
        memo = self._memo
        if key in memo:
            return memo[key]
        if i == len(self.vectors):
            return 0
        best = self._best(i + 1, counts)
        vec = self.vectors[i]
        if all(c >= v for c, v in zip(counts, vec, strict=True)):
            rest = tuple(c - v for c, v in zip(counts, vec, strict=True))
            best = max(best, self.points[i] + self._best(i, rest))
        memo[key] = best
        return best

    def solve(self, hand: Counter[str]) -> tuple[int, list[_Instance]]:
        """Best points in this component for ``hand`` and the instances used."""
        counts = tuple(hand.get(c, 0) for c in self.cards)
        if not any(counts):
            return 0, []
        total = self._best(0, counts)
        chosen: list[_Instance] = []
        i, remaining, left = 0, counts, total
        while left > 0:
            vec = self.vectors[i]
            if all(c >= v for c, v in zip(remaining, vec, strict=True)):
                rest = tuple(c - v for c, v in zip(remaining, vec, strict=True))
                if self.points[i] + self._best(i, rest) == left:
                    chosen.append(self.instances[i])
                    remaining, left = rest, left - self.points[i]
                    continue
            i += 1
        return total, chosen


def _expand(spec: MeldSpec, trump: str | None) -> list[_Instance]:
    """Concrete card multisets of a meld-table entry for the given trump."""
    if spec.suit == "fixed":
        return [_Instance(spec, tuple(sorted(spec.cards)))]
    if spec.suit == "each":
        return [_Instance(spec, tuple(sorted(r + s for s in SUITS for r in spec.ranks)))]
    if spec.suit == "trump":
        suits = [trump] if trump else []
    elif spec.suit == "plain":
        suits = [s for s in SUITS if s != trump]
    else:  # any
        suits = list(SUITS)
    return [_Instance(spec, tuple(sorted(r + s for r in spec.ranks))) for s in suits]


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@lru_cache(maxsize=64)
def _compile(melds: tuple[MeldSpec, ...], trump: str | None) -> tuple[_Component, ...]:
    components: list[_Component] = []
    by_class: dict[str, list[_Instance]] = {}
    for spec in melds:
        by_class.setdefault(spec.klass, []).extend(_expand(spec, trump))
    for instances in by_class.values():
        # union-find over instances that share a card code
        parent = list(range(len(instances)))
        owner: dict[str, int] = {}
        for i, inst in enumerate(instances):
            for c in inst.cards:
                if c in owner:
                    parent[_find(parent, i)] = _find(parent, owner[c])
                else:
                    owner[c] = i
        groups: dict[int, list[_Instance]] = {}
        for i, inst in enumerate(instances):
            groups.setdefault(_find(parent, i), []).append(inst)
        components.extend(_Component(g) for g in groups.values())
    return tuple(components)


def parse_hand(
    ruleset: Ruleset, cards: object, field: str = "cards", max_cards: int | None = None
) -> tuple[list[str], list[FieldError]]:
    """Parse a list of card codes for ``ruleset``'s pack.

    Returns the canonical codes and the problems found: not a list, an unknown code, a card
    not in the pack (a ``9``/``7`` in a 40-card pack), a third copy of a card, or more than
    ``max_cards`` cards.  Error fields are ``cards`` or ``cards[i]``.
    """
    errors: list[FieldError] = []
    if not isinstance(cards, list):
        return [], [FieldError(field, "must be a list of card codes", code="type")]
    parsed: list[str] = []
    for i, code in enumerate(cards):
        try:
            card = parse_card(code)
        except ValueError as exc:
            errors.append(FieldError(f"{field}[{i}]", str(exc), code="card"))
            continue
        if card[0] not in ruleset.ranks:
            errors.append(
                FieldError(
                    f"{field}[{i}]",
                    f"{code} is not in the {ruleset.deck_size}-card pack of {ruleset.id}",
                    code="not_in_pack",
                )
            )
            continue
        parsed.append(card)
    for card, n in Counter(parsed).items():
        if n > 2:
            errors.append(
                FieldError(field, f"{card} appears {n} times; the pack has two", code="copies")
            )
    if max_cards is not None and len(cards) > max_cards:
        errors.append(
            FieldError(
                field,
                f"{len(cards)} cards given; at most {max_cards} allowed",
                code="too_many",
                params={"length": len(cards), "limit": max_cards},
            )
        )
    return parsed, errors


def parse_trump(value: object, field: str = "trump", allow_none: bool = False) -> str | None:
    """Canonical trump suit letter; raises :class:`InvalidInput` naming ``field``."""
    if value is None and allow_none:
        return None
    if isinstance(value, str) and value.strip().upper() in SUITS:
        return value.strip().upper()
    raise InvalidInput([FieldError(field, "trump must be one of C, S, H, D", code="trump")])


def best_meld(ruleset: Ruleset, cards: Iterable[str], trump: str) -> MeldResult:
    """The highest-scoring set of melds in ``cards`` with ``trump`` under ``ruleset``.

    ``cards``: canonical card codes (see :func:`parse_hand` for raw input); ``trump``: a
    suit letter.  Returns a :class:`MeldResult` (total in game points, breakdown sorted by
    points).  Pure and deterministic; raises nothing for valid codes.
    """
    hand = Counter(cards)
    melds: list[Meld] = []
    total = 0
    for component in _compile(ruleset.melds, trump):
        points, chosen = component.solve(hand)
        total += points
        for inst in chosen:
            melds.append(
                Meld(
                    inst.spec.id,
                    inst.spec.points,
                    tuple(sort_cards(inst.cards, trump)),
                    inst.spec.label_de,
                )
            )
    melds.sort(key=lambda m: (-m.points, m.name, m.cards))
    return MeldResult(total, tuple(melds))


def meld_request(ruleset: Ruleset, trump: object, cards: object) -> MeldResult:
    """Validate raw input (as read from JSON) and return :func:`best_meld`.

    Raises :class:`InvalidInput` with every problem (fields ``trump``, ``cards``,
    ``cards[i]``).  A hand may hold at most the largest hand of the ruleset's deals.
    """
    errors: list[FieldError] = []
    try:
        suit = parse_trump(trump)
    except InvalidInput as exc:
        errors.extend(exc.errors)
        suit = None
    max_cards = max(d.cards_per_player for d in ruleset.deals)
    parsed, card_errors = parse_hand(ruleset, cards, max_cards=max_cards)
    errors.extend(card_errors)
    if errors:
        raise InvalidInput(errors)
    assert suit is not None
    return best_meld(ruleset, parsed, suit)

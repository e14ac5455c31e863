"""Validation of a ruleset: size limits (:func:`check_limits`) and playability
(:func:`_check_consistency`).

Both run when a :class:`~rules.ruleset.Ruleset` is made (its ``__post_init__``), so no
ruleset exists that fails them: one built in Python raises
:class:`~rules.errors.RulesetError`, one read from JSON (:meth:`Ruleset.from_dict`) reports
the problems with their field paths.  Point values are game points; counts are cards, or
entries for the list limits.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from .cards import RANKS, parse_card
from .errors import FieldError

if TYPE_CHECKING:
    from .ruleset import Ruleset


TEXT_LIMIT = 200
"""Most characters in any text of a ruleset (names, labels, meld ids and classes)."""
TEXT_LIMITS = {"id": 60, "source": 1000}
"""Exceptions to :data:`TEXT_LIMIT` by field path: ``id`` is stored in a 60-character
column; ``source`` cites seed texts and sections."""
LIST_LIMIT = 12
"""Most entries in any list of a ruleset (e.g. a fixed meld's cards)."""
LIST_LIMITS = {"melds": (1, 40), "deals": (0, 3), "house_rules": (0, 60)}
"""(fewest, most) entries by field path: every Binokel variant melds (seeds 000-003, "Melden"),
and the presets list 14 to 18 melds; one deal per table size 2, 3 and 4 (an empty ``deals``
is reported by the consistency check); ``house_rules`` names one parameter path per value
the tournament chose (the presets list up to 16)."""


def check_limits(value: Any, path: str = "") -> list[FieldError]:
    """Sizes of the texts and lists in ``value`` (a :class:`Ruleset` or one of its parts):
    far above every preset, low enough that no page, PDF or database row is swamped by an
    override such as a 100,000-character ``name_de``.  Returns one :class:`FieldError` per
    text or list out of bounds (codes ``too_long``, ``too_few``, ``too_many``; ``params``
    give ``limit`` and ``length``); the parts of an oversized list are not looked at."""
    errors: list[FieldError] = []
    for f in dataclasses.fields(value):
        item = getattr(value, f.name)
        here = f"{path}{f.name}"
        if isinstance(item, str):
            limit = TEXT_LIMITS.get(here, TEXT_LIMIT)
            if len(item) > limit:
                errors.append(
                    FieldError(
                        here,
                        f"at most {limit} characters ({len(item)} given)",
                        code="too_long",
                        params={"limit": limit, "length": len(item)},
                    )
                )
        elif isinstance(item, tuple):
            fewest, most = LIST_LIMITS.get(here, (0, LIST_LIMIT))
            if len(item) < fewest:
                errors.append(
                    FieldError(
                        here,
                        f"at least {fewest} entries needed",
                        code="too_few",
                        params={"limit": fewest, "length": len(item)},
                    )
                )
            elif len(item) > most:
                errors.append(
                    FieldError(
                        here,
                        f"at most {most} entries ({len(item)} given)",
                        code="too_many",
                        params={"limit": most, "length": len(item)},
                    )
                )
            else:
                for i, part in enumerate(item):
                    if dataclasses.is_dataclass(part):
                        errors.extend(check_limits(part, f"{here}[{i}]."))
                    elif isinstance(part, str) and len(part) > TEXT_LIMIT:
                        errors.append(
                            FieldError(
                                f"{here}[{i}]",
                                f"at most {TEXT_LIMIT} characters",
                                code="too_long",
                                params={"limit": TEXT_LIMIT, "length": len(part)},
                            )
                        )
        elif dataclasses.is_dataclass(item):
            errors.extend(check_limits(item, f"{here}."))
    return errors


def _check_consistency(rs: Ruleset) -> list[FieldError]:
    """Cross-field checks that make a ruleset playable; returns every problem found."""
    errors: list[FieldError] = []

    def err(field_name: str, message: str, code: str, **params: object) -> None:
        errors.append(FieldError(field_name, message, code=code, params=params))

    if not rs.id or not isinstance(rs.id, str):
        err("id", "must be a non-empty string", "id")
    if rs.deck_size not in (40, 48):
        err("deck_size", "a Binokel pack has 40 or 48 cards", "deck_size")
        return errors
    if not rs.deals:
        err("deals", "at least one table size is needed", "no_deals")
    seen: set[int] = set()
    for i, deal in enumerate(rs.deals):
        if deal.seats not in (2, 3, 4):
            err(f"deals[{i}].seats", "tables have 2, 3 or 4 players", "table_size")
        if deal.seats in seen:
            err(f"deals[{i}].seats", f"{deal.seats} seats listed twice", "twice", value=deal.seats)
        seen.add(deal.seats)
        if deal.cards_per_player <= 0 or deal.dabb < 0:
            err(
                f"deals[{i}]",
                "cards per player must be positive and the Dabb not negative",
                "deal_counts",
            )
        elif deal.seats * deal.cards_per_player + deal.dabb != rs.deck_size:
            err(
                f"deals[{i}]",
                f"{deal.seats}×{deal.cards_per_player} cards + Dabb {deal.dabb} "
                f"do not make the {rs.deck_size}-card pack",
                "deal_sum",
                seats=deal.seats,
                cards=deal.cards_per_player,
                dabb=deal.dabb,
                deck=rs.deck_size,
            )
    if rs.min_bid <= 0 or rs.min_bid % 10:
        err("min_bid", "must be a positive multiple of 10", "tens")
    if rs.bid_step <= 0 or rs.bid_step % 10:
        err("bid_step", "must be a positive multiple of 10", "tens")
    if rs.max_raise is not None and rs.max_raise < rs.bid_step:
        err("max_raise", "must be at least the bid step", "max_raise")
    for name in ("ace", "ten", "king", "ober", "unter", "low"):
        if getattr(rs.card_points, name) < 0:
            err(f"card_points.{name}", "must not be negative", "negative")
    if rs.last_trick_bonus < 0:
        err("last_trick_bonus", "must not be negative", "negative")
    ids: set[str] = set()
    for i, spec in enumerate(rs.melds):
        where = f"melds[{i}]"
        if spec.id in ids:
            err(f"{where}.id", f"meld id {spec.id!r} used twice", "twice", value=spec.id)
        ids.add(spec.id)
        if spec.points <= 0:
            err(f"{where}.points", "must be positive", "positive")
        if spec.suit == "fixed":
            if not spec.cards or spec.ranks:
                err(where, "a fixed meld lists its cards and no ranks", "meld_shape")
            for card in spec.cards:
                try:
                    if parse_card(card) != card:
                        err(
                            f"{where}.cards",
                            f"{card!r} is not a canonical card code",
                            "card",
                            value=card,
                        )
                    elif card[0] not in rs.ranks:
                        err(
                            f"{where}.cards",
                            f"{card} is not in a {rs.deck_size}-card pack",
                            "not_in_pack",
                            value=card,
                            deck=rs.deck_size,
                        )
                except ValueError as exc:
                    err(f"{where}.cards", str(exc), "card", value=card)
        else:
            if not spec.ranks or spec.cards:
                err(where, "a suit or kind meld lists ranks and no cards", "meld_shape")
            for rank in spec.ranks:
                if rank not in RANKS:
                    err(f"{where}.ranks", f"unknown rank {rank!r}", "card", value=rank)
                elif rank not in rs.ranks:
                    err(
                        f"{where}.ranks",
                        f"rank {rank} is not in a {rs.deck_size}-card pack",
                        "not_in_pack",
                        value=rank,
                        deck=rs.deck_size,
                    )
            if any(spec.ranks.count(r) > 2 for r in set(spec.ranks)):
                err(
                    f"{where}.ranks",
                    "the pack has only two cards of each rank and suit",
                    "two_copies",
                )
    if rs.partner_exchange < 0:
        err("partner_exchange", "must not be negative", "negative")
    elif rs.partner_exchange and not rs.partnerships:
        err("partner_exchange", "a card exchange needs partnerships", "partnerships")
    if 4 not in seen and rs.partnerships:
        err("partnerships", "partnerships need a 4-seat table", "partnerships")
    for name in ("durch", "durch_aufgelegt", "durch_ohne_dabb", "bettel"):
        special = getattr(rs, name)
        if special is not None and (special.won < 0 or special.lost < 0):
            err(name, "won and lost are points, not negative", "negative")
    return errors

"""The ruleset as data: every parameter on which Binokel clubs differ.

A :class:`Ruleset` is immutable, serialises to a plain JSON object and back
(:meth:`Ruleset.to_dict`, :meth:`Ruleset.from_dict`, :meth:`Ruleset.to_json`) and carries a
:attr:`Ruleset.fingerprint` computed from its content, so a tournament can store a frozen copy
and prove later which rules scored it.  The parameters cover every variant listed in
``shared/FIELD-NOTES.md`` ("Rules differ from club to club"); the four presets are in
:mod:`rules.presets`.

All point values are game points (the units written on the score sheet).  All card counts are
cards.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import RANKS, SUITS, deck_ranks, parse_card
from .errors import FieldError, RulesetError

SCHEMA_VERSION = 1
"""Version of the ruleset's JSON shape; stored with every serialised ruleset."""

BonusKind = Literal["none", "fixed", "per-player", "half-bid"]
MeldSuit = Literal["trump", "plain", "any", "each", "fixed"]
Heading = Literal["none", "led-suit", "winnable", "win"]
Direction = Literal["clockwise", "counter-clockwise"]
Side = Literal["left", "right"]
DiscardMelds = Literal["free", "forbidden", "misdiscard"]
DurchTrump = Literal["none", "first-lead"]
Wording = Literal["swabian", "club", "app", "pinochle"]


@dataclass(frozen=True)
class Deal:
    """How many cards each player and the Dabb get at a table of ``seats`` players.

    ``seats * cards_per_player + dabb`` must equal the pack size (seed 001, "Geben";
    seed 003, "Geben").  ``dabb`` is 0 where the game has no Dabb (seed 000).
    """

    seats: int
    cards_per_player: int
    dabb: int


@dataclass(frozen=True)
class CardPoints:
    """Trick points of one card of each rank (seed 001, "Werte").

    Schemes seen: 11/10/4/3/2/0 (traditional), 10/10/10/0/0/0, 10/10/5/5/0/0, 15/15/0/0/0/0.
    With two copies per card a 40- or 48-card pack holds 240 card points in each of them.
    """

    ace: int
    ten: int
    king: int
    ober: int
    unter: int
    low: int = 0

    def value(self, rank: str) -> int:
        """Points of one card of ``rank`` (``A T K Q J 9``)."""
        return {
            "A": self.ace,
            "T": self.ten,
            "K": self.king,
            "Q": self.ober,
            "J": self.unter,
            "9": self.low,
        }[rank]


@dataclass(frozen=True)
class MeldSpec:
    """One entry of the meld table.

    ``suit`` says where the cards come from, relative to trump:

    - ``"trump"``: ``ranks`` in the trump suit (e.g. trump pair ``"KQ"``, Diß ``"9"``);
    - ``"plain"``: ``ranks`` in one non-trump suit (the meld can be made once per suit);
    - ``"any"``: ``ranks`` in any one suit, trump or not;
    - ``"each"``: ``ranks`` in every suit (four aces ``"A"``, eight aces ``"AA"``);
    - ``"fixed"``: exactly the cards in ``cards`` (Binokel ``QS JD``).

    ``klass`` names the meld class: a card may serve in one meld per class (seed 000,
    "Melden"; seed 001, "Kombinationen").  ``points`` are game points.
    """

    id: str
    label_de: str
    label_en: str
    klass: str
    points: int
    suit: MeldSuit
    ranks: str = ""
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bonus:
    """Points added to each scoring side's own melds (and tricks, where they count).

    ``kind``: ``"none"``; ``"fixed"`` (``amount`` points); ``"per-player"`` (``amount``
    points for every player at the table, seed 001 "Abgehen": 10 per player);
    ``"half-bid"`` (half the bid, rounded up to tens; ``amount`` unused).
    """

    kind: BonusKind = "none"
    amount: int = 0

    def points(self, bid: int, seats: int) -> int:
        """The bonus in game points for a hand with ``bid`` at a table of ``seats``."""
        if self.kind == "fixed":
            return self.amount
        if self.kind == "per-player":
            return self.amount * seats
        if self.kind == "half-bid":
            return -(-bid // 20) * 10  # half the bid, rounded up to a multiple of ten
        return 0


@dataclass(frozen=True)
class Penalty:
    """A declarer's (or offender's) loss: ``bid_factor * bid + extra`` game points, deducted.

    Seen: ``2×bid`` (factor 2), ``bid`` (factor 1), ``bid + 100`` (factor 1, extra 100).
    """

    bid_factor: int = 2
    extra: int = 0

    def points(self, bid: int) -> int:
        """The loss in game points (a positive number, to be deducted)."""
        return self.bid_factor * bid + self.extra


@dataclass(frozen=True)
class LostGame:
    """Scoring of a lost hand (declarer misses the bid) or of a misdiscard.

    The declaring side loses ``declarer`` points and, unless ``declarer_keeps_melds``, its
    melds are struck.  Every other side scores its melds and trick points plus
    ``opponents_bonus``.
    """

    declarer: Penalty = Penalty()
    declarer_keeps_melds: bool = False
    opponents_bonus: Bonus = Bonus()


@dataclass(frozen=True)
class Abgehen:
    """Conceding before play (Abgehen, Abschreiben).

    The declaring side loses ``declarer`` points and scores no melds; each other side scores
    its own melds plus ``opponents_bonus``.  With ``only_when_unreachable`` a concession is
    allowed only when the bid exceeds the declaring side's melds plus all trick points
    (seed 000, "Sich freiwillig überreizen").  ``declarer_when_unreachable``, if set,
    replaces ``declarer`` in that case (a variant in FIELD-NOTES: −2×bid when the bid was
    unreachable).  With ``names_trump`` the declarer names the trump he concedes in, so the
    others meld with it (seed 001 "Abgehen", seed 003 "Abgehen").
    """

    declarer: Penalty = Penalty(bid_factor=1)
    opponents_bonus: Bonus = Bonus()
    only_when_unreachable: bool = False
    declarer_when_unreachable: Penalty | None = None
    names_trump: bool = False


@dataclass(frozen=True)
class Revoke:
    """Verwerfen: a breach of a trick-play obligation.

    The offender's side loses ``offender`` points and its melds are struck (seed 002,
    "Verwerfen").  The remaining cards go to the other side, so the trick points are entered
    as they stand after that; the other sides score melds + tricks.  When the offender is the
    declarer, the other sides also get the lost-game bonus.
    """

    offender: Penalty = Penalty()


@dataclass(frozen=True)
class SpecialGame:
    """A special game's value: ``won`` points credited, ``lost`` points deducted (both ≥ 0)."""

    won: int
    lost: int


@dataclass(frozen=True)
class PlayRules:
    """Trick-play obligations (Farbzwang, Stichzwang, Trumpfzwang).

    - ``must_follow_suit``: a player who holds the led suit must play it.
    - ``heading`` (Stichzwang): ``"none"``; ``"led-suit"``: when following suit, beat the
      highest card of the led suit if able, even after the trick was trumped (seed 003);
      ``"winnable"``: the same, but only while the trick has not been trumped (seeds 001,
      002); ``"win"``: win the trick whenever the other obligations allow, overtrumping
      included (seed 000: "Du musst den Stich gewinnen").
    - ``must_trump``: a player void in the led suit must play trump if able.
    - ``must_overtrump``: when trumping, beat the highest trump in the trick if able.
    - ``first_lead``: who leads the first trick of a normal game: ``"forehand"`` (the first
      bidder, :attr:`Ruleset.first_bidder`; seeds 001–003) or ``"declarer"`` (seed 000).
    """

    must_follow_suit: bool = True
    heading: Heading = "winnable"
    must_trump: bool = True
    must_overtrump: bool = True
    first_lead: Literal["forehand", "declarer"] = "forehand"


@dataclass(frozen=True)
class Ruleset:
    """A complete, immutable set of Binokel rules.

    Identity: ``id`` (preset id or a club's own), ``name_de``/``name_en``, ``source`` (the
    seed text and sections it follows), ``version`` (bumped when a preset's content changes).

    Table and pack: ``deck_size`` (40 or 48 cards), ``deals`` (one :class:`Deal` per allowed
    table size), ``partnerships`` (at 4 seats, seats 0+2 play against 1+3 and pool melds and
    tricks; each partner is credited the team's score).

    Bidding: ``min_bid``, ``bid_step`` (a bid is ``min_bid + k * bid_step``), ``max_raise``
    (largest single raise, ``None`` for no limit), ``all_pass`` (``"first-bidder-must-bid"``,
    ``"dealer-takes-minimum"`` or ``"redeal"``).

    Counting: ``card_points``, ``last_trick_bonus``; ``rounding`` of each side's trick points
    for the score (``"none"`` or ``"tens"``), ``rounding_fives`` (``"up"``: every 5 rounds
    up, so two sides ending in 5 both go up; ``"balanced"``: when two sides end in 5 only
    the declaring side, or else the one with more points, rounds up, the other down), and
    ``bid_checked_exact`` (the bid is checked on exact points before rounding).

    Melds: ``melds`` (the meld table), ``meld_requires_trick`` (a side's melds count only
    if it took a trick), ``scoreless_without_trick_points`` (a side with no trick points
    scores nothing at all, seed 000).

    Results: ``lost`` (:class:`LostGame`), ``abgehen`` (:class:`Abgehen`, ``None`` if not
    allowed), ``revoke`` (:class:`Revoke`, ``None`` if revokes are only replayed),
    ``misdiscard`` (:class:`LostGame`, ``None`` if not penalised), the special games
    ``durch``, ``durch_aufgelegt``, ``durch_ohne_dabb``, ``bettel`` (:class:`SpecialGame`,
    ``None`` if not played), ``specials_kept_apart`` (the source writes special games in
    a tally of their own; stored and fingerprinted, but nothing reads it for scoring or
    standings: special games count in the hand's score like any other, and the handout
    says so), ``target_score`` (the points that end a match in the source; stored and
    fingerprinted, but a tournament plays a fixed number of games and nothing reads it).

    Play: ``play`` (:class:`PlayRules`).

    Added after the first stored rulesets (each has a default that keeps an older stored
    copy loading with its fingerprint, see :data:`ADDED_LATER`): ``direction`` of dealing,
    bidding and play (``"clockwise"``/``"counter-clockwise"``); ``first_bidder``, the
    player on the dealer's ``"left"`` or ``"right"`` who bids first (and leads, with
    ``play.first_lead == "forehand"``); ``special_lead``, who leads in a Durch or Bettel
    (``"declarer"`` or ``"forehand"``); ``discard_melds``: may the declarer discard cards
    he melds (``"free"``; ``"forbidden"``; ``"misdiscard"``: doing so is a misdiscard),
    the trump seven (Diß) always excepted (seed 001 "Drücken", seed 002 "Der Reizwert");
    ``partner_exchange``: cards each partner passes to the other after the bidding (seed
    000 "Das Bieten gewinnen"; 0 = none); ``durch_trump``, whether a Durch (also laid open
    or without the Dabb) has a trump: ``"none"``, no trump is named and none is written on
    the score sheet (seed 002 "Der Durch": "beim Durch keinen Trumpf"; seed 001 "Der
    Durch"), or ``"first-lead"``, the suit of the first card led is trump (the regional
    custom seed 001 "Der Durch" names), so a trump may be written down.  A Bettel never has
    a trump (seed 001 "Der Untendurch/Bettel").

    Description only, not part of the fingerprint: ``wording`` (the club's words on the
    handout: ``"swabian"``, ``"club"``, ``"app"``, ``"pinochle"``) and ``house_rules``,
    the parameter paths (``"min_bid"``, ``"durch.lost"``) whose value the project or the
    tournament chose where the source text is silent or offers several; the handout marks
    those statements "Turnierregel".
    """

    id: str
    name_de: str
    name_en: str
    source: str
    version: int
    deck_size: int
    deals: tuple[Deal, ...]
    partnerships: bool
    min_bid: int
    bid_step: int
    max_raise: int | None
    all_pass: Literal["first-bidder-must-bid", "dealer-takes-minimum", "redeal"]
    card_points: CardPoints
    last_trick_bonus: int
    rounding: Literal["none", "tens"]
    rounding_fives: Literal["up", "balanced"]
    bid_checked_exact: bool
    melds: tuple[MeldSpec, ...]
    meld_requires_trick: bool
    scoreless_without_trick_points: bool
    lost: LostGame
    abgehen: Abgehen | None
    revoke: Revoke | None
    misdiscard: LostGame | None
    durch: SpecialGame | None
    durch_aufgelegt: SpecialGame | None
    durch_ohne_dabb: SpecialGame | None
    bettel: SpecialGame | None
    specials_kept_apart: bool
    target_score: int | None
    play: PlayRules = field(default_factory=PlayRules)
    direction: Direction = "clockwise"
    first_bidder: Side = "left"
    special_lead: Literal["declarer", "forehand"] = "declarer"
    discard_melds: DiscardMelds = "free"
    partner_exchange: int = 0
    durch_trump: DurchTrump = "none"
    wording: Wording = "swabian"
    house_rules: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        errors = check_limits(self) or _check_consistency(self)
        if errors:
            raise RulesetError(errors)

    # ----------------------------------------------------------------- derived values
    @property
    def first_bidder_offset(self) -> int:
        """Seat step from the dealer to the first bidder, with seats numbered in the
        direction of play: ``+1`` when the first bidder is the next player in that
        direction (left of the dealer clockwise, right of him counter-clockwise), else
        ``-1``."""
        follows = (self.direction == "clockwise") == (self.first_bidder == "left")
        return 1 if follows else -1

    def is_house_rule(self, *paths: str) -> bool:
        """True if any of the parameter ``paths`` (or a parent of one, e.g. ``"durch"`` for
        ``"durch.lost"``) is listed in :attr:`house_rules`."""
        for path in paths:
            parts = path.split(".")
            for i in range(1, len(parts) + 1):
                if ".".join(parts[:i]) in self.house_rules:
                    return True
        return False

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """Allowed table sizes, ascending."""
        return tuple(sorted(d.seats for d in self.deals))

    def deal_for(self, seats: int) -> Deal:
        """The :class:`Deal` for ``seats`` players; ``KeyError`` if that size is not allowed."""
        for deal in self.deals:
            if deal.seats == seats:
                return deal
        raise KeyError(seats)

    @property
    def ranks(self) -> tuple[str, ...]:
        """Ranks in this ruleset's pack."""
        return deck_ranks(self.deck_size)

    @property
    def card_points_total(self) -> int:
        """Card points in the whole pack (240 in every scheme seen)."""
        return sum(self.card_points.value(r) for r in self.ranks) * 2 * len(SUITS)

    @property
    def trick_points_total(self) -> int:
        """Trick points of one hand: card points plus the last-trick bonus (250)."""
        return self.card_points_total + self.last_trick_bonus

    def sides(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """Seats grouped into scoring sides: teams (0, 2) and (1, 3) at 4 seats with
        partnerships, otherwise every seat on its own."""
        if seats == 4 and self.partnerships:
            return ((0, 2), (1, 3))
        return tuple((s,) for s in range(seats))

    def special(self, outcome: str) -> SpecialGame | None:
        """The :class:`SpecialGame` for ``outcome`` (``"durch"``, ``"durch-aufgelegt"``,
        ``"durch-ohne-dabb"``, ``"bettel"``), ``None`` if not played."""
        return {
            "durch": self.durch,
            "durch-aufgelegt": self.durch_aufgelegt,
            "durch-ohne-dabb": self.durch_ohne_dabb,
            "bettel": self.bettel,
        }.get(outcome)

    @property
    def outcomes(self) -> tuple[str, ...]:
        """Outcomes a hand may have under this ruleset, in entry-form order."""
        result = ["played"]
        if self.abgehen is not None:
            result.append("abgehen")
        for name in ("durch", "durch-aufgelegt", "durch-ohne-dabb", "bettel"):
            if self.special(name) is not None:
                result.append(name)
        return tuple(result)

    def plays_without_trump(self, outcome: str) -> bool:
        """True if a hand with ``outcome`` is played without a trump, so no trump may be
        written for it: a Bettel always (seed 001 "Der Untendurch/Bettel": "weder eine
        Trumpf-Farbe gewählt"), a Durch, laid open or without the Dabb, while
        :attr:`durch_trump` is ``"none"`` (seed 002 "Der Durch": "beim Durch keinen
        Trumpf"; seed 001 "Der Durch").  False for ``"played"``, ``"abgehen"`` and any other
        word."""
        if outcome == "bettel":
            return True
        if outcome in ("durch", "durch-aufgelegt", "durch-ohne-dabb"):
            return self.durch_trump == "none"
        return False

    @property
    def outcomes_without_trump(self) -> tuple[str, ...]:
        """Those of :attr:`outcomes` that are played without a trump
        (:meth:`plays_without_trump`), in entry-form order."""
        return tuple(o for o in self.outcomes if self.plays_without_trump(o))

    # ----------------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every parameter, plus ``schema`` and ``fingerprint``."""
        data = _to_plain(self)
        data["schema"] = SCHEMA_VERSION
        data["fingerprint"] = self.fingerprint
        return data

    def to_json(self) -> str:
        """Canonical JSON text (sorted keys), suitable for storing a frozen copy."""
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: object) -> Ruleset:
        """Build a ruleset from a dict made by :meth:`to_dict` (or written by hand).

        Every parameter must be present; ``schema`` and ``fingerprint`` are optional, but a
        ``fingerprint`` that does not match the content is an error (the copy was altered).
        Raises :class:`RulesetError` listing every problem, each with its field path
        (e.g. ``"lost.declarer.bid_factor"``).
        """
        if not isinstance(data, dict):
            raise RulesetError([FieldError("ruleset", "must be an object", code="type")])
        body = dict(data)
        schema = body.pop("schema", SCHEMA_VERSION)
        claimed = body.pop("fingerprint", None)
        if schema != SCHEMA_VERSION:
            raise RulesetError(
                [FieldError("schema", f"unsupported ruleset schema {schema!r}", code="schema")]
            )
        errors: list[FieldError] = []
        value = _from_plain(cls, body, "", errors)
        if errors:
            raise RulesetError(errors)
        assert isinstance(value, Ruleset)
        if claimed is not None and claimed != value.fingerprint:
            raise RulesetError(
                [
                    FieldError(
                        "fingerprint",
                        f"fingerprint {claimed!r} does not match the content "
                        f"({value.fingerprint}); the ruleset was altered",
                        code="fingerprint",
                    )
                ]
            )
        return value

    @classmethod
    def from_json(cls, text: str) -> Ruleset:
        """Parse :meth:`to_json` output; raises :class:`RulesetError` on bad content."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesetError([FieldError("ruleset", f"not JSON: {exc}", code="json")]) from exc
        return cls.from_dict(data)

    def with_overrides(self, overrides: dict[str, Any], **identity: Any) -> Ruleset:
        """A copy with some parameters replaced, e.g. ``{"min_bid": 200}`` or
        ``{"lost": {"opponents_bonus": {"kind": "fixed", "amount": 30}}}``.

        Nested objects are merged key by key; lists (``deals``, ``melds``) are replaced whole.
        ``identity`` may set ``id``, ``name_de``, ``name_en``.  A stored copy may serve as
        overrides: its ``fingerprint`` is dropped, its ``schema`` must be the current one.
        Raises :class:`RulesetError`.
        """
        if not isinstance(overrides, dict):
            raise RulesetError([FieldError("overrides", "must be an object", code="type")])
        base = _to_plain(self)
        merged = _deep_merge(base, overrides)
        merged.update(identity)
        # a stored copy given as overrides carries its own fingerprint, stale once a value
        # changes; its schema is kept and checked (another schema is refused, not ignored)
        merged.pop("fingerprint", None)
        return Ruleset.from_dict(merged)

    @property
    def fingerprint(self) -> str:
        """First 16 hex digits of the SHA-256 of the canonical JSON of the parameters.

        Identity fields (``name_de``, ``name_en``, ``source``) and the description
        (``wording``, ``house_rules``) are left out, so renaming a ruleset does not change
        the fingerprint; changing any scoring parameter does.  A parameter added after the
        first stored rulesets (:data:`ADDED_LATER`) counts only when it differs from its
        default, so a copy stored before it existed keeps its fingerprint.
        """
        cached = self.__dict__.get("_fingerprint")
        if cached is None:
            plain = _to_plain(self, skip_defaults=ADDED_LATER)
            for key in ("name_de", "name_en", "source", "wording", "house_rules"):
                plain.pop(key, None)
            text = json.dumps(plain, sort_keys=True, separators=(",", ":"))
            cached = hashlib.sha256(text.encode()).hexdigest()[:16]
            object.__setattr__(self, "_fingerprint", cached)
        return cached

    def meld(self, meld_id: str) -> MeldSpec | None:
        """The meld table entry with ``meld_id``, or ``None``."""
        for spec in self.melds:
            if spec.id == meld_id:
                return spec
        return None


# --------------------------------------------------------------------------- helpers
ADDED_LATER: dict[str, frozenset[str]] = {
    "Ruleset": frozenset(
        {
            "direction",
            "first_bidder",
            "special_lead",
            "discard_melds",
            "partner_exchange",
            "durch_trump",
            "wording",
            "house_rules",
        }
    ),
    "Abgehen": frozenset({"names_trump"}),
}
"""Class name → parameters added after schema 1 rulesets were stored.  They are left out of
the fingerprint while they hold their default, so tournaments frozen before keep theirs."""


def _to_plain(value: Any, skip_defaults: dict[str, frozenset[str]] | None = None) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        later = (skip_defaults or {}).get(type(value).__name__, frozenset())
        result = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.name in later and item == _default_of(f):
                continue
            result[f.name] = _to_plain(item, skip_defaults)
        return result
    if isinstance(value, tuple):
        return [_to_plain(v, skip_defaults) for v in value]
    return value


def _default_of(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def _deep_merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    result = dict(base)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = _deep_merge(result[key], value)
        else:
            result[key] = value
    return result


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _from_plain(tp: Any, value: Any, path: str, errors: list[FieldError]) -> Any:
    """Convert plain JSON data to ``tp``, appending a FieldError per problem."""
    here = path or "ruleset"
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None:
            return None
        return _from_plain(args[0], value, path, errors)
    if origin is Literal:
        allowed = typing.get_args(tp)
        if value not in allowed:
            errors.append(
                FieldError(
                    here,
                    f"must be one of {', '.join(map(repr, allowed))}",
                    code="choice",
                    params={"allowed": ", ".join(map(str, allowed))},
                )
            )
        return value
    if origin is tuple:
        (item_tp, _ellipsis) = typing.get_args(tp)
        if not isinstance(value, list | tuple):
            errors.append(
                FieldError(here, "must be a list", code="type", params={"expected": "list"})
            )
            return ()
        return tuple(
            _from_plain(item_tp, item, f"{here}[{i}]", errors) for i, item in enumerate(value)
        )
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            errors.append(
                FieldError(here, "must be an object", code="type", params={"expected": "object"})
            )
            return None
        hints = _hints(tp)
        kwargs: dict[str, Any] = {}
        names = {f.name for f in dataclasses.fields(tp)}
        for key in value:
            if key not in names:
                errors.append(
                    FieldError(
                        f"{path}.{key}" if path else key, "unknown parameter", code="unknown"
                    )
                )
        for f in dataclasses.fields(tp):
            sub = f"{path}.{f.name}" if path else f.name
            if f.name in value:
                kwargs[f.name] = _from_plain(hints[f.name], value[f.name], sub, errors)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                errors.append(FieldError(sub, "is missing", code="missing"))
        if errors:
            return None
        try:
            return tp(**kwargs)
        except RulesetError as exc:
            errors.extend(exc.errors)
            return None
    if tp is bool:
        if not isinstance(value, bool):
            errors.append(
                FieldError(here, "must be true or false", code="type", params={"expected": "bool"})
            )
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(
                FieldError(here, "must be a whole number", code="type", params={"expected": "int"})
            )
        return value
    if tp is str:
        if not isinstance(value, str):
            errors.append(
                FieldError(here, "must be a string", code="type", params={"expected": "str"})
            )
        return value
    raise TypeError(f"unsupported type {tp!r} at {here}")  # pragma: no cover - programming error


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

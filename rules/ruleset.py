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

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import SUITS, deck_ranks
from .errors import FieldError, RulesetError
from .ruleset_checks import LIST_LIMIT as LIST_LIMIT
from .ruleset_checks import LIST_LIMITS as LIST_LIMITS
from .ruleset_checks import TEXT_LIMIT as TEXT_LIMIT
from .ruleset_checks import TEXT_LIMITS as TEXT_LIMITS
from .ruleset_checks import _check_consistency, check_limits
from .ruleset_json import _HINTS as _HINTS
from .ruleset_json import _deep_merge, _from_plain, _to_plain
from .ruleset_json import _default_of as _default_of
from .ruleset_json import _hints as _hints

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


# ---------------------------------------------------------------- parameters added later
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

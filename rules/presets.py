"""The four preset rulesets, one per seed text in ``shared/seeds/`` (see its README).

Each preset follows its seed text; where the seed is silent, the commonest club practice from
``shared/FIELD-NOTES.md`` is taken and the choice is stated in the preset's docstring below.
Later edits to a preset never change recorded results: a tournament stores a frozen copy
(:meth:`rules.ruleset.Ruleset.to_json`) and its fingerprint.
"""

from __future__ import annotations

from .errors import FieldError, InvalidInput
from .ruleset import (
    Abgehen,
    Bonus,
    CardPoints,
    Deal,
    LostGame,
    MeldSpec,
    Penalty,
    PlayRules,
    Revoke,
    Ruleset,
    SpecialGame,
)

DEFAULT_PRESET = "club-tournament"
"""The preset a new tournament starts from (seed 002, a club's tournament rules)."""

TRADITIONAL_POINTS = CardPoints(ace=11, ten=10, king=4, ober=3, unter=2, low=0)

# ----------------------------------------------------------------------- meld tables


def _suit_melds(double_family: int | None, dix: bool) -> tuple[MeldSpec, ...]:
    melds = [
        MeldSpec("pair", "Paar", "Pair", "suit", 20, "plain", "KQ"),
        MeldSpec("trump-pair", "Paar in Trumpf", "Trump pair", "suit", 40, "trump", "KQ"),
        MeldSpec("family", "Familie", "Family", "suit", 100, "plain", "ATKQJ"),
        MeldSpec(
            "trump-family", "Familie in Trumpf", "Trump family", "suit", 150, "trump", "ATKQJ"
        ),
    ]
    if double_family is not None:
        melds.append(
            MeldSpec(
                "double-family",
                "Doppelte Familie",
                "Double family",
                "suit",
                double_family,
                "any",
                "AATTKKQQJJ",
            )
        )
    if dix:
        melds.append(MeldSpec("dix", "Diß (Trumpf-Siebener)", "Dix", "suit", 10, "trump", "9"))
    return tuple(melds)


BINOKEL_MELDS = (
    MeldSpec("binokel", "Binokel", "Binokel", "binokel", 40, "fixed", cards=("QS", "JD")),
    MeldSpec(
        "double-binokel",
        "Doppelter Binokel",
        "Double binokel",
        "binokel",
        300,
        "fixed",
        cards=("QS", "QS", "JD", "JD"),
    ),
)

_KIND_NAMES = {
    "A": ("aces", "Asse", "aces"),
    "K": ("kings", "Könige", "kings"),
    "Q": ("obers", "Ober", "obers"),
    "J": ("unters", "Unter", "unters"),
}


def _kind_melds(four: dict[str, int], eight: dict[str, int]) -> tuple[MeldSpec, ...]:
    melds = []
    for rank, points in four.items():
        slug, de, en = _KIND_NAMES[rank]
        melds.append(
            MeldSpec(f"four-{slug}", f"Vier {de}", f"Four {en}", "kind", points, "each", rank)
        )
    for rank, points in eight.items():
        slug, de, en = _KIND_NAMES[rank]
        melds.append(
            MeldSpec(f"eight-{slug}", f"Acht {de}", f"Eight {en}", "kind", points, "each", rank * 2)
        )
    return tuple(melds)


FOUR_OF_A_KIND = {"A": 100, "K": 80, "Q": 60, "J": 40}

STANDARD_PLAY = PlayRules(
    must_follow_suit=True, heading="winnable", must_trump=True, must_overtrump=True
)

# ----------------------------------------------------------------------------- presets

CLUB_TOURNAMENT = Ruleset(
    id="club-tournament",
    name_de="Vereinsturnier",
    name_en="Club tournament",
    source="seed 002 (a club's published tournament rules)",
    version=2,
    deck_size=40,
    deals=(Deal(3, 12, 4), Deal(4, 9, 4)),
    partnerships=True,
    min_bid=150,
    bid_step=10,
    max_raise=None,
    all_pass="first-bidder-must-bid",
    card_points=TRADITIONAL_POINTS,
    last_trick_bonus=10,
    rounding="tens",
    rounding_fives="up",
    bid_checked_exact=True,
    melds=_suit_melds(double_family=1000, dix=False)
    + BINOKEL_MELDS
    + _kind_melds(FOUR_OF_A_KIND, {"A": 1000, "K": 1000, "Q": 1000, "J": 1000}),
    meld_requires_trick=True,
    scoreless_without_trick_points=False,
    lost=LostGame(
        declarer=Penalty(2, 0), declarer_keeps_melds=False, opponents_bonus=Bonus("fixed", 100)
    ),
    abgehen=Abgehen(declarer=Penalty(1, 0), opponents_bonus=Bonus("none")),
    revoke=Revoke(offender=Penalty(2, 0)),
    misdiscard=LostGame(
        declarer=Penalty(2, 0), declarer_keeps_melds=False, opponents_bonus=Bonus("fixed", 100)
    ),
    durch=SpecialGame(won=1000, lost=2000),
    durch_aufgelegt=SpecialGame(won=1500, lost=2000),
    durch_ohne_dabb=SpecialGame(won=2000, lost=2000),
    bettel=None,
    specials_kept_apart=False,
    target_score=None,
    play=STANDARD_PLAY,
    direction="counter-clockwise",
    first_bidder="right",
    special_lead="declarer",
    discard_melds="forbidden",
    durch_trump="none",
    wording="club",
    house_rules=(
        "deck_size",
        "deals.4",
        "direction",
        "all_pass",
        "meld_requires_trick",
        "meld_classes",
        "rounding_fives",
        "bid_checked_exact",
        "heading",
        "discards_count",
        "specials_announced",
        "revoke.declarer_bonus",
        "family_pair",
        "rundgang_family",
        "abgehen.when",
        "abgehen.partner",
        "lost",
    ),
)
"""``club-tournament`` — seed 002, the default for tournaments.

From the seed: 3 players with 12 cards and a Dabb of 4 (40 cards), 4 players in diagonal
teams ("Der Beginn des Spiels", "Die Spieler"); bid from 150 in steps of 10 ("Der Reizwert");
card points 11/10/4/3/2 and 10 for the last trick, 250 in all ("Der Wert der Spielkarten");
the meld table ("Die Meldewerte": pair 20/40, Binokel 40, double Binokel 300, four Unter 40,
Ober 60, Kings 80, Aces 100, family 100/150, all eight of a rank 1000, all cards of a suit
1000; the Rundgang's 240 falls out of pairs + four Kings + four Ober); trick points rounded
to tens, the bid checked on exact points ("Der normale Spielablauf"); lost game: −2×bid,
melds struck, the others melds + tricks + 100 ("Verlorene Spiele"); Abschreiben: −bid, the
others their melds ("Abschreiben"); Verwerfen: −2×bid, melds struck ("Verwerfen");
misdiscard scored as a lost game ("Falsches Drücken"); Durch 1000, laid open 1500, without
the Dabb 2000, lost −2000, the others 0, played without trump ("Der Durch"); follow suit and
head the trick, trump when void, overtrump ("Der normale Spielablauf"); the player right of the dealer bids first and
leads the first trick ("Der Reizwert", "Der normale Spielablauf"); the declarer may not
discard a card he melds ("Der Reizwert") and leads in a Durch ("Der Durch").

Where the seed is silent (FIELD-NOTES practice): melds count only if the player took a trick
("yes in most clubs"); a 5 rounds up ("to tens, 5 up"), so two players ending in 5 both go up;
the Siebener/Diß the seed mentions does not occur, because 3×12 + 4 uses the 40-card pack;
no Bettel; the first bidder must open with at least 150; heading the trick applies while the
trick has not been trumped; when the declarer revokes the others also get the +100; deal
and play go counter-clockwise (the seed's first bidder sits right of the dealer, and the
player on his left cuts); 9 cards each at a table of four; King and Dame of a family are
not also a pair, and beside a family the Rundgang is worth what the meld table gives
(200 beside the trump family, 220 beside another; the seed gives only the 240); conceding
(Abschreiben) only before the first lead, and at four the partner's meld lapses too (the
seed gives neither); a lost game costs a flat −2×bid, the declarer's trick points do not
count either ("Verlorene Spiele" strikes the melds and charges double the bid but does not
say what becomes of his tricks: ``"lost"``).  These are listed in
``house_rules`` and marked "Turnierregel" on the handout.
"""

SWABIAN_TRADITIONAL = Ruleset(
    id="swabian-traditional",
    name_de="Schwäbisch traditionell",
    name_en="Swabian traditional",
    source="seed 001 (the German encyclopedia article on Binokel)",
    version=2,
    deck_size=48,
    deals=(Deal(3, 14, 6), Deal(4, 11, 4)),
    partnerships=True,
    min_bid=150,
    bid_step=10,
    max_raise=None,
    all_pass="first-bidder-must-bid",
    card_points=TRADITIONAL_POINTS,
    last_trick_bonus=10,
    rounding="tens",
    rounding_fives="up",
    bid_checked_exact=True,
    melds=_suit_melds(double_family=1500, dix=True)
    + BINOKEL_MELDS
    + _kind_melds(FOUR_OF_A_KIND, {"A": 1000, "K": 1000, "Q": 1000, "J": 1000}),
    meld_requires_trick=True,
    scoreless_without_trick_points=False,
    lost=LostGame(
        declarer=Penalty(2, 0), declarer_keeps_melds=False, opponents_bonus=Bonus("none")
    ),
    abgehen=Abgehen(
        declarer=Penalty(1, 0), opponents_bonus=Bonus("per-player", 10), names_trump=True
    ),
    revoke=Revoke(offender=Penalty(2, 0)),
    misdiscard=LostGame(
        declarer=Penalty(2, 0), declarer_keeps_melds=False, opponents_bonus=Bonus("none")
    ),
    durch=SpecialGame(won=1000, lost=2000),
    durch_aufgelegt=SpecialGame(won=1500, lost=2000),
    durch_ohne_dabb=SpecialGame(won=2000, lost=2000),
    bettel=SpecialGame(won=1000, lost=1000),
    specials_kept_apart=True,
    target_score=1500,
    play=STANDARD_PLAY,
    direction="counter-clockwise",
    first_bidder="right",
    special_lead="declarer",
    discard_melds="misdiscard",
    durch_trump="none",
    wording="swabian",
    house_rules=(
        "deck_size",
        "deals.3",
        "card_points",
        "abgehen.when",
        "durch_trump",
        "rundgang_family",
        "min_bid",
        "all_pass",
        "rounding",
        "lost.declarer",
        "revoke",
        "durch.lost",
        "durch_aufgelegt.lost",
        "durch_ohne_dabb.lost",
        "bettel.won",
        "bettel.lost",
        "special_lead.bettel",
        "melds.eight-tens",
        "heading",
        "must_overtrump",
        "discards_count",
        "specials_announced",
    ),
)
"""``swabian-traditional`` — seed 001, the traditional Württemberg game.

From the seed: 48 cards with the Siebener; 3 players 14 cards + Dabb 6, 4 players 11 + 4 in
crosswise teams (Kreuzbinokel) whose points count together ("Geben", "Zählen"); card points
11/10/4/3/2/0 plus 10 for the last trick ("Werte", "Zählen"); trick points rounded to tens,
5 up, the bid checked on exact points ("jedes Auge zählt"); meld table ("Kombinationen":
Binokel 40 / 300, four of a kind 100/80/60/40 without tens or Siebener, eight of a kind 1000,
family 100/150, double family 1500, pair 20/40, Diß 10); melds count only with a trick;
Rundgang falls out of the pairs and the four Kings/Ober (240, 200 beside a family); Abgehen
−bid, the others their melds + 10 per player at the table ("Abgehen"); lost game −2×bid
(or bid + 100), melds lost ("Zählen"); forgetting to discard loses the game at double the
bid ("Drücken"); Durch 1000, laid open 1500, from the hand without the Dabb 2000; Bettel 1000; special games written
apart ("Spezielle Spiele"); Farbzwang, Stichzwang, Trumpfzwang ("Ausspielen"); game to 1500;
deal, bidding and play counter-clockwise ("Geben", "Ausspielen": the deal goes round that
way, play goes the way of the bidding), the player right of the dealer bids first and
leads ("Reizen", "Ausspielen"), the declarer leads in a Durch, which has no trump
("Der Durch": no trump suit is chosen; the regional custom it also names, the first card's
suit as trump, is ``durch_trump="first-lead"``), nor has a Bettel ("Untendurch"); the
declarer names a trump when he concedes ("Abgehen"); discarding a melded card is a
misdiscard, the trump seven excepted ("Drücken"); Bettel keeps Stichzwang ("Untendurch").

Where the seed is silent (FIELD-NOTES practice): minimum bid 150 in steps of 10; a lost Durch
−2000; a lost Bettel −1000 (its own value); Verwerfen −2×bid with melds struck; eight tens or
Siebener are no meld; the other side gets no bonus on a lost game (the seed names none);
trick points rounded to tens (the seed allows either); the declarer leads in a Bettel (the
seed names two regional customs).  Where the seed offers several values the first is taken:
48 cards (40 or 48), 14 cards + Dabb 6 at three (14/6, 15/3, 16/0), card points
11/10/4/3/2/0 (four schemes), no trump in a Durch (the first card's suit is a regional
custom); a lost game is a flat −2×bid, the declarer's trick points not counted (the seed
strikes his melds but does not say what becomes of his tricks: ``"lost.declarer"``);
conceding only before the first lead (the seed has the declarer concede after taking up the
Dabb, instead of playing, but names no moment).  Beside a family the Rundgang counts 200 (trump family, as the seed reckons it)
and 220 beside a plain one, whose pair is worth 20, not 40.  Listed in
``house_rules`` ("Turnierregel").  Special games are counted in the hand's score like any
other: ``specials_kept_apart`` records the seed's separate tally but has no effect (it stays
in the data, as dropping it would change the fingerprint of every stored ruleset); a
tournament's handout says so under "Dieses Turnier".  The seed's target of 1500
(``target_score``) has no effect either: a tournament plays a fixed number of games.
"""

DABB_APP = Ruleset(
    id="dabb-app",
    name_de="Dabb-App",
    name_en="Dabb app",
    source="seed 003 (the rules as implemented by the Binokel app 'Dabb')",
    version=2,
    deck_size=40,
    deals=(Deal(2, 18, 4), Deal(3, 12, 4), Deal(4, 9, 4)),
    partnerships=True,
    min_bid=150,
    bid_step=10,
    max_raise=None,
    all_pass="first-bidder-must-bid",
    card_points=TRADITIONAL_POINTS,
    last_trick_bonus=10,
    rounding="none",
    rounding_fives="up",
    bid_checked_exact=True,
    melds=_suit_melds(double_family=None, dix=False)
    + BINOKEL_MELDS
    + _kind_melds(FOUR_OF_A_KIND, {"A": 1000, "K": 600, "Q": 400, "J": 200}),
    meld_requires_trick=True,
    scoreless_without_trick_points=False,
    lost=LostGame(
        declarer=Penalty(1, 0), declarer_keeps_melds=False, opponents_bonus=Bonus("none")
    ),
    abgehen=Abgehen(declarer=Penalty(1, 0), opponents_bonus=Bonus("fixed", 40), names_trump=True),
    revoke=Revoke(offender=Penalty(2, 0)),
    misdiscard=LostGame(
        declarer=Penalty(2, 0), declarer_keeps_melds=False, opponents_bonus=Bonus("none")
    ),
    durch=None,
    durch_aufgelegt=None,
    durch_ohne_dabb=None,
    bettel=None,
    specials_kept_apart=False,
    target_score=1000,
    play=PlayRules(must_follow_suit=True, heading="led-suit", must_trump=True, must_overtrump=True),
    direction="clockwise",
    first_bidder="left",
    wording="app",
    house_rules=(
        "direction",
        "meld_classes",
        "last_trick_bonus",
        "meld_requires_trick",
        "revoke",
        "misdiscard",
        "first_played_wins",
        "no_specials",
        "durch_trump",
        "rounding",
        "abgehen.partner",
    ),
)
"""``dabb-app`` — seed 003, the rules of the Binokel app "Dabb".

From the seed: 2, 3 or 4 players with 18/12/9 cards and a Dabb of 4, opposite players a team
at 4 ("Spieler", "Geben"); bid from 150 in steps of 10, the first bidder must bid
("Reizen"); the discards count for the declarer ("Der Dabb"); Abgehen: −bid, each opponent
(at 4 seats the opposing team) melds + 40 ("Abgehen"); meld table with eight of a kind
1000/600/400/200 and no double family ("Melden"); Farbzwang, Stichzwang on the led suit even
after a trump, Trumpfzwang, overtrump ("Stiche"); score = melds + trick points, exact, and a
declarer who misses the bid loses the bid ("Wertung"); game to 1000 ("Spielende"); the deal
passes clockwise and the player after (left of) the dealer bids first and leads the first
trick ("Geben", "Reizen", "Stiche"); the declarer names a trump when he concedes ("Abgehen").

Where the seed is silent (FIELD-NOTES practice): the direction of bidding and play (the seed
says only that the deal passes clockwise); a card counts once per meld class (the seed says
only that a family's cards are not also a pair); 10 for the last trick (so 250 in all); melds
count only with a trick; no rounding (the app counts exact points); Verwerfen −2×bid with melds
struck, and a misdiscard loses the game at double the bid (the app itself prevents both, but a
table playing its rules needs a ruling); when the declarer concedes at four his partner
melds nothing either (the seed names only what the opponents get); no Durch or Bettel, and
should a tournament add a Durch, it has no trump (``durch_trump``, as in seeds 001 and
002).  Listed in ``house_rules`` ("Turnierregel").
"""

PARTNERSHIP_250 = Ruleset(
    id="partnership-250",
    name_de="Partnerschaft 250",
    name_en="Partnership 250",
    source="seed 000 (a card-game website's four-hand partnership rules)",
    version=2,
    deck_size=48,
    deals=(Deal(4, 12, 0),),
    partnerships=True,
    min_bid=250,
    bid_step=10,
    max_raise=20,
    all_pass="dealer-takes-minimum",
    card_points=CardPoints(ace=10, ten=10, king=10, ober=0, unter=0, low=0),
    last_trick_bonus=10,
    rounding="none",
    rounding_fives="up",
    bid_checked_exact=True,
    melds=(
        MeldSpec("trump-pair", "Königliche Hochzeit", "Royal marriage", "suit", 40, "trump", "KQ"),
        MeldSpec("pair", "Einfache Hochzeit", "Marriage", "suit", 20, "plain", "KQ"),
        MeldSpec("sequence", "Sequenz", "Sequence", "suit", 150, "trump", "ATKQJ"),
        MeldSpec(
            "sequence-king", "Sequenz + König", "Sequence + king", "suit", 190, "trump", "ATKKQJ"
        ),
        MeldSpec(
            "sequence-ober", "Sequenz + Dame", "Sequence + queen", "suit", 190, "trump", "ATKQQJ"
        ),
        MeldSpec(
            "sequence-marriage",
            "Sequenz + Hochzeit",
            "Sequence + marriage",
            "suit",
            230,
            "trump",
            "ATKKQQJ",
        ),
        MeldSpec(
            "double-sequence",
            "Doppelte Sequenz",
            "Double sequence",
            "suit",
            1500,
            "trump",
            "AATTKKQQJJ",
        ),
        MeldSpec("dix", "Kleiner Trumpf", "Dix", "suit", 10, "trump", "9"),
    )
    + BINOKEL_MELDS
    + _kind_melds(FOUR_OF_A_KIND, {"A": 1000, "K": 800, "Q": 600, "J": 400}),
    meld_requires_trick=False,
    scoreless_without_trick_points=True,
    lost=LostGame(
        declarer=Penalty(1, 0), declarer_keeps_melds=False, opponents_bonus=Bonus("none")
    ),
    abgehen=Abgehen(
        declarer=Penalty(1, 0), opponents_bonus=Bonus("none"), only_when_unreachable=True
    ),
    revoke=Revoke(offender=Penalty(2, 0)),
    misdiscard=None,
    durch=None,
    durch_aufgelegt=None,
    durch_ohne_dabb=None,
    bettel=None,
    specials_kept_apart=False,
    target_score=1500,
    play=PlayRules(
        must_follow_suit=True,
        heading="win",
        must_trump=True,
        must_overtrump=True,
        first_lead="declarer",
    ),
    direction="clockwise",
    first_bidder="left",
    partner_exchange=4,
    wording="pinochle",
    house_rules=("direction", "revoke", "first_played_wins", "no_specials", "durch_trump"),
)
"""``partnership-250`` — seed 000, four-hand partnership Binokel (really Pinochle).

From the seed: 4 players in crosswise teams, 48 cards with nines, 12 each and no Dabb
("Austeilen"); minimum bid 250, raises of 10 or 20, if all pass the dealer takes 250
("Bieten"); meld classes 1–3 with sequence 150, sequence + king or queen 190, sequence +
marriage 230, double sequence 1500, dix 10, marriages 40/20, Binokel 40/300, four of a kind
100/80/60/40 and eight 1000/800/600/400 ("Gültige Meldungen"); follow suit, trump when void,
win the trick whenever possible ("Stichphase"); only aces, tens and kings count, 10 each,
plus 10 for the last trick ("Punktewertung"); a team without trick points scores nothing;
made: melds + tricks; set: −bid; conceding only when the bid exceeds the team's melds + 250,
then −bid and the opponents their melds ("Sich freiwillig überreizen"); game to 1500; the
deal passes clockwise, the player left of the dealer bids first ("Austeilen", "Bieten"), the
bid winner leads the first trick ("Stichphase"); the partners pass four cards each way
("Das Bieten gewinnen").

Where the seed is silent (FIELD-NOTES practice): the direction of play (the seed gives the
deal passing to the left and bidding to the left, not which way play goes); Verwerfen
−2×bid with melds struck; no misdiscard (there is no Dabb to discard to); no Durch or
Bettel, and should a tournament add a Durch, it has no trump (``durch_trump``, as in seeds 001 and 002).  Listed in
``house_rules`` ("Turnierregel").
"""

PRESETS: dict[str, Ruleset] = {
    rs.id: rs for rs in (CLUB_TOURNAMENT, SWABIAN_TRADITIONAL, DABB_APP, PARTNERSHIP_250)
}
"""Preset id → :class:`Ruleset`, in the order of ``shared/seeds/README.md`` priority."""


def get_preset(preset_id: str) -> Ruleset:
    """The preset ruleset with ``preset_id``; raises ``KeyError`` if there is none."""
    return PRESETS[preset_id]


def resolve_ruleset(value: object, field: str = "ruleset") -> Ruleset:
    """A ruleset from JSON input: a preset id, a full ruleset object, or an object
    ``{"base": ID, ...overrides}`` that changes some parameters of a preset.

    Raises :class:`InvalidInput` whose errors name ``field`` (or ``field.param``).
    """
    if isinstance(value, str):
        if value in PRESETS:
            return PRESETS[value]
        known = ", ".join(PRESETS)
        raise InvalidInput(
            [
                FieldError(
                    field, f"unknown ruleset {value!r} (known: {known})", code="unknown_ruleset"
                )
            ]
        )
    if isinstance(value, dict):
        from .errors import RulesetError

        try:
            if "base" in value:
                overrides = dict(value)
                base = overrides.pop("base")
                if not isinstance(base, str) or base not in PRESETS:
                    raise InvalidInput(
                        [
                            FieldError(
                                f"{field}.base", f"unknown ruleset {base!r}", code="unknown_ruleset"
                            )
                        ]
                    )
                # names given are overrides like any other; a changed ruleset without an id
                # of its own is "<base>+custom"
                ruleset_id = overrides.pop("id", f"{base}+custom")
                return PRESETS[base].with_overrides(overrides, id=ruleset_id)
            return Ruleset.from_dict(value)
        except RulesetError as exc:
            raise InvalidInput(
                [FieldError(f"{field}.{e.field}", e.message, code=e.code) for e in exc.errors]
            ) from exc
    raise InvalidInput([FieldError(field, "must be a preset id or a ruleset object", code="type")])

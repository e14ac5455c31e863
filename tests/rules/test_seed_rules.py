"""Every rule statement of the four seed texts, pinned to the rules engine.

The seeds are ``shared/seeds/000…003`` (see their README): 000 → ``partnership-250``,
001 → ``swabian-traditional``, 002 → ``club-tournament``, 003 → ``dabb-app``.  Each table
row is one statement of one seed; its id names the seed and the section.  Every expected
number was worked out by hand from the seed's words (never by asking the engine).  Where a
seed is silent or ambiguous the row follows the reading the preset's docstring states, and
its id says "(reading)".

Tables: parameters (ruleset values), melds (best meld of a hand), plays (trick
obligations), trick winners, hand scores, and record validation; plus the worked examples
of seed 000 as explicit tests.
"""

from __future__ import annotations

import re
from typing import Any
from unittest.mock import ANY

import pytest

import rules
from rules.ruleset import Bonus, CardPoints, Deal, LostGame, Penalty, SpecialGame

P000 = "partnership-250"
P001 = "swabian-traditional"
P002 = "club-tournament"
P003 = "dabb-app"

TRADITIONAL = CardPoints(ace=11, ten=10, king=4, ober=3, unter=2, low=0)


def hand(
    seats: int, declarer: int, bid: int, outcome: str = "played", **fields: Any
) -> dict[str, Any]:
    """A raw hand record as the clerk enters it."""
    return {"seats": seats, "declarer": declarer, "bid": bid, "outcome": outcome, **fields}


def row(*values: Any, id: str) -> Any:  # noqa: A002 - mirrors pytest.param
    return pytest.param(*values, id=id)


# =============================================================================== parameters

_SEGMENT = re.compile(r"^(\w+)(?:\(([\d, ]*)\))?$")


def resolve(obj: Any, path: str) -> Any:
    """Follow ``a.b.c`` (attributes) where a segment may be a call ``name(3)``/``name(250, 4)``."""
    for segment in path.split("."):
        match = _SEGMENT.match(segment)
        assert match, f"bad path segment {segment!r}"
        name, args = match.groups()
        obj = getattr(obj, name)
        if args is not None:
            obj = obj(*(int(a) for a in args.split(",") if a.strip()))
    return obj


PARAMETER_ROWS = [
    # ---------------------------------------------------------------- 000 partnership-250
    row(P000, "deck_size", 48, id="000 intro: 48 cards"),
    row(P000, "ranks", ("A", "T", "K", "Q", "J", "9"), id="000 intro: A 10 K D B 9, with nines"),
    row(P000, "deals", (Deal(4, 12, 0),), id="000 Austeilen: four players, twelve cards, no Dabb"),
    row(P000, "partnerships", True, id="000 Austeilen: partners sit opposite"),
    row(P000, "sides(4)", ((0, 2), (1, 3)), id="000 Austeilen: teams 0+2 and 1+3"),
    row(P000, "min_bid", 250, id="000 Bieten: minimum bid 250"),
    row(P000, "bid_step", 10, id="000 Bieten: raises in tens"),
    row(P000, "max_raise", 20, id="000 Bieten: raise by 10 or 20"),
    row(P000, "all_pass", "dealer-takes-minimum", id="000 Bieten: all pass -> dealer takes 250"),
    row(
        P000,
        "card_points",
        CardPoints(ace=10, ten=10, king=10, ober=0, unter=0, low=0),
        id="000 Punktewertung: only A, 10, K count, 10 each",
    ),
    row(P000, "last_trick_bonus", 10, id="000 Punktewertung: last trick 10"),
    row(P000, "card_points_total", 240, id="000 Punktewertung: 8 aces+8 tens+8 kings = 240"),
    row(P000, "trick_points_total", 250, id="000 Punktewertung: at most 250 in the play"),
    row(
        P000,
        "scoreless_without_trick_points",
        True,
        id="000 Punktewertung: team without trick points scores nothing",
    ),
    row(P000, "lost.declarer", Penalty(1, 0), id="000 Punktewertung: set -> bid deducted"),
    row(P000, "lost.declarer_keeps_melds", False, id="000 Punktewertung: set -> no points"),
    row(P000, "abgehen.declarer", Penalty(1, 0), id="000 Ueberreizen: concession -> -bid"),
    row(
        P000,
        "abgehen.opponents_bonus",
        Bonus("none"),
        id="000 Ueberreizen: opponents get just their melds",
    ),
    row(
        P000,
        "abgehen.only_when_unreachable",
        True,
        id="000 Ueberreizen: concede only when bid > melds + 250",
    ),
    row(P000, "play.must_follow_suit", True, id="000 Stichphase: follow suit"),
    row(P000, "play.must_trump", True, id="000 Stichphase: trump when void"),
    row(P000, "play.heading", "win", id="000 Stichphase: must win the trick if able"),
    row(P000, "play.first_lead", "declarer", id="000 Stichphase: bid winner leads first trick"),
    row(P000, "outcomes", ("played", "abgehen"), id="000: no Durch or Bettel"),
    row(P000, "target_score", 1500, id="000 Das Spiel gewinnen: game to 1500"),
    # ---------------------------------------------------------- 001 swabian-traditional
    row(P001, "deck_size", 48, id="001 Geben: played with the Siebener, 48 cards"),
    row(P001, "ranks", ("A", "T", "K", "Q", "J", "9"), id="001 Stichkraft: A 10 K O U 7"),
    row(P001, "deal_for(3)", Deal(3, 14, 6), id="001 Geben: 3 players 14 cards, Dabb 6"),
    row(P001, "deal_for(4)", Deal(4, 11, 4), id="001 Geben: 4 players 11 cards, Dabb 4"),
    row(P001, "sides(3)", ((0,), (1,), (2,)), id="001 intro: three players all against all"),
    row(P001, "sides(4)", ((0, 2), (1, 3)), id="001 intro: Kreuzbinokel, opposite partners"),
    row(P001, "bid_step", 10, id="001 Reizen: raise by 10 Augen"),
    row(P001, "card_points", TRADITIONAL, id="001 Werte: 11/10/4/3/2/0"),
    row(P001, "last_trick_bonus", 10, id="001 Zaehlen: last trick 10 extra"),
    row(P001, "trick_points_total", 250, id="001 Werte: always 250 Augen"),
    row(P001, "rounding", "tens", id="001 Zaehlen: rounded to tens"),
    row(P001, "rounding_fives", "up", id="001 Zaehlen: from 5 Augen up"),
    row(P001, "bid_checked_exact", True, id="001 Zaehlen: bid checked, jedes Auge zaehlt"),
    row(P001, "meld_requires_trick", True, id="001 Kombinationen: melds count only with a trick"),
    row(P001, "lost.declarer", Penalty(2, 0), id="001 Zaehlen: lost -> double the bid"),
    row(P001, "lost.declarer_keeps_melds", False, id="001 Zaehlen: lost -> melds forfeited"),
    row(P001, "abgehen.declarer", Penalty(1, 0), id="001 Abgehen: bid deducted once"),
    row(P001, "abgehen.opponents_bonus.points(250, 3)", 30, id="001 Abgehen: +30 at 3 players"),
    row(P001, "abgehen.opponents_bonus.points(250, 4)", 40, id="001 Abgehen: +40 at 4 players"),
    row(P001, "misdiscard.declarer", Penalty(2, 0), id="001 Druecken: wrong discard -> 2x bid"),
    row(P001, "misdiscard.declarer_keeps_melds", False, id="001 Druecken: game lost, no melds"),
    row(P001, "durch.won", 1000, id="001 Der Durch: 1000"),
    row(P001, "durch_aufgelegt.won", 1500, id="001 Der Durch: aufgelegt 1500"),
    row(P001, "durch_ohne_dabb.won", 2000, id="001 Der Durch: aufgelegt von der Hand 2000"),
    row(P001, "bettel.won", 1000, id="001 Bettel: 1000 (of 1000/1500/500)"),
    row(P001, "specials_kept_apart", True, id="001 Spezielle Spiele: written separately"),
    row(P001, "play.must_follow_suit", True, id="001 Ausspielen: Farbzwang"),
    row(P001, "play.must_trump", True, id="001 Ausspielen: Trumpfzwang"),
    row(P001, "play.first_lead", "forehand", id="001 Ausspielen: the first bidder leads"),
    row(P001, "target_score", 1500, id="001 Zaehlen: e.g. game to 1500"),
    # --------------------------------------------------------------- 002 club-tournament
    row(P002, "deck_size", 40, id="002 Der Beginn: 40 cards (3x12 + Tapp 4)"),
    row(P002, "deal_for(3)", Deal(3, 12, 4), id="002 Der Beginn: 12 cards each, Tapp 4"),
    row(P002, "sides(3)", ((0,), (1,), (2,)), id="002 Die Spieler: at 3 each plays alone"),
    row(P002, "sides(4)", ((0, 2), (1, 3)), id="002 Die Spieler: at 4 diagonal teams"),
    row(P002, "min_bid", 150, id="002 Der Reizwert: at least 150"),
    row(P002, "bid_step", 10, id="002 Der Reizwert: steps of ten"),
    row(P002, "card_points", TRADITIONAL, id="002 Wert der Spielkarten: 11/10/4/3/2/0"),
    row(P002, "last_trick_bonus", 10, id="002 Wert der Spielkarten: last trick 10"),
    row(P002, "card_points_total", 240, id="002 Wert der Spielkarten: 240 in tricks"),
    row(P002, "trick_points_total", 250, id="002 Wert der Spielkarten: 250 at most"),
    row(P002, "rounding", "tens", id="002 Normaler Spielablauf: rounded to tens"),
    row(P002, "rounding_fives", "up", id="002 Normaler Spielablauf: 5 rounds up (pinned)"),
    row(P002, "bid_checked_exact", True, id="002 Normaler Spielablauf: bid on exact points"),
    row(P002, "lost.declarer", Penalty(2, 0), id="002 Verlorene Spiele: double the bid"),
    row(P002, "lost.declarer_keeps_melds", False, id="002 Verlorene Spiele: melds struck"),
    row(P002, "lost.opponents_bonus", Bonus("fixed", 100), id="002 Verlorene Spiele: others +100"),
    row(P002, "abgehen.declarer", Penalty(1, 0), id="002 Abschreiben: charged the bid"),
    row(P002, "abgehen.opponents_bonus", Bonus("none"), id="002 Abschreiben: others their melds"),
    row(P002, "revoke.offender", Penalty(2, 0), id="002 Verwerfen: double the bid"),
    row(
        P002,
        "misdiscard",
        LostGame(Penalty(2, 0), False, Bonus("fixed", 100)),
        id="002 Falsches Druecken: lost game, 2x bid, others +100",
    ),
    row(P002, "durch", SpecialGame(1000, 2000), id="002 Der Durch: 1000, lost -2000"),
    row(P002, "durch_aufgelegt", SpecialGame(1500, 2000), id="002 Der Durch: gelegt 1500"),
    row(P002, "durch_ohne_dabb", SpecialGame(2000, 2000), id="002 Der Durch: ohne Tapp 2000"),
    row(P002, "play.must_follow_suit", True, id="002 Normaler Spielablauf: follow suit"),
    row(P002, "play.must_trump", True, id="002 Normaler Spielablauf: void -> trump"),
    row(P002, "play.must_overtrump", True, id="002 Normaler Spielablauf: always overtrump"),
    row(P002, "play.first_lead", "forehand", id="002 Normaler Spielablauf: right of dealer leads"),
    # ---------------------------------------------------------------------- 003 dabb-app
    row(P003, "deck_size", 40, id="003 Das Blatt: 40 cards"),
    row(P003, "ranks", ("A", "T", "K", "Q", "J"), id="003 Das Blatt: Ass Zehn Koenig Ober Buabe"),
    row(
        P003,
        "deals",
        (Deal(2, 18, 4), Deal(3, 12, 4), Deal(4, 9, 4)),
        id="003 Geben: 2/3/4 players with 18/12/9 cards, Dabb 4",
    ),
    row(P003, "sides(4)", ((0, 2), (1, 3)), id="003 Spieler: at 4 opposite players a team"),
    row(P003, "min_bid", 150, id="003 Reizen: at least 150"),
    row(P003, "bid_step", 10, id="003 Reizen: steps of 10"),
    row(P003, "all_pass", "first-bidder-must-bid", id="003 Reizen: first bidder must bid"),
    row(P003, "card_points", TRADITIONAL, id="003 Das Blatt: points 11/10/4/3/2"),
    row(P003, "rounding", "none", id="003 Wertung: exact points, no rounding"),
    row(P003, "lost.declarer", Penalty(1, 0), id="003 Wertung: missed bid -> -bid"),
    row(P003, "lost.declarer_keeps_melds", False, id="003 Wertung: instead of melds + tricks"),
    row(P003, "abgehen.declarer", Penalty(1, 0), id="003 Abgehen: loses the bid"),
    row(P003, "abgehen.opponents_bonus", Bonus("fixed", 40), id="003 Abgehen: opponents +40"),
    row(P003, "play.heading", "led-suit", id="003 Stiche 2: Stichzwang on the led suit"),
    row(P003, "play.must_trump", True, id="003 Stiche 3: Trumpfzwang"),
    row(P003, "play.must_overtrump", True, id="003 Stiche 4: Trumpf ueberbieten"),
    row(P003, "play.first_lead", "forehand", id="003 Stiche: player after dealer leads"),
    row(P003, "target_score", 1000, id="003 Spielende: 1000 points"),
    # ------------------------------------------- seating, first bidder, leads, discards
    row(P000, "direction", "clockwise", id="000 Austeilen: dealing passes clockwise"),
    row(P000, "first_bidder", "left", id="000 Austeilen: left of the dealer bids first"),
    row(P000, "partner_exchange", 4, id="000 Das Bieten gewinnen: four cards each way"),
    row(P001, "direction", "counter-clockwise", id="001 Geben/Ausspielen: counter-clockwise"),
    row(P001, "first_bidder", "right", id="001 Reizen: right of the dealer bids first"),
    row(P001, "special_lead", "declarer", id="001 Der Durch: the declarer comes out"),
    row(P001, "discard_melds", "misdiscard", id="001 Druecken: a melded card discarded loses"),
    row(P001, "abgehen.names_trump", True, id="001 Abgehen: names the trump he goes off in"),
    row(P002, "direction", "counter-clockwise", id="002 (reading) right bids, left cuts"),
    row(P002, "first_bidder", "right", id="002 Der Reizwert: right of the dealer starts"),
    row(P002, "special_lead", "declarer", id="002 Der Durch: declarer lays the first card"),
    row(P002, "discard_melds", "forbidden", id="002 Der Reizwert: no meld cards discarded"),
    row(P003, "direction", "clockwise", id="003 Geben: the dealer changes clockwise"),
    row(P003, "first_bidder", "left", id="003 Reizen: the player after the dealer"),
    row(P003, "abgehen.names_trump", True, id="003 Abgehen: chooses a trump suit"),
    row(P003, "first_bidder_offset", 1, id="003 Stiche: after the dealer, in play order"),
]


@pytest.mark.parametrize(("preset", "path", "expected"), PARAMETER_ROWS)
def test_parameter(preset: str, path: str, expected: Any) -> None:
    assert resolve(rules.PRESETS[preset], path) == expected


# ==================================================================================== melds

EIGHT_ACES = "AC AC AS AS AH AH AD AD"
EIGHT_KINGS = "KC KC KS KS KH KH KD KD"
EIGHT_OBERS = "QC QC QS QS QH QH QD QD"
EIGHT_UNTERS = "JC JC JS JS JH JH JD JD"
RUNDGANG = "KC QC KS QS KH QH KD QD"
RUNDGANG_NAMES = ["pair", "pair", "pair", "trump-pair", "four-kings", "four-obers"]

MELD_ROWS = [
    # ---------------------------------------------------------------- 000 partnership-250
    row(P000, "H", "AH TH KH QH JH", 150, ["sequence"],
        id="000 Klasse 1: Sequenz 150, its K+D not also a royal marriage"),
    row(P000, "H", "AH TH KH KH QH JH", 190, ["sequence-king"],
        id="000 Klasse 1: Sequenz + Koenig 190"),
    row(P000, "H", "AH TH KH QH QH JH", 190, ["sequence-ober"],
        id="000 Klasse 1: Sequenz + Dame 190"),
    row(P000, "H", "AH TH KH KH QH QH JH", 230, ["sequence-marriage"],
        id="000 Klasse 1: Sequenz + Hochzeit 230"),
    row(P000, "H", "AH AH TH TH KH KH QH QH JH JH", 1500, ["double-sequence"],
        id="000 Klasse 1: Doppelte Sequenz 1500"),
    row(P000, "H", "9H", 10, ["dix"], id="000 Klasse 1: Kleiner Trumpf (trump nine) 10"),
    row(P000, "H", "9C 9S 9D", 0, [], id="000 Klasse 1: a nine outside trump is no meld"),
    row(P000, "H", "KH QH", 40, ["trump-pair"], id="000 Klasse 1: Koenigliche Hochzeit 40"),
    row(P000, "H", "KC QC", 20, ["pair"], id="000 Klasse 1: Einfache Hochzeit 20"),
    row(P000, "H", "AC TC KC QC JC", 20, ["pair"],
        id="000 Klasse 1: Sequenz only in trump, plain A-B run is a marriage 20"),
    row(P000, "H", "JD QS", 40, ["binokel"], id="000 Klasse 2: Binokel (Karo-Bube + Pik-Dame) 40"),
    row(P000, "H", "JD JD QS QS", 300, ["double-binokel"], id="000 Klasse 2: Doppel-Binokel 300"),
    row(P000, "H", "AC AS AH AD", 100, ["four-aces"], id="000 Klasse 3: Ass-Runde 100"),
    row(P000, "H", EIGHT_ACES, 1000, ["eight-aces"], id="000 Klasse 3: Doppel-Ass-Runde 1000"),
    row(P000, "H", "KC KS KH KD", 80, ["four-kings"], id="000 Klasse 3: Koenigs-Runde 80"),
    row(P000, "H", EIGHT_KINGS, 800, ["eight-kings"], id="000 Klasse 3: Doppel-Koenigs-Runde 800"),
    row(P000, "H", "QC QS QH QD", 60, ["four-obers"], id="000 Klasse 3: Damen-Runde 60"),
    row(P000, "H", EIGHT_OBERS, 600, ["eight-obers"], id="000 Klasse 3: Doppel-Damen-Runde 600"),
    row(P000, "H", "JC JS JH JD", 40, ["four-unters"], id="000 Klasse 3: Buben-Runde 40"),
    row(P000, "H", EIGHT_UNTERS, 400, ["eight-unters"], id="000 Klasse 3: Doppel-Buben-Runde 400"),
    row(P000, "S", "KH QH QC QS QD", 80, ["pair", "four-obers"],
        id="000 Melden: Herz-Dame in Herz-Hochzeit (kl. 1) and Damen-Runde (kl. 3)"),
    row(P000, "H", "QS JD QC QH QD", 100, ["binokel", "four-obers"],
        id="000 Melden: Pik-Dame in Binokel (kl. 2) and Damen-Runde (kl. 3)"),
    row(P000, "H", EIGHT_KINGS + " QH", 840, ["eight-kings", "trump-pair"],
        id="000 Melden: a trump king in Doppel-Koenigs-Runde and royal marriage"),
    # ---------------------------------------------------------- 001 swabian-traditional
    row(P001, "H", "JD QS", 40, ["binokel"], id="001 Kombinationen: Binokel 40"),
    row(P001, "H", "JD JD QS QS", 300, ["double-binokel"],
        id="001 Kombinationen: doppelter Binokel (Dreihunderter) 300"),
    row(P001, "H", "QS KS JD", 60, ["binokel", "pair"],
        id="001 Kombinationen: QS KS JD make Binokel and Schippen-Paar"),
    row(P001, "H", "AC AS AH AD", 100, ["four-aces"], id="001 Kombinationen: vier Asse 100"),
    row(P001, "H", "KC KS KH KD", 80, ["four-kings"], id="001 Kombinationen: vier Koenige 80"),
    row(P001, "H", "QC QS QH QD", 60, ["four-obers"], id="001 Kombinationen: vier Ober 60"),
    row(P001, "H", "JC JS JH JD", 40, ["four-unters"], id="001 Kombinationen: vier Unter 40"),
    row(P001, "H", "TC TS TH TD", 0, [], id="001 Kombinationen: four tens count nothing"),
    row(P001, "C", "9C 9S 9H 9D", 10, ["dix"],
        id="001 Kombinationen: four Siebener count nothing, only the Diss"),
    row(P001, "H", EIGHT_ACES, 1000, ["eight-aces"], id="001 Kombinationen: acht Asse 1000"),
    row(P001, "H", EIGHT_KINGS, 1000, ["eight-kings"], id="001 Kombinationen: acht Koenige 1000"),
    row(P001, "H", EIGHT_OBERS, 1000, ["eight-obers"], id="001 Kombinationen: acht Ober 1000"),
    row(P001, "H", EIGHT_UNTERS, 1000, ["eight-unters"], id="001 Kombinationen: acht Unter 1000"),
    row(P001, "H", "AC TC KC QC JC", 100, ["family"],
        id="001 Kombinationen: Familie 100, its pair not counted again"),
    row(P001, "H", "AH TH KH QH JH", 150, ["trump-family"],
        id="001 Kombinationen: Familie in Trumpf 150"),
    row(P001, "H", "AH AH TH TH KH KH QH QH JH JH", 1500, ["double-family"],
        id="001 Kombinationen: Doppelte Familie in trump 1500"),
    row(P001, "H", "AC AC TC TC KC KC QC QC JC JC", 1500, ["double-family"],
        id="001 Kombinationen: Doppelte Familie plain 1500"),
    row(P001, "H", "KC QC", 20, ["pair"], id="001 Kombinationen: Paar 20"),
    row(P001, "H", "KH QH", 40, ["trump-pair"], id="001 Kombinationen: Paar in Trumpf 40"),
    row(P001, "H", "9H", 10, ["dix"], id="001 Kombinationen: Diss (trump Siebener) 10"),
    row(P001, "H", "9H 9H", 20, ["dix", "dix"], id="001 Kombinationen (reading): each Diss 10"),
    row(P001, "C", "AH TH KH QH JH AC AS AD", 200, ["family", "four-aces"],
        id="001 Kombinationen: vier Gleiche with a card of a Familie"),
    row(P001, "C", "AH TH KH QH JH QH", 100, ["family"],
        id="001 Kombinationen: one extra Ober makes no pair with a Familie"),
    row(P001, "C", "AH TH KH KH QH JH", 100, ["family"],
        id="001 Kombinationen: one extra Koenig makes no pair with a Familie"),
    row(P001, "C", "KH QH QH", 20, ["pair"],
        id="001 Kombinationen: one Koenig and two Ober are not two pairs"),
    row(P001, "C", "KH KH QH QH", 40, ["pair", "pair"],
        id="001 Kombinationen (reading): two Koenige and two Ober are two pairs"),
    row(P001, "H", RUNDGANG, 240, RUNDGANG_NAMES,
        id="001 Rundgang: 100 pairs + 80 kings + 60 Ober = 240"),
    row(P001, "H", "AH TH KH QH JH KC QC KS QS KD QD", 350,
        ["trump-family", "pair", "pair", "pair", "four-kings", "four-obers"],
        id="001 Rundgang: beside the (trump) Familie only 200, +150"),
    row(P001, "H", "AC TC KC QC JC KS QS KH QH KD QD", 320,
        ["family", "pair", "pair", "trump-pair", "four-kings", "four-obers"],
        id="001 Rundgang (reading): beside a plain Familie 240-20, +100"),
    # --------------------------------------------------------------- 002 club-tournament
    row(P002, "H", "KC QC", 20, ["pair"], id="002 Meldewerte: Paar 20"),
    row(P002, "H", "KH QH", 40, ["trump-pair"], id="002 Meldewerte: Paar in Trumpf 40"),
    row(P002, "H", "QS JD", 40, ["binokel"], id="002 Meldewerte: Binokel 40"),
    row(P002, "H", "QS QS JD JD", 300, ["double-binokel"],
        id="002 Meldewerte: Doppelter Binokel 300"),
    row(P002, "H", "JC JS JH JD", 40, ["four-unters"], id="002 Meldewerte: 40 Buben"),
    row(P002, "H", "QC QS QH QD", 60, ["four-obers"], id="002 Meldewerte: 60 Damen"),
    row(P002, "H", "KC KS KH KD", 80, ["four-kings"], id="002 Meldewerte: 80 Koenige"),
    row(P002, "H", "AC AS AH AD", 100, ["four-aces"], id="002 Meldewerte: 100 Asse"),
    row(P002, "H", "AC TC KC QC JC", 100, ["family"], id="002 Meldewerte: Familie 100"),
    row(P002, "H", "AH TH KH QH JH", 150, ["trump-family"],
        id="002 Meldewerte: Familie in Trumpf 150"),
    row(P002, "H", RUNDGANG, 240, RUNDGANG_NAMES, id="002 Meldewerte: Rundgang 240"),
    row(P002, "H", EIGHT_ACES, 1000, ["eight-aces"], id="002 Meldewerte: alle Asse 1000"),
    row(P002, "H", EIGHT_KINGS, 1000, ["eight-kings"], id="002 Meldewerte: alle Koenige 1000"),
    row(P002, "H", EIGHT_OBERS, 1000, ["eight-obers"], id="002 Meldewerte: alle Damen 1000"),
    row(P002, "H", EIGHT_UNTERS, 1000, ["eight-unters"], id="002 Meldewerte: alle Buben 1000"),
    row(P002, "H", "AC AC TC TC KC KC QC QC JC JC", 1000, ["double-family"],
        id="002 Meldewerte: alle Karten einer Farbe 1000"),
    row(P002, "H", "AH AH TH TH KH KH QH QH JH JH", 1000, ["double-family"],
        id="002 Meldewerte: alle Karten der Trumpffarbe 1000"),
    # ---------------------------------------------------------------------- 003 dabb-app
    row(P003, "S", "KC QC", 20, ["pair"], id="003 Melden: Paar 20"),
    row(P003, "S", "KS QS", 40, ["trump-pair"], id="003 Melden: Paar in Trumpf 40"),
    row(P003, "S", "AC TC KC QC JC", 100, ["family"], id="003 Melden: Familie 100"),
    row(P003, "S", "AS TS KS QS JS", 150, ["trump-family"],
        id="003 Melden: Familie in Trumpf 150, its cards not also a pair"),
    row(P003, "S", "AS TS KS KS QS QS JS", 190, ["trump-family", "trump-pair"],
        id="003 Melden: a second K+O beside the Familie is a pair"),
    row(P003, "H", "QS JD", 40, ["binokel"], id="003 Melden: Binokel 40"),
    row(P003, "H", "QS QS JD JD", 300, ["double-binokel"], id="003 Melden: Doppel-Binokel 300"),
    row(P003, "H", "AC AS AH AD", 100, ["four-aces"], id="003 Melden: vier Asse 100"),
    row(P003, "H", "KC KS KH KD", 80, ["four-kings"], id="003 Melden: vier Koenige 80"),
    row(P003, "H", "QC QS QH QD", 60, ["four-obers"], id="003 Melden: vier Ober 60"),
    row(P003, "H", "JC JS JH JD", 40, ["four-unters"], id="003 Melden: vier Buaben 40"),
    row(P003, "H", EIGHT_ACES, 1000, ["eight-aces"], id="003 Melden: acht Asse 1000"),
    row(P003, "H", EIGHT_KINGS, 600, ["eight-kings"], id="003 Melden: acht Koenige 600"),
    row(P003, "H", EIGHT_OBERS, 400, ["eight-obers"], id="003 Melden: acht Ober 400"),
    row(P003, "H", EIGHT_UNTERS, 200, ["eight-unters"], id="003 Melden: acht Buaben 200"),
    row(P003, "S", "AS AS TS TS KS KS QS QS JS JS", 300, ["trump-family", "trump-family"],
        id="003 Melden: no double family, two trump families 2x150"),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "trump", "cards", "total", "names"), MELD_ROWS)
def test_meld(preset: str, trump: str, cards: str, total: int, names: list[str] | None) -> None:
    ruleset = rules.PRESETS[preset]
    hand_cards = cards.split()
    assert all(c[0] in ruleset.ranks for c in hand_cards), "row uses a card not in the pack"
    result = rules.best_meld(ruleset, hand_cards, trump)
    assert result.total == total
    assert sum(m.points for m in result.melds) == result.total
    if names is not None:
        assert sorted(m.name for m in result.melds) == sorted(names)


def test_001_siebener_written_7_is_the_diss() -> None:
    """001 Kombinationen: the trump Siebener (written 7 or 9) is the Diß, 10."""
    result = rules.meld_request(rules.PRESETS[P001], "H", ["7H"])
    assert result.total == 10


# ==================================================================================== plays

PLAY_ROWS = [
    # ---------------------------------------------------------------- 000 partnership-250
    # The worked example (Stichphase), trump Pik: Bill leads QH, Lisa, you, Mike.
    row(P000, "S", "QH", "AC KD 9C", "9C", True, None, "AC KD 9C", 0,
        id="000 Stichphase example: Lisa with no hearts or spades may play anything"),
    row(P000, "S", "QH KD", "9H TH AH", "9H", False, "must-win-trick", "TH AH", 0,
        id="000 Stichphase example: you may not play 9H (TH/AH beat the QH)"),
    row(P000, "S", "QH KD", "9H TH AH", "TH", True, None, "TH AH", 2,
        id="000 Stichphase example: you play TH, winning over partner Bill"),
    row(P000, "S", "QH KD", "9H TH AH", "AH", True, None, "TH AH", 2,
        id="000 Stichphase example: you play AH"),
    row(P000, "S", "QH KD AH", "QS KC 9D", "QS", True, None, "QS", 3,
        id="000 Stichphase example: Mike must trump and wins with QS"),
    row(P000, "S", "QH KD AH", "QS KC 9D", "KC", False, "must-trump", "QS", 2,
        id="000 Stichphase example: Mike may not discard KC"),
    row(P000, "S", "QH", "9H AS", "AS", False, "must-follow-suit", "9H", 1,
        id="000 Stichphase: the led suit must be followed"),
    row(P000, "S", "QH KS", "9S AS KC", "9S", False, "must-win-trick", "AS", 1,
        id="000 Stichphase: trumping, win the trick if able"),
    row(P000, "S", "QH AS", "9S KC", "KC", False, "must-trump", "9S", 1,
        id="000 Stichphase: void must trump even if the trump cannot win"),
    row(P000, "S", "QH 9S", "9H AH", "9H", True, None, "9H AH", 1,
        id="000 Stichphase: win duty lapses when following cannot win"),
    # ---------------------------------------------------------- 001 swabian-traditional
    row(P001, "H", "AC", "AC KC", "AC", True, None, "AC KC", 0,
        id="001 Stichkraft: of two equal aces the first played wins"),
    row(P001, "H", "KC", "QC AH", "AH", False, "must-follow-suit", "QC", 1,
        id="001 Ausspielen: Farbzwang"),
    row(P001, "H", "KC", "QC AC", "QC", False, "must-head-trick", "AC", 0,
        id="001 Ausspielen: Stichzwang, play a higher card"),
    row(P001, "H", "KC TC", "AC QC", "QC", False, "must-head-trick", "AC", 1,
        id="001 Ausspielen: Stichzwang above the highest already played"),
    row(P001, "H", "KC", "9H AS", "AS", False, "must-trump", "9H", 0,
        id="001 Ausspielen: Trumpfzwang"),
    row(P001, "H", "AC", "9H", "9H", True, None, "9H", 1,
        id="001 Ausspielen: a trump beats every card of another suit"),
    row(P001, "H", "KC JH", "9H AH AS", "9H", False, "must-overtrump", "AH", 1,
        id="001 Ausspielen: Stichzwang when trumping, beat the trump"),
    row(P001, "H", "KC 9H", "QC AC", "QC", True, None, "QC AC", 1,
        id="001 Ausspielen (reading): trick trumped, following cannot stechen"),
    row(P001, None, "9C", "AC JC 9C", "9C", False, "must-head-trick", "AC JC", 0,
        id="001 Bettel: no trump, Stichzwang still applies"),
    row(P001, None, "KC", "AH 9D", "AH", True, None, "AH 9D", 0,
        id="001 Der Durch: no trump, an off-suit ace does not win"),
    # --------------------------------------------------------------- 002 club-tournament
    row(P002, "H", "KC", "QC AC AH", "QC", False, "must-head-trick", "AC", 0,
        id="002 Normaler Spielablauf: follow and play a higher card"),
    row(P002, "H", "KC", "QC AH", "AH", False, "must-follow-suit", "QC", 1,
        id="002 Normaler Spielablauf: the led suit must be followed"),
    row(P002, "H", "AC", "AC TC", "AC", True, None, "AC TC", 0,
        id="002 Normaler Spielablauf: who first plays the highest card wins"),
    row(P002, "H", "KC", "JH AS", "AS", False, "must-trump", "JH", 0,
        id="002 Normaler Spielablauf: void, must trump"),
    row(P002, "H", "KC", "AS JD", "JD", True, None, "AS JD", 0,
        id="002 Normaler Spielablauf: no trump either, any card"),
    row(P002, "H", "KC QH", "JH KH AS", "JH", False, "must-overtrump", "KH", 1,
        id="002 Normaler Spielablauf: always overtrump when possible"),
    row(P002, "H", "KC JH", "QC AC", "QC", True, None, "QC AC", 1,
        id="002 Normaler Spielablauf (reading): trick trumped, no heading in led suit"),
    row(P002, None, "KC", "AH JD", "AH", True, None, "AH JD", 0,
        id="002 Der Durch: no trump, so a void player cannot win"),
    # ---------------------------------------------------------------------- 003 dabb-app
    row(P003, "S", "KH", "QH AS", "AS", False, "must-follow-suit", "QH", 1,
        id="003 Stiche 1: Farbzwang"),
    row(P003, "S", "KH", "QH TH", "QH", False, "must-head-trick", "TH", 0,
        id="003 Stiche 2: Stichzwang (Zehn beats Koenig)"),
    row(P003, "S", "KH", "TH", "TH", True, None, "TH", 1,
        id="003 Das Blatt: Zehn stronger than Koenig"),
    row(P003, "S", "KH JS", "QH AH", "QH", False, "must-head-trick", "AH", 1,
        id="003 Stiche 2: Stichzwang on the led suit even after a trump"),
    row(P003, "S", "KH", "JS AC", "AC", False, "must-trump", "JS", 0,
        id="003 Stiche 3: Trumpfzwang"),
    row(P003, "S", "KH QS", "JS AS AC", "JS", False, "must-overtrump", "AS", 1,
        id="003 Stiche 4: beat the highest trump"),
    row(P003, "S", "KH AS", "JS AC", "JS", True, None, "JS", 1,
        id="003 Stiche 4: cannot overtrump, still must trump"),
    row(P003, "S", "KH", "AC JD", "JD", True, None, "AC JD", 0,
        id="003 Stiche 5: Freie Wahl when neither following nor trumping"),
    row(P003, "S", "AH", "JS", "JS", True, None, "JS", 1,
        id="003 Stiche: Trumpf sticht immer Nicht-Trumpf"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("preset", "trump", "trick", "hand_cards", "card", "legal", "rule", "legal_cards", "winner"),
    PLAY_ROWS,
)
def test_play(
    preset: str,
    trump: str | None,
    trick: str,
    hand_cards: str,
    card: str,
    legal: bool,
    rule: str | None,
    legal_cards: str,
    winner: int,
) -> None:
    verdict = rules.check_play(
        rules.PRESETS[preset], trump, trick.split(), hand_cards.split(), card
    )
    assert verdict.legal is legal
    assert verdict.rule == rule
    assert verdict.legal_cards == tuple(legal_cards.split())
    assert verdict.winner == winner


WINNER_ROWS = [
    row("H", "AC KC AC", 0, id="001 Stichkraft: both Eichel-Asse, the first one wins"),
    row("H", "AC AC 9H", 2, id="001 Stichkraft: unless somebody trumped"),
    row("H", "9C JC", 1, id="001 Stichkraft: Unter > Siebener"),
    row("H", "JC QC", 1, id="001 Stichkraft: Ober > Unter"),
    row("H", "QC KC", 1, id="001 Stichkraft: Koenig > Ober"),
    row("H", "KC TC", 1, id="001 Stichkraft: Zehner > Koenig"),
    row("H", "TC AC", 1, id="001 Stichkraft: Ass > Zehner"),
    row("H", "9C AD", 0, id="001 Ausspielen: a card of a third suit never wins"),
    row("S", "QH QS QS 9H", 1, id="000 Stichphase example: Mike's QS; equal trumps, first wins"),
    row("H", "TC AC AC", 1, id="002 Normaler Spielablauf: first of the highest cards wins"),
    row("S", "AH JS", 1, id="003 Stiche: trump beats non-trump"),
    row("S", "AH TH", 0, id="003 Stiche: within the suit the stronger card wins"),
]


@pytest.mark.parametrize(("trump", "trick", "winner"), WINNER_ROWS)
def test_trick_winner(trump: str, trick: str, winner: int) -> None:
    assert rules.trick_winner(trick.split(), trump) == winner


# ==================================================================================== scores

# The club's pinned example hand: 3 seats, declarer 0, melds [140, 60, 20], tricks [175, 45, 30].
CLUB_MELDS = [140, 60, 20]
CLUB_TRICKS = [175, 45, 30]

SCORE_ROWS = [
    # ---------------------------------------------------------------- 000 partnership-250
    row(P000, hand(4, 0, 300, melds=[100, 40, 60, 20], tricks=[120, 50, 60, 20]),
        [340, 130, 340, 130], True,
        id="000 Punktewertung: team made 160+180 >= 300, each team melds + tricks"),
    row(P000, hand(4, 0, 340, melds=[100, 40, 60, 20], tricks=[120, 50, 60, 20]),
        [340, 130, 340, 130], True,
        id="000 Punktewertung: meeting the bid exactly (erfuellen) is made"),
    row(P000, hand(4, 0, 350, melds=[100, 40, 60, 20], tricks=[120, 50, 60, 20]),
        [-350, 130, -350, 130], False,
        id="000 Punktewertung: set, no points and bid deducted; opponents melds + tricks"),
    row(P000, hand(4, 0, 300, melds=[100, 40, 60, 20], tricks=[150, 0, 100, 0]),
        [410, 0, 410, 0], True,
        id="000 Punktewertung: team without trick points scores nothing"),
    row(P000, hand(4, 0, 300, melds=[100, 40, 60, 20], tricks=[150, 0, 100, 0],
                   tricks_taken=[6, 1, 5, 0]),
        [410, 0, 410, 0], True,
        id="000 Punktewertung: a trick without points still scores nothing"),
    row(P000, hand(4, 0, 300, melds=[100, 40, 60, 20], tricks=[150, 10, 90, 0]),
        [400, 70, 400, 70], True,
        id="000 Punktewertung: non-bidding team with 10 trick points scores melds + tricks"),
    row(P000, hand(4, 0, 330, "abgehen", melds=[40, 50, 20, 30]),
        [-330, 80, -330, 80], False,
        id="000 Ueberreizen example: bid 330, team melds 60, conceded"),
    row(P000, hand(4, 2, 320, "abgehen", melds=[40, 50, 20, 30]),
        [-320, 80, -320, 80], False,
        id="000 Ueberreizen: 320 > 60 + 250, partner seat may concede"),
    # ---------------------------------------------------------- 001 swabian-traditional
    row(P001, hand(3, 0, 200, melds=[60, 20, 40], tricks=[144, 55, 51]),
        [200, 80, 90], True,
        id="001 Zaehlen: rounded to tens, 144->140, 55->60, 51->50"),
    row(P001, hand(3, 0, 210, melds=[60, 20, 40], tricks=[146, 55, 49]),
        [-420, ANY, ANY], False,
        id="001 Zaehlen: jedes Auge zaehlt, 206 < 210 lost though 150+60 rounded"),
    row(P001, hand(3, 0, 210, melds=[60, 20, 40], tricks=[154, 45, 51]),
        [210, 70, 90], True,
        id="001 Zaehlen: exact 214 >= 210 made, credited rounded 150+60"),
    row(P001, hand(3, 0, 300, melds=[100, 20, 40], tricks=[150, 60, 40]),
        [-600, ANY, ANY], False,
        id="001 Zaehlen: lost, double the bid and melds forfeited"),
    row(P001, hand(3, 0, 250, melds=[60, 20, 40], tricks=[200, 50, 0],
                   tricks_taken=[10, 4, 0]),
        [260, 70, 0], True,
        id="001 Kombinationen: melds count only with a trick"),
    row(P001, hand(3, 0, 250, melds=[60, 20, 40], tricks=[200, 50, 0],
                   tricks_taken=[9, 4, 1]),
        [260, 70, 40], True,
        id="001 Kombinationen: one trick (of Siebener, 0 Augen) is enough"),
    row(P001, hand(3, 1, 250, "abgehen", melds=[30, 100, 50]),
        [60, -250, 80], False,
        id="001 Abgehen: -bid, the others their melds + 30 at 3 players"),
    row(P001, hand(4, 0, 250, "abgehen", melds=[100, 40, 60, 20]),
        [-250, 100, -250, 100], False,
        id="001 Abgehen: Kreuzbinokel, both partners -bid, others melds + 40"),
    row(P001, hand(3, 0, 200, melds=[100, 20, 40], tricks=[150, 60, 40],
                   penalty={"type": "falsch-druecken", "seat": 0}),
        [-400, ANY, ANY], False,
        id="001 Druecken: wrong discard, game lost at double the bid"),
    row(P001, hand(4, 0, 200, melds=[60, 20, 40, 0], tricks=[94, 41, 71, 44]),
        [270, 110, 270, 110], True,
        id="001 Zaehlen: Kreuzbinokel partners count together (165->170, 85->90)"),
    row(P001, hand(3, 1, 250, "durch", won=True), [0, 1000, 0], True,
        id="001 Der Durch: 1000"),
    row(P001, hand(3, 1, 250, "durch-aufgelegt", won=True), [0, 1500, 0], True,
        id="001 Der Durch: aufgelegt 1500"),
    row(P001, hand(3, 1, 250, "durch-ohne-dabb", won=True), [0, 2000, 0], True,
        id="001 Der Durch: aufgelegt von der Hand 2000"),
    row(P001, hand(3, 1, 250, "bettel", won=True), [0, 1000, 0], True,
        id="001 Bettel: 1000"),
    # --------------------------------------------------------------- 002 club-tournament
    row(P002, hand(3, 0, 300, melds=CLUB_MELDS, tricks=CLUB_TRICKS),
        [320, 110, 50], True,
        id="002 Normaler Spielablauf: won, melds + tricks rounded (175->180, 45->50)"),
    row(P002, hand(3, 0, 350, melds=CLUB_MELDS, tricks=CLUB_TRICKS),
        [-700, 210, 150], False,
        id="002 Verlorene Spiele: declarer -2x bid, melds struck, others +100"),
    row(P002, hand(3, 0, 320, melds=CLUB_MELDS, tricks=CLUB_TRICKS),
        [-640, 210, 150], False,
        id="002 Meldewerte: bid checked on exact 315 < 320 (rounded 320)"),
    row(P002, hand(3, 0, 310, melds=CLUB_MELDS, tricks=[174, 46, 30]),
        [310, 110, 50], True,
        id="002 Meldewerte: exact 314 >= 310 made, credited 140 + 170"),
    row(P002, hand(3, 0, 300, "abgehen", melds=CLUB_MELDS),
        [-300, 60, 20], False,
        id="002 Abschreiben: declarer -bid, melds not credited, others their melds"),
    row(P002, hand(3, 0, 300, melds=CLUB_MELDS, tricks=CLUB_TRICKS,
                   penalty={"type": "verwerfen", "seat": 1}),
        [ANY, -600, ANY], None,
        id="002 Verwerfen: a defender revokes, -2x bid and melds struck"),
    row(P002, hand(3, 0, 300, melds=CLUB_MELDS, tricks=CLUB_TRICKS,
                   penalty={"type": "verwerfen", "seat": 0}),
        [-600, ANY, ANY], False,
        id="002 Verwerfen: the declarer revokes, -2x bid and melds struck"),
    row(P002, hand(3, 0, 300, melds=CLUB_MELDS, tricks=CLUB_TRICKS,
                   penalty={"type": "falsch-druecken", "seat": 0}),
        [-600, 210, 150], False,
        id="002 Falsches Druecken: lost, -2x bid, others melds + tricks + 100"),
    row(P002, hand(3, 2, 200, "durch", won=True), [0, 0, 1000], True,
        id="002 Der Durch: all tricks +1000, the others 0"),
    row(P002, hand(3, 2, 200, "durch-aufgelegt", won=True), [0, 0, 1500], True,
        id="002 Der Durch: gelegter Durch +1500"),
    row(P002, hand(3, 2, 200, "durch-ohne-dabb", won=True), [0, 0, 2000], True,
        id="002 Der Durch: Durch ohne Tapp +2000"),
    row(P002, hand(3, 2, 200, "durch", won=False), [0, 0, -2000], False,
        id="002 Der Durch: lost -2000"),
    row(P002, hand(3, 2, 200, "durch-aufgelegt", won=False), [0, 0, -2000], False,
        id="002 Der Durch (reading): lost gelegter Durch -2000"),
    row(P002, hand(3, 2, 200, "durch-ohne-dabb", won=False), [0, 0, -2000], False,
        id="002 Der Durch (reading): lost Durch ohne Tapp -2000"),
    row(P002, hand(4, 1, 200, melds=[0, 60, 20, 40], tricks=[44, 94, 41, 71]),
        [110, 270, 110, 270], True,
        id="002 Die Spieler: 4 seats, team pools melds + tricks, 165->170"),
    row(P002, hand(4, 1, 300, melds=[0, 60, 20, 40], tricks=[44, 94, 41, 71]),
        [210, -600, 210, -600], False,
        id="002 Verlorene Spiele: 4 seats, team 265 < 300, other team +100"),
    # ---------------------------------------------------------------------- 003 dabb-app
    row(P003, hand(3, 0, 300, melds=CLUB_MELDS, tricks=CLUB_TRICKS),
        [315, 105, 50], True,
        id="003 Wertung: melds + trick points, exact"),
    row(P003, hand(3, 0, 320, melds=CLUB_MELDS, tricks=CLUB_TRICKS),
        [-320, 105, 50], False,
        id="003 Wertung: missed bid, bid deducted instead"),
    row(P003, hand(3, 0, 310, melds=CLUB_MELDS, tricks=[170, 50, 30]),
        [310, 110, 50], True,
        id="003 Wertung: mindestens sein Gebot, exactly the bid is made"),
    row(P003, hand(3, 0, 200, "abgehen", melds=[100, 60, 20]),
        [-200, 100, 60], False,
        id="003 Abgehen: -bid, each opponent melds + 40"),
    row(P003, hand(4, 0, 200, "abgehen", melds=[100, 60, 40, 20]),
        [-200, 120, -200, 120], False,
        id="003 Abgehen: 4 seats, the opposing team melds + 40"),
    row(P003, hand(2, 1, 200, "abgehen", melds=[60, 100]),
        [100, -200], False,
        id="003 Abgehen: 2 seats"),
    row(P003, hand(2, 0, 200, melds=[100, 40], tricks=[130, 120]),
        [230, 160], True,
        id="003 Spieler: 2 players, melds + trick points"),
    row(P003, hand(4, 0, 250, melds=[60, 20, 40, 0], tricks=[94, 41, 71, 44]),
        [265, 105, 265, 105], True,
        id="003 Spieler: 4 seats, team pools melds + tricks, exact"),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "record", "scores", "declarer_won"), SCORE_ROWS)
def test_score(
    preset: str, record: dict[str, Any], scores: list[Any], declarer_won: bool | None
) -> None:
    result = rules.score_request(rules.PRESETS[preset], record)
    assert result.scores == tuple(scores)
    if declarer_won is not None:
        assert result.declarer_won is declarer_won


# =============================================================================== validation

VALIDATION_ROWS = [
    row(P000, hand(4, 0, 240, melds=[0, 0, 0, 0], tricks=[120, 50, 60, 20]), "bid", "min_bid",
        id="000 Bieten: minimum bid 250"),
    row(P000, hand(4, 0, 255, melds=[0, 0, 0, 0], tricks=[120, 50, 60, 20]), "bid", "step",
        id="000 Bieten: raises of 10 or 20"),
    row(P000, hand(3, 0, 250, melds=[0, 0, 0], tricks=[120, 70, 60]), "seats", "seats",
        id="000 intro: played by four"),
    row(P000, hand(4, 0, 310, "abgehen", melds=[40, 50, 20, 30]),
        "outcome", "abgehen_not_allowed",
        id="000 Ueberreizen: bid 310 = 60 + 250 must be played"),
    row(P000, hand(4, 0, 250, "abgehen", melds=[0, 50, 0, 30]),
        "outcome", "abgehen_not_allowed",
        id="000 Ueberreizen: bid 250 <= 0 + 250 must be played"),
    row(P000, hand(4, 0, 300, melds=[0, 0, 0, 0], tricks=[135, 45, 50, 20]),
        "tricks[0]", "impossible",
        id="000 Punktewertung: all counters are 10, 135 is impossible"),
    row(P001, hand(3, 0, 200, melds=[60, 20, 40], tricks=[144, 55, 41]), "tricks", "sum",
        id="001 Werte: always 250 Augen"),
    row(P001, hand(3, 0, 200, "bettel", melds=[0, 40, 0], won=True),
        "melds", "no_melds_in_special",
        id="001 Bettel: nothing is melded"),
    row(P002, hand(3, 0, 140, melds=CLUB_MELDS, tricks=CLUB_TRICKS), "bid", "min_bid",
        id="002 Der Reizwert: at least 150"),
    row(P002, hand(3, 0, 165, melds=CLUB_MELDS, tricks=CLUB_TRICKS), "bid", "step",
        id="002 Der Reizwert: in steps of ten"),
    row(P002, hand(3, 0, 300, melds=CLUB_MELDS, tricks=[165, 45, 30]), "tricks", "sum",
        id="002 Wert der Spielkarten: tricks total 250"),
    row(P002, hand(3, 0, 200, "durch", melds=[0, 40, 0], won=True),
        "melds", "no_melds_in_special",
        id="002 Der Durch: nobody melds"),
    row(P002, hand(3, 0, 300, melds=CLUB_MELDS, tricks=CLUB_TRICKS,
                   penalty={"type": "falsch-druecken", "seat": 1}),
        "penalty.seat", "misdiscard_seat",
        id="002 Falsches Druecken: only the Spielfuehrer discards"),
    row(P003, hand(5, 0, 150, melds=[0] * 5, tricks=[50] * 5), "seats", "seats",
        id="003 Spieler: 2, 3 or 4 players"),
    row(P003, hand(3, 0, 140, melds=CLUB_MELDS, tricks=CLUB_TRICKS), "bid", "min_bid",
        id="003 Reizen: at least 150"),
    row(P003, hand(3, 0, 155, melds=CLUB_MELDS, tricks=CLUB_TRICKS), "bid", "step",
        id="003 Reizen: steps of 10"),
    row(P003, hand(3, 0, 150, melds=[0, 0, 0], tricks=[42, 100, 108],
                   tricks_taken=[0, 6, 6]),
        None, None,
        id="003 Der Dabb: discards (AC AS TC TD = 42) count for the declarer"),
    row(P003, hand(3, 1, 150, melds=[0, 0, 0], tricks=[42, 100, 108],
                   tricks_taken=[0, 6, 6]),
        "tricks[0]", "impossible",
        id="003 Der Dabb: a defender without a trick has no trick points"),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "record", "field", "code"), VALIDATION_ROWS)
def test_validation(
    preset: str, record: dict[str, Any], field: str | None, code: str | None
) -> None:
    ruleset = rules.PRESETS[preset]
    if field is None:
        assert rules.validate_record(ruleset, record) == []
        return
    with pytest.raises(rules.InvalidInput) as caught:
        rules.parse_record(ruleset, record)
    assert (field, code) in [(e.field, e.code) for e in caught.value.errors]


# ====================================================================== seed 000 examples


def test_000_worked_example_concession() -> None:
    """000 "Sich freiwillig überreizen": Bill (seat 0) bid 330; Bill and you (seat 2) meld
    60 together (40 + 20).  330 > 60 + 250, so Bill may give up: the team loses 330 and Mike
    and Lisa (seats 1, 3) score their melds.  Had the bid been 310 (= 60 + 250 or less) the
    hand would have to be played."""
    ruleset = rules.PRESETS[P000]
    conceded = hand(4, 0, 330, "abgehen", melds=[40, 70, 20, 10])
    result = rules.score_request(ruleset, conceded)
    assert result.scores == (-330, 80, -330, 80)
    assert result.declarer_won is False

    for bid in (310, 300, 250):
        with pytest.raises(rules.InvalidInput) as caught:
            rules.parse_record(ruleset, {**conceded, "bid": bid})
        assert [e.field for e in caught.value.errors] == ["outcome"]
        assert caught.value.errors[0].code == "abgehen_not_allowed"


def test_000_worked_example_trick() -> None:
    """000 "Stichphase" example, trump Pik: Bill leads QH; Lisa has neither hearts nor
    spades and may play anything; you hold 9H TH AH and must play TH or AH (9H breaks
    must-win-trick, even though partner Bill is winning); Mike has no hearts but QS, must
    trump and wins the trick."""
    ruleset = rules.PRESETS[P000]
    trick = ["QH"]
    lisa = ["AC", "KD", "9C", "JD"]
    for card in lisa:
        verdict = rules.check_play(ruleset, "S", trick, lisa, card)
        assert verdict.legal and verdict.rule is None and verdict.winner == 0
    trick.append("JD")

    you = ["9H", "TH", "AH"]
    bad = rules.check_play(ruleset, "S", trick, you, "9H")
    assert (bad.legal, bad.rule, bad.legal_cards) == (False, "must-win-trick", ("TH", "AH"))
    good = rules.check_play(ruleset, "S", trick, you, "TH")
    assert (good.legal, good.winner) == (True, 2)
    trick.append("TH")

    mike = ["QS", "KC", "9D", "JC"]
    assert rules.check_play(ruleset, "S", trick, mike, "KC").rule == "must-trump"
    wins = rules.check_play(ruleset, "S", trick, mike, "QS")
    assert (wins.legal, wins.legal_cards, wins.winner) == (True, ("QS",), 3)
    assert rules.trick_winner([*trick, "QS"], "S") == 3

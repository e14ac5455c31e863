"""Property-based tests (hypothesis) of the rules engine, for every preset.

1. Trick points of a fully played random deal add up to the ruleset's total (250) under every
   card-point scheme the field uses; trick counts and per-seat values are consistent.
2. :func:`rules.best_meld` equals an exhaustive search written here from the class rule.
3. :func:`rules.legal_cards` / :func:`rules.check_play` agree, never leave a player without a
   card, name a known obligation and pick the same trick winner as an independent oracle.
4. :func:`rules.parse_record` + :func:`rules.score_hand` never raise on valid records, keep
   the scoring invariants, and reject junk only with :class:`rules.InvalidInput`.

The oracles below are written from the rules as stated (docstrings, ``shared/GLOSSARY.md``),
not from the engine's algorithms; so are the card values, the sides and the records valid
by construction in ``tests/factories/records.py`` (shared with ``test_totals.py``).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.cards import SUITS, make_deck
from rules.play import legal_cards
from rules.ruleset import MeldSpec, Ruleset
from rules.simulate import deal_cards, play_out, simulate_hand
from tests.factories.records import card_value, sides, valid_records

PRESET_IDS = list(rules.PRESETS)
assert len(PRESET_IDS) == 4

# Trick-taking strength, strongest first A > T > K > Q > J > 9 (glossary; seed 001).
STRENGTH = {"A": 6, "T": 5, "K": 4, "Q": 3, "J": 2, "9": 1}

# ------------------------------------------------------------------------ helpers / oracles

CARD_POINT_SCHEMES: dict[str, dict[str, int] | None] = {
    "preset": None,
    "10-10-10-0-0-0": {"ace": 10, "ten": 10, "king": 10, "ober": 0, "unter": 0, "low": 0},
    "10-10-5-5-0-0": {"ace": 10, "ten": 10, "king": 5, "ober": 5, "unter": 0, "low": 0},
    "15-15-0-0-0-0": {"ace": 15, "ten": 15, "king": 0, "ober": 0, "unter": 0, "low": 0},
}


@functools.cache
def _scheme_ruleset(preset_id: str, scheme: str) -> Ruleset:
    base = rules.PRESETS[preset_id]
    points = CARD_POINT_SCHEMES[scheme]
    if points is None:
        return base
    return base.with_overrides({"card_points": points}, id=f"{preset_id}+{scheme}")


def oracle_winner(trick: Sequence[str], trump: str | None) -> int:
    """Index of the card winning ``trick``: trumps beat everything else, then the led suit;
    within those the stronger rank; of equal cards the first played.  Off-suit never wins."""
    led = trick[0][1]

    def key(i: int) -> tuple[bool, bool, int, int]:
        card = trick[i]
        return (card[1] == trump, card[1] == led, STRENGTH[card[0]], -i)

    return max(range(len(trick)), key=key)


def oracle_meld_instances(spec: MeldSpec, trump: str) -> list[Counter[str]]:
    """Every concrete card multiset a meld-table entry stands for under ``trump``."""
    if spec.suit == "fixed":
        return [Counter(spec.cards)]
    if spec.suit == "each":
        return [Counter(rank + suit for suit in SUITS for rank in spec.ranks)]
    if spec.suit == "trump":
        suits = [trump]
    elif spec.suit == "plain":
        suits = [s for s in SUITS if s != trump]
    else:  # "any"
        suits = list(SUITS)
    return [Counter(rank + suit for rank in spec.ranks) for suit in suits]


def _fits(need: Counter[str], have: Counter[str]) -> bool:
    return all(have[c] >= n for c, n in need.items())


def oracle_class_best(instances: list[tuple[int, Counter[str]]], hand: Counter[str]) -> int:
    """Brute force: try every multiplicity (0, 1, 2, ...) of every instance, in turn, that
    still fits the cards left; return the best total."""
    if not instances:
        return 0
    (points, need), rest = instances[0], instances[1:]
    best = 0
    used = 0
    left = Counter(hand)
    while True:
        best = max(best, used * points + oracle_class_best(rest, left))
        if not _fits(need, left):
            return best
        left.subtract(need)
        used += 1


def oracle_best_meld(ruleset: Ruleset, cards: Sequence[str], trump: str) -> int:
    """Best meld total: per class, each card serves in at most one meld; sum over classes."""
    hand = Counter(cards)
    by_class: dict[str, list[tuple[int, Counter[str]]]] = {}
    for spec in ruleset.melds:
        for need in oracle_meld_instances(spec, trump):
            by_class.setdefault(spec.klass, []).append((spec.points, need))
    return sum(oracle_class_best(instances, hand) for instances in by_class.values())


# ------------------------------------------------------------------ 1. trick points add up


@pytest.mark.parametrize("scheme", list(CARD_POINT_SCHEMES))
@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    trump=st.sampled_from([*SUITS, None]),
    data=st.data(),
)
def test_trick_points_of_a_played_deal_add_up(
    preset_id: str, scheme: str, seed: int, trump: str | None, data: st.DataObject
) -> None:
    ruleset = _scheme_ruleset(preset_id, scheme)
    assert ruleset.trick_points_total == 250
    pack_points = sum(card_value(ruleset, c) for c in make_deck(ruleset.deck_size))
    assert ruleset.trick_points_total == pack_points + ruleset.last_trick_bonus
    for seats in ruleset.seat_counts:
        deal_spec = ruleset.deal_for(seats)
        rng = random.Random(seed)
        dealt = deal_cards(ruleset, seats, rng)
        assert [len(h) for h in dealt.hands] == [deal_spec.cards_per_player] * seats
        assert len(dealt.dabb) == deal_spec.dabb
        assert Counter(c for h in dealt.hands for c in h) + Counter(dealt.dabb) == Counter(
            make_deck(ruleset.deck_size)
        )
        declarer = data.draw(st.integers(0, seats - 1), label=f"declarer@{seats}")
        leader = data.draw(st.integers(0, seats - 1), label=f"leader@{seats}")
        played = play_out(
            ruleset, dealt.hands, trump, leader, rng, declarer=declarer, discards=dealt.dabb
        )

        assert sum(played.points) == ruleset.trick_points_total
        assert sum(played.taken) == deal_spec.cards_per_player
        assert len(played.tricks) == deal_spec.cards_per_player
        for seat in range(seats):
            possible = rules.possible_trick_points(
                ruleset, seats, declarer=seat == declarer, tricks_taken=played.taken[seat]
            )
            assert played.points[seat] in possible, (seat, played.points, played.taken)
            # without a trick count the value must be possible too
            assert played.points[seat] in rules.possible_trick_points(
                ruleset, seats, declarer=seat == declarer
            )

        # Recount independently from the trick log: every card played once, right leaders.
        assert Counter(c for _, trick in played.tricks for c in trick) == Counter(
            c for h in dealt.hands for c in h
        )
        points = [0] * seats
        taken = [0] * seats
        expected_leader = leader
        for trick_leader, trick in played.tricks:
            assert trick_leader == expected_leader
            assert len(trick) == seats
            expected_leader = (trick_leader + oracle_winner(trick, trump)) % seats
            points[expected_leader] += sum(card_value(ruleset, c) for c in trick)
            taken[expected_leader] += 1
        points[expected_leader] += ruleset.last_trick_bonus
        points[declarer] += sum(card_value(ruleset, c) for c in dealt.dabb)
        assert tuple(points) == played.points
        assert tuple(taken) == played.taken
        # each card came from the hand of the seat whose turn it was (seats play in the
        # order of their numbers from the leader) and was one it was allowed to play
        remaining = [list(h) for h in dealt.hands]
        for trick_leader, trick in played.tricks:
            for i, card in enumerate(trick):
                seat = (trick_leader + i) % seats
                allowed, _ = legal_cards(ruleset, trump, list(trick[:i]), remaining[seat])
                assert card in allowed, (seat, card, trick[:i], remaining[seat])
                remaining[seat].remove(card)
        assert remaining == [[] for _ in range(seats)]


# --------------------------------------------------------------------- 2. best meld = oracle


def test_meld_oracle_on_known_hands() -> None:
    """The exhaustive search itself agrees with the seed texts' worked values."""
    club = rules.PRESETS["club-tournament"]
    rundgang = ["KC", "QC", "KS", "QS", "KH", "QH", "KD", "QD"]
    # 3 plain pairs (60) + trump pair (40) + four kings (80) + four obers (60) = 240
    assert oracle_best_meld(club, rundgang, "H") == 240
    # Binokel is its own class: QS JD score 40 on top of a plain pair in spades
    assert oracle_best_meld(club, ["QS", "JD", "KS"], "H") == 40 + 20
    # one King and two Ober of a suit make one pair only
    assert oracle_best_meld(club, ["KC", "QC", "QC"], "H") == 20
    # all eight aces: 1000, not two times four aces
    assert oracle_best_meld(club, [f"A{s}" for s in SUITS] * 2, "H") == 1000
    # a trump family beats its pair (the same King and Ober cannot do both)
    assert oracle_best_meld(club, ["AH", "TH", "KH", "QH", "JH"], "H") == 150


def _check_meld_result(ruleset: Ruleset, cards: list[str], trump: str) -> None:
    result = rules.best_meld(ruleset, cards, trump)
    assert result.total == oracle_best_meld(ruleset, cards, trump), (sorted(cards), trump)
    assert sum(m.points for m in result.melds) == result.total
    hand = Counter(cards)
    used_per_class: dict[str, Counter[str]] = {}
    for meld in result.melds:
        spec = ruleset.meld(meld.name)
        assert spec is not None, meld.name
        assert meld.points == spec.points
        assert Counter(meld.cards) in oracle_meld_instances(spec, trump), meld
        assert _fits(Counter(meld.cards), hand), meld
        used_per_class.setdefault(spec.klass, Counter()).update(meld.cards)
    for klass, used in used_per_class.items():
        assert _fits(used, hand), (klass, used)


def _max_hand(ruleset: Ruleset) -> int:
    return max(d.cards_per_player for d in ruleset.deals)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=60, deadline=None)
@given(data=st.data(), trump=st.sampled_from(SUITS))
def test_best_meld_matches_exhaustive_search_random_hands(
    preset_id: str, data: st.DataObject, trump: str
) -> None:
    ruleset = rules.PRESETS[preset_id]
    deck = make_deck(ruleset.deck_size)
    picks = data.draw(
        st.lists(st.integers(0, len(deck) - 1), unique=True, max_size=_max_hand(ruleset)),
        label="hand",
    )
    _check_meld_result(ruleset, [deck[i] for i in picks], trump)


@st.composite
def _targeted_hand(draw: st.DrawFn, ruleset: Ruleset) -> tuple[list[str], str]:
    """A hand (and a trump) that makes big melds likely: most of a "core" slice of the pack
    (one suit: families, double families, sequences; two suits; one or two ranks in every
    suit: four/eight of a kind; K + Q everywhere: Rundgang; Binokel cards), padded with a
    few other cards of the pack."""
    ranks = ruleset.ranks
    deck = make_deck(ruleset.deck_size)
    kind = draw(st.sampled_from(["one-suit", "two-suits", "ranks", "kq", "binokel"]))
    suits: list[str] = list(SUITS)
    chosen_ranks: Sequence[str] = ranks
    if kind == "one-suit":
        suits = [draw(st.sampled_from(SUITS))]
    elif kind == "two-suits":
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=2, unique=True))
    elif kind == "ranks":
        chosen_ranks = draw(st.lists(st.sampled_from(ranks), min_size=1, max_size=2, unique=True))
    elif kind == "kq":
        chosen_ranks = ("K", "Q")
    else:
        suits, chosen_ranks = ["S", "D"], ("Q", "J", "K")
    core = [c for c in deck if c[0] in chosen_ranks and c[1] in suits]
    rest = [c for c in deck if c not in core]
    max_hand = _max_hand(ruleset)
    drop = draw(st.integers(0, 3))
    keep = max(0, min(len(core), max_hand) - drop)
    picks = draw(st.lists(st.integers(0, len(core) - 1), unique=True, min_size=keep, max_size=keep))
    hand = [core[i] for i in picks]
    pad = draw(st.integers(0, max_hand - len(hand)))
    extra = draw(st.lists(st.integers(0, len(rest) - 1), unique=True, max_size=pad))
    hand += [rest[i] for i in extra]
    trump = draw(st.sampled_from(suits) | st.sampled_from(SUITS))
    return hand, trump


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_best_meld_matches_exhaustive_search_targeted_hands(
    preset_id: str, data: st.DataObject
) -> None:
    ruleset = rules.PRESETS[preset_id]
    cards, trump = data.draw(_targeted_hand(ruleset), label="hand, trump")
    assert len(cards) <= _max_hand(ruleset)
    _check_meld_result(ruleset, cards, trump)


# ------------------------------------------------------------------------- 3. legal cards

OBLIGATIONS = {
    "must-follow-suit",
    "must-head-trick",
    "must-trump",
    "must-overtrump",
    "must-win-trick",
}


@st.composite
def _situation(draw: st.DrawFn, ruleset: Ruleset) -> tuple[str | None, list[str], list[str], str]:
    seats = draw(st.sampled_from(ruleset.seat_counts))
    per_player = ruleset.deal_for(seats).cards_per_player
    trump = draw(st.sampled_from([*SUITS, None]))
    pack = draw(st.permutations(make_deck(ruleset.deck_size)))
    trick_len = draw(st.integers(0, seats - 1))
    hand_len = draw(st.integers(1, per_player))
    trick = list(pack[:trick_len])
    hand = list(pack[trick_len : trick_len + hand_len])
    card = hand[draw(st.integers(0, hand_len - 1))]
    return trump, trick, hand, card


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_legal_cards_and_check_play_agree(preset_id: str, data: st.DataObject) -> None:
    ruleset = rules.PRESETS[preset_id]
    trump, trick, hand, card = data.draw(_situation(ruleset))
    legal, broken = rules.legal_cards(ruleset, trump, trick, hand)
    verdict = rules.check_play(ruleset, trump, trick, hand, card)

    assert legal, "a player always has a legal card"
    assert len(set(legal)) == len(legal)
    assert set(legal) <= set(hand)
    assert tuple(legal) == verdict.legal_cards
    assert verdict.legal == (card in legal)
    win_rule = ruleset.play.heading == "win"
    names = (
        {"must-follow-suit", "must-win-trick", "must-trump"}
        if win_rule
        else {"must-follow-suit", "must-head-trick", "must-trump", "must-overtrump"}
    )
    if verdict.legal:
        assert verdict.rule is None
    else:
        assert verdict.rule in OBLIGATIONS
        assert verdict.rule in names
    for illegal in set(hand) - set(legal):
        assert broken.get(illegal) in names, (illegal, broken)

    assert verdict.winner == oracle_winner([*trick, card], trump)
    assert rules.trick_winner([*trick, card], trump) == oracle_winner([*trick, card], trump)

    # The plainly stated duties (PlayRules docstring), checked from the outside.
    if not trick:
        assert set(legal) == set(hand)
        return
    led = trick[0][1]
    holds_led = [c for c in hand if c[1] == led]
    trumps = [c for c in hand if trump is not None and c[1] == trump]
    if holds_led:
        if ruleset.play.must_follow_suit:
            assert all(c[1] == led for c in legal)
        if ruleset.play.heading == "led-suit":
            top = max(STRENGTH[c[0]] for c in trick if c[1] == led)
            higher = {c for c in holds_led if STRENGTH[c[0]] > top}
            if higher:
                assert set(legal) == higher
            else:
                assert set(legal) == set(holds_led)
        if verdict.rule == "must-follow-suit":
            assert card[1] != led
    elif trumps and ruleset.play.must_trump:
        assert all(c[1] == trump for c in legal)
        in_trick = [STRENGTH[c[0]] for c in trick if c[1] == trump]
        higher = {c for c in trumps if in_trick and STRENGTH[c[0]] > max(in_trick)}
        if ruleset.play.must_overtrump and higher:
            assert set(legal) == higher
        if not in_trick:
            assert set(legal) == set(trumps)
    else:
        # void in the led suit and no trump to play: no duty applies
        assert set(legal) == set(hand)


# ---------------------------------------------------------------------- 4. hand scoring


def _check_score(ruleset: Ruleset, record: rules.HandRecord, score: rules.HandScore) -> None:
    seats = record.seats
    assert len(score.scores) == seats
    assert all(isinstance(s, int) and not isinstance(s, bool) for s in score.scores)
    if seats == 4 and ruleset.partnerships:
        assert score.scores[0] == score.scores[2]
        assert score.scores[1] == score.scores[3]
    declarer_side = next(side for side in sides(ruleset, seats) if record.declarer in side)
    declarer_score = score.scores[record.declarer]
    if record.outcome in ("durch", "durch-aufgelegt", "durch-ohne-dabb", "bettel"):
        special = ruleset.special(record.outcome)
        assert special is not None
        for seat in range(seats):
            if seat not in declarer_side:
                assert score.scores[seat] == 0
        assert score.declarer_won is record.won
        assert declarer_score == (special.won if record.won else -special.lost)
    elif record.outcome == "abgehen":
        assert not score.declarer_won
        assert declarer_score < 0
    else:
        assert record.outcome == "played"
        if record.penalty is None:
            if not score.declarer_won:
                assert declarer_score < 0
            else:
                # made the bid on exact points; rounding moves trick points by < 5
                assert declarer_score >= record.bid - 4
        elif record.penalty.type == "falsch-druecken":
            assert not score.declarer_won
            assert declarer_score < 0
        else:  # verwerfen: the offender's side loses
            assert score.scores[record.penalty.seat] < 0


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_simulated_hands_score_without_error(
    preset_id: str, seed: int, data: st.DataObject
) -> None:
    ruleset = rules.PRESETS[preset_id]
    seats = data.draw(st.sampled_from(ruleset.seat_counts), label="seats")
    dealer = data.draw(st.integers(0, seats - 1), label="dealer")
    hand = simulate_hand(ruleset, seats, dealer, random.Random(seed))
    record = rules.parse_record(ruleset, hand.record.to_dict())
    assert record == hand.record
    score = rules.score_hand(ruleset, record)
    assert score == hand.score
    if record.tricks is not None:
        assert sum(record.tricks) == ruleset.trick_points_total
    _check_score(ruleset, record, score)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_built_records_parse_and_score(preset_id: str, data: st.DataObject) -> None:
    ruleset = rules.PRESETS[preset_id]
    raw = data.draw(valid_records(ruleset), label="record")
    try:
        record = rules.parse_record(ruleset, raw)
    except rules.InvalidInput as exc:  # pragma: no cover - a failure report
        pytest.fail(f"valid record rejected: {raw} -> {exc.errors}")
    assert record.to_dict() == raw
    score = rules.score_hand(ruleset, record)
    _check_score(ruleset, record, score)


_JUNK_KEYS = st.one_of(
    st.sampled_from(
        [
            "seats",
            "declarer",
            "bid",
            "outcome",
            "melds",
            "tricks",
            "tricks_taken",
            "won",
            "penalty",
            "type",
            "seat",
            "ruleset",
        ]
    ),
    st.text(max_size=6),
    st.integers(-3, 3),
    st.none(),
)
_JUNK_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 20),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([10**100, -(10**100), 2**63, 150, 250, 0, -10]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=10),
    st.sampled_from(
        ["played", "abgehen", "durch", "bettel", "verwerfen", "falsch-druecken", "", "AH"]
    ),
    st.binary(max_size=4),
)
JUNK = st.recursive(
    _JUNK_LEAVES,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.tuples(children, children),
        st.dictionaries(_JUNK_KEYS, children, max_size=6),
    ),
    max_leaves=25,
)


def _assert_only_invalid_input(ruleset: Ruleset, raw: object) -> None:
    try:
        record = rules.parse_record(ruleset, raw)
    except rules.InvalidInput as exc:
        assert exc.errors, "InvalidInput without errors"
        for error in exc.errors:
            assert isinstance(error, rules.FieldError)
            assert isinstance(error.field, str) and error.field != "", (raw, error)
            assert error.message
        return
    # accepted: it must then score without error
    score = rules.score_hand(ruleset, record)
    _check_score(ruleset, record, score)


@pytest.mark.parametrize("key", ["", 0, None, ("seats",)])
def test_unknown_odd_keys_are_named(key: object) -> None:
    """Regression found by the junk test: an unknown key ``""`` gave an error with field ``""``
    (``str(key)``), which a form cannot attach anywhere."""
    ruleset = rules.PRESETS["club-tournament"]
    raw = {"seats": 3, "declarer": 0, "bid": 150, "outcome": "abgehen", "melds": [0, 0, 0]}
    rules.parse_record(ruleset, raw)  # valid without the odd key
    with pytest.raises(rules.InvalidInput) as info:
        rules.parse_record(ruleset, {**raw, key: 1})
    assert [e.code for e in info.value.errors] == ["unknown"]
    assert all(e.field for e in info.value.errors)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=150, deadline=None)
@given(raw=JUNK)
def test_parse_record_junk_only_raises_invalid_input(preset_id: str, raw: object) -> None:
    _assert_only_invalid_input(rules.PRESETS[preset_id], raw)


@st.composite
def mutated_records(draw: st.DrawFn, ruleset: Ruleset) -> dict[Any, Any]:
    """A valid record with some fields deleted, replaced by junk, or list items spoiled."""
    record: dict[Any, Any] = draw(valid_records(ruleset))
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["delete", "replace", "item", "add", "penalty"]))
        key = draw(_JUNK_KEYS)
        if action == "delete":
            record.pop(draw(st.sampled_from(sorted(record, key=repr))), None)
        elif action == "replace" or action == "add":
            record[key] = draw(JUNK)
        elif action == "penalty":
            record["penalty"] = draw(
                st.fixed_dictionaries({"type": JUNK, "seat": JUNK})
                | st.fixed_dictionaries(
                    {"type": st.sampled_from(["verwerfen", "falsch-druecken"])},
                    optional={"seat": st.integers(-2, 5), "extra": JUNK},
                )
            )
        else:
            lists = [k for k, v in record.items() if isinstance(v, list) and v]
            if lists:
                k = draw(st.sampled_from(sorted(lists, key=repr)))
                items = list(record[k])
                items[draw(st.integers(0, len(items) - 1))] = draw(JUNK)
                record[k] = items
    return record


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_parse_record_mutated_records_only_raise_invalid_input(
    preset_id: str, data: st.DataObject
) -> None:
    ruleset = rules.PRESETS[preset_id]
    _assert_only_invalid_input(ruleset, data.draw(mutated_records(ruleset), label="record"))


@pytest.mark.parametrize("preset_id", list(rules.PRESETS))
def test_a_simulated_bid_rounds_down_to_a_bidding_step_and_is_at_least_the_minimum(
    preset_id: str,
) -> None:
    """:func:`rules.simulate._round_bid` turns the simulator's estimate into a bid: down to
    the ruleset's bidding steps, and never below the minimum bid."""
    from rules.simulate import _round_bid

    ruleset = rules.PRESETS[preset_id]
    low, step = ruleset.min_bid, ruleset.bid_step
    assert _round_bid(ruleset, 0) == low
    assert _round_bid(ruleset, low - 1) == low
    assert _round_bid(ruleset, low) == low
    assert _round_bid(ruleset, low + step - 1) == low
    assert _round_bid(ruleset, low + step) == low + step
    assert _round_bid(ruleset, low + 7 * step + 3) == low + 7 * step

"""Benchmark of the rules engine: best-meld time and scoring time per hand, per preset.

Run: ``python -m bench.rules_bench [--hands N] [--repeat R]``.  Hands are random deals
(seeded, so every run measures the same hands): each seat's cards with a random trump for
best meld, and a simulated, played-out hand record for scoring (validation + scoring, as the
web app calls it).  Prints median and 95th percentile in microseconds per hand; the first
pass over fresh hands (cold meld caches) is reported apart from the repeated passes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rules import PRESETS, Ruleset, best_meld, parse_record, score_hand
from rules.cards import SUITS
from rules.melds import _compile
from rules.simulate import deal_cards, simulate_hand


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _time_each(items, fn) -> list[float]:
    out = []
    for item in items:
        start = time.perf_counter_ns()
        fn(item)
        out.append((time.perf_counter_ns() - start) / 1000)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per preset (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="warm passes (default 5)")
    args = parser.parse_args(argv)

    print(
        f"{'preset':<22}{'meld cold p50':>14}{'meld p50':>10}{'meld p95':>10}"
        f"{'score p50':>11}{'score p95':>11}   (µs per hand)"
    )
    for ruleset in PRESETS.values():
        print(_bench_preset(ruleset, args.hands, args.repeat))
    print(
        f"hands per preset: {args.hands}, warm passes: {args.repeat}, "
        f"table size: 3 (partnership-250: 4)"
    )


def _bench_preset(ruleset: Ruleset, hands: int, repeat: int) -> str:
    """One table row for ``ruleset``: meld and scoring times over ``hands`` seeded hands."""
    rng = random.Random(20261121)
    seats = 3 if 3 in ruleset.seat_counts else ruleset.seat_counts[0]
    meld_cases: list[tuple[list[str], str]] = []
    while len(meld_cases) < hands:
        dealt = deal_cards(ruleset, seats, rng)
        meld_cases.extend((list(hand), rng.choice(SUITS)) for hand in dealt.hands)
    meld_cases = meld_cases[:hands]
    records = [simulate_hand(ruleset, seats, i % seats, rng).record.to_dict() for i in range(hands)]

    def meld(case: tuple[list[str], str]) -> None:
        best_meld(ruleset, case[0], case[1])

    def score(record: dict) -> None:
        score_hand(ruleset, parse_record(ruleset, record))

    _compile.cache_clear()
    cold = _time_each(meld_cases, meld)
    warm: list[float] = []
    scoring: list[float] = []
    for _ in range(repeat):
        warm += _time_each(meld_cases, meld)
        scoring += _time_each(records, score)
    return (
        f"{ruleset.id:<22}{statistics.median(cold):>14.1f}{statistics.median(warm):>10.1f}"
        f"{_percentile(warm, 0.95):>10.1f}{statistics.median(scoring):>11.1f}"
        f"{_percentile(scoring, 0.95):>11.1f}"
    )


if __name__ == "__main__":
    main()

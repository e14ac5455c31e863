"""Rare meld totals: attainable, but so seldom held that a typed one deserves a second look.

A total above what only 1 in 1,000 hands reach (e.g. 1000 for eight Aces) is not refused —
some evening somebody holds it — but the web form asks "wirklich?" before saving it.  The
thresholds come from a simulation run once per ruleset, not at request time:
:func:`simulate_threshold` deals and melds hands with :func:`rules.simulate.simulate_hand`
(the declarer takes the Dabb, chooses trump and discards) and returns the 99.9th percentile
of the per-seat meld totals; ``scripts/meld_thresholds.py`` runs it for every preset and
table size and writes :mod:`rules.meldrare_table`.  A ruleset whose meld table, pack, deals
and card points (its :func:`rules.meldrange.meld_fingerprint`) match no stored row gets no
rare-meld warning.
"""

from __future__ import annotations

import random
from math import ceil

from .errors import FieldError
from .meldrange import meld_fingerprint
from .meldrare_table import RARE_THRESHOLDS
from .record import HandRecord
from .ruleset import Ruleset
from .simulate import simulate_hand

RARE_SHARE = 1 / 1000
"""A meld total held by at most this share of simulated hands is rare."""


def simulate_threshold(ruleset: Ruleset, seats: int, hands: int, seed: int = 0) -> int:
    """The per-seat meld total that at most :data:`RARE_SHARE` of simulated seats exceed.

    Plays ``hands`` hands at a table of ``seats`` (dealer rotating, random generator seeded
    with ``seed``) and takes every seat's meld total as the clerk would enter it.  Pure and
    deterministic; takes about 3 ms per hand.
    """
    rng = random.Random(seed)
    values: list[int] = []
    for n in range(hands):
        values.extend(simulate_hand(ruleset, seats, n % seats, rng).record.melds or ())
    values.sort()
    return values[max(0, ceil(len(values) * (1 - RARE_SHARE)) - 1)]


def rare_threshold(ruleset: Ruleset, seats: int) -> int | None:
    """The stored threshold for ``ruleset`` at ``seats`` (game points), ``None`` if none
    is stored for its meld fingerprint and table size."""
    row = RARE_THRESHOLDS.get(meld_fingerprint(ruleset))
    return None if row is None else row.get(seats)


def meld_warnings(ruleset: Ruleset, record: HandRecord) -> list[FieldError]:
    """Warnings (not errors) for the rare meld totals of a valid hand record: one
    :class:`FieldError` per seat whose melds exceed :func:`rare_threshold`, field
    ``melds[i]``, code ``meld_rare``, params ``value`` and ``threshold``."""
    threshold = rare_threshold(ruleset, record.seats)
    if threshold is None or record.melds is None:
        return []
    return [
        FieldError(
            f"melds[{i}]",
            f"meld {value} is rare: fewer than 1 in 1,000 hands hold more than {threshold}",
            code="meld_rare",
            params={"value": value, "threshold": threshold},
        )
        for i, value in enumerate(record.melds)
        if value > threshold
    ]

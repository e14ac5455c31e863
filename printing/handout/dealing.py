"""The handout's first two sections, from the ruleset's deal and bidding: "Spieler und
Karten" (pack, deal, seating) and "Reizen, Dabb und Trumpf" (bidding, the Dabb,
discarding, trump)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.cards import SUITS

from .context import Context
from .model import Section


def players_section(c: Context) -> Section:
    """Section 1, "Spieler und Karten": the pack (``deck_size``), the deal at each table
    size played (``deals.<seats>``), the direction of deal, bidding and play
    (``direction``), the dealer's rotation (``dealer_rotation``, the tournament's rule), and
    at four either the dealer sitting out (``four_table_mode``, the tournament's choice) or
    the partnerships (``partnerships``)."""
    ruleset = c.ruleset
    lang = c.lang
    w = c.words
    st = c.st
    in_play = c.in_play
    sit_out = c.sit_out
    has_dabb = c.has_dabb
    ranks = c.ranks
    clockwise = c.clockwise
    s = Section(_("Spieler und Karten"))
    if ruleset.deck_size == 48:
        with_lows = w.lows if lang == "en" or w.lows == "Neunen" else "Siebenern"
        pack = _("%(n)s Karten (mit %(low)s)") % {"n": 48, "low": with_lows}
    else:
        pack = _("%(n)s Karten (ohne %(low)s)") % {"n": 40, "low": w.lows}
    s.paragraphs.append(
        [
            st(
                "deck_size",
                _("%(pack)s: %(ranks)s in %(suits)s, jede Karte zweimal.")
                % {
                    "pack": pack,
                    "ranks": ", ".join(w.rank(r) for r in ranks),
                    "suits": ", ".join(w.suit(x) for x in SUITS),
                },
            )
        ]
    )
    deals = []
    for deal in ruleset.deals:
        if deal.seats not in in_play:
            continue
        if deal.dabb:
            text = _("Zu %(seats)s: je %(cards)s Karten, %(dabb)s in den %(name)s.") % {
                "seats": deal.seats,
                "cards": deal.cards_per_player,
                "dabb": deal.dabb,
                "name": w.dabb,
            }
        else:
            text = _("Zu %(seats)s: je %(cards)s Karten.") % {
                "seats": deal.seats,
                "cards": deal.cards_per_player,
            }
        deals.append(st(f"deals.{deal.seats}", text))
    s.paragraphs.append(deals)
    seating = [
        st(
            "direction",
            (
                (
                    _("Gegeben, gereizt und gespielt wird im Uhrzeigersinn (nach links).")
                    if clockwise
                    else _(
                        "Gegeben, gereizt und gespielt wird gegen den Uhrzeigersinn (nach rechts)."
                    )
                )
                if has_dabb
                else _("Gegeben, geboten und gespielt wird im Uhrzeigersinn (nach links).")
                if clockwise
                else _("Gegeben, geboten und gespielt wird gegen den Uhrzeigersinn (nach rechts).")
            ),
        ),
        st(
            "dealer_rotation",
            _("In dieser Richtung wechselt auch der Geber."),
            # a statement of its own (issue 37.11): a seed may give the direction (seed
            # 001 "Geben", "Ausspielen"), but who deals which game of a round the
            # tournament fixes, its score sheets name the dealer of every game
            house=True,
        ),
    ]
    if sit_out and 4 in ruleset.seat_counts:
        seating.append(
            st(
                "four_table_mode",
                _("Am Vierertisch setzt der Geber aus; die anderen drei spielen wie zu dritt."),
                # the tournament's choice: the seeds that seat four play in teams
                house=True,
            )
        )
    elif ruleset.partnerships:
        seating.append(
            st(
                "partnerships",
                _(
                    "Zu viert spielen die Gegenübersitzenden als eine Partei zusammen; ihre "
                    "Meldungen und Stichpunkte zählen gemeinsam."
                ),
            )
        )
    s.paragraphs.append(seating)
    return s


def bidding_section(c: Context) -> Section:
    """Section 2, "Reizen, Dabb und Trumpf" ("Bieten und Trumpf" without a Dabb): who bids
    first (``first_bidder``), the minimum bid and step (``min_bid``), the largest raise
    (``max_raise``), what happens when all pass (``all_pass``), taking up the Dabb and
    discarding (``dabb``, ``discard_melds``; without a Dabb ``declarer``) and the
    partners' exchange of cards (``partner_exchange``)."""
    ruleset = c.ruleset
    w = c.words
    st = c.st
    has_dabb = c.has_dabb
    low = c.low
    side = c.side
    s = Section(
        _("Reizen, %(dabb)s und Trumpf") % {"dabb": w.dabb} if has_dabb else _("Bieten und Trumpf")
    )
    bidding = [
        st(
            "first_bidder",
            (
                _("Der Spieler %(side)s vom Geber reizt zuerst.")
                if has_dabb
                else _("Der Spieler %(side)s vom Geber bietet zuerst.")
            )
            % {"side": side},
        ),
        st(
            "min_bid",
            (
                _("Gereizt wird ab %(min)s in Schritten von %(step)s.")
                if has_dabb
                else _("Geboten wird ab %(min)s in Schritten von %(step)s.")
            )
            % {"min": ruleset.min_bid, "step": ruleset.bid_step},
            "bid_step",
        ),
    ]
    if ruleset.max_raise is not None:
        bidding.append(
            st(
                "max_raise",
                _("Erhöht wird um höchstens %(n)s.") % {"n": ruleset.max_raise},
            )
        )
    bidding.append(
        st(
            "all_pass",
            {
                "first-bidder-must-bid": _(
                    "Der erste Bieter muss mindestens das Mindestgebot reizen."
                ),
                "dealer-takes-minimum": _("Passen alle, spielt der Geber zum Mindestgebot."),
                "redeal": _("Passen alle, wird neu gegeben."),
            }[ruleset.all_pass],
        )
    )
    s.paragraphs.append(bidding)
    if has_dabb:
        dabb = [
            st(
                "dabb",
                _(
                    "Wer am höchsten reizt, ist Spielführer: er nimmt den %(dabb)s auf, bestimmt "
                    "Trumpf und drückt ebenso viele Karten."
                )
                % {"dabb": w.dabb},
            )
        ]
        if ruleset.discard_melds != "free":
            text = _("Er darf keine Karte drücken, die er meldet.")
            if ruleset.meld("dix") is not None:
                text += " " + _(
                    "Ausgenommen ist der Trumpf-%(low)s: er zählt trotzdem als gemeldet, das "
                    "Drücken muss er ansagen."
                ) % {"low": low}
            dabb.append(st("discard_melds", text))
        s.paragraphs.append(dabb)
    else:
        s.paragraphs.append(
            [st("declarer", _("Wer am höchsten bietet, ist Spielführer und bestimmt Trumpf."))]
        )
    if ruleset.partner_exchange:
        s.paragraphs.append(
            [
                st(
                    "partner_exchange",
                    _(
                        "Dann gibt ihm sein Partner genau %(n)s Karten und bekommt %(n)s "
                        "zurück, ohne Absprache; die Gegner tauschen nicht."
                    )
                    % {"n": ruleset.partner_exchange},
                )
            ]
        )
    return s

"""A tournament itself: create one with a frozen copy of its ruleset and its empty rounds
(:func:`create_tournament`), and who may enter and confirm its results
(:func:`may_enter`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from rules import PRESETS, RulesetError

from ..engine_messages import ruleset_message
from ..models import Round, Tournament
from .seating import fours_only


def create_tournament(
    *,
    name: str,
    date: date,
    venue: str = "",
    preset: str = "club-tournament",
    overrides: dict | None = None,
    rounds: int = 3,
    games_per_round: int = 12,
    four_table_mode: str = Tournament.FourTableMode.SIT_OUT,
    entry_mode: str = Tournament.EntryMode.HANDS,
    lost_game_fee: Decimal | None = None,
    confirmation_required: bool = False,
    mark_unconfirmed: bool = True,
    missed_rounds: str = Tournament.MissedRounds.ZERO,
    tie_break: str = Tournament.TieBreak.SHARED,
    event_type: str = Tournament.EventType.INDIVIDUAL,
    clerks: Sequence = (),
    round_minutes: int | None = None,
) -> Tournament:
    """Create a tournament with a frozen copy of ``preset`` (plus ``overrides``) and its
    ``rounds`` empty rounds.  ``confirmation_required``: every entry must be confirmed by a
    second account; ``mark_unconfirmed``: the public standings then flag provisional points.
    ``missed_rounds``: how the overall standings treat a player who missed a round
    (``Tournament.MissedRounds``); ``tie_break``: how equal totals are ordered
    (``Tournament.TieBreak``).  ``clerks``: the accounts that may enter results (more can be added in the admin).
    ``event_type``: individual (default) or fixed pairs (``Tournament.EventType``).
    ``round_minutes``: the planned length of a round for the round clock (10 … 600, or
    ``None``: no clock; it can be changed on the console later).

    A ruleset played only at tables of four (``partnership-250``, seed 000: four players,
    partners opposite) makes every table a table of four: ``four_table_mode`` must then be
    ``kreuz`` (all four play) and the games per round a multiple of 4.  A pairs event needs
    such a ruleset with partnerships.  Raises ``ValidationError`` naming the field for an
    unknown preset, overrides the ruleset rejects, a ruleset with neither 3- nor 4-player
    tables, those combinations, or a number of games the tables cannot share evenly."""
    errors: dict[str, list[str]] = {}
    ruleset = None
    if preset not in PRESETS:
        errors["preset"] = [_("Unbekanntes Regelwerk: %(p)s") % {"p": preset}]
    else:
        try:
            ruleset = PRESETS[preset].with_overrides(overrides) if overrides else PRESETS[preset]
        except RulesetError as exc:
            errors["overrides"] = [ruleset_message(e) for e in exc.errors]
    fours = ruleset is not None and fours_only(ruleset)
    if ruleset is not None and 3 not in ruleset.seat_counts and not fours:
        errors["preset"] = [
            _("Dieses Regelwerk kennt weder Dreier- noch Vierertische; Turniere spielen zu dritt.")
        ]
    if fours and four_table_mode == Tournament.FourTableMode.SIT_OUT:
        errors["four_table_mode"] = [
            _(
                "Dieses Regelwerk spielt nur zu viert, alle vier spielen mit (Partner "
                "gegenüber): bitte „Kreuzbinokel (2 gegen 2)“ wählen."
            )
        ]
    if event_type == Tournament.EventType.PAIRS and not (fours and ruleset.partnerships):
        errors["event_type"] = [
            _(
                "Paarwertung gibt es nur mit einem Regelwerk, das an Vierertischen mit "
                "festen Partnern gegenüber spielt (Partnerschaft 250)."
            )
        ]
    if fours and games_per_round % 4:
        errors["games_per_round"] = [
            _(
                "An Vierertischen muss die Spielzahl durch 4 teilbar sein, damit jeder gleich "
                "oft gibt."
            )
        ]
    elif not fours and games_per_round % 3:
        errors["games_per_round"] = [
            _("Die Spielzahl muss durch 3 teilbar sein, damit jeder gleich oft gibt.")
        ]
    if round_minutes is not None and not 10 <= round_minutes <= 600:
        errors["round_minutes"] = [
            _("Geplante Dauer je Runde: 10 bis 600 Minuten, oder leer lassen (keine Rundenuhr).")
        ]
    if errors:
        raise ValidationError(errors)
    assert ruleset is not None
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            date=date,
            venue=venue,
            preset=preset,
            ruleset_json=ruleset.to_dict(),
            ruleset_fingerprint=ruleset.fingerprint,
            rounds=rounds,
            games_per_round=games_per_round,
            four_table_mode=four_table_mode,
            entry_mode=entry_mode,
            lost_game_fee=lost_game_fee,
            confirmation_required=confirmation_required,
            mark_unconfirmed=mark_unconfirmed,
            missed_rounds=missed_rounds,
            tie_break=tie_break,
            event_type=event_type,
            round_minutes=round_minutes,
        )
        Round.objects.bulk_create(
            Round(tournament=tournament, number=n) for n in range(1, rounds + 1)
        )
        tournament.clerks.set(clerks)
    return tournament


def may_enter(user, tournament: Tournament) -> bool:
    """Whether ``user`` may enter and confirm results of ``tournament``: its director
    (``tournament.change_tournament``) or an account listed among its ``clerks``."""
    if user is None or not user.is_authenticated:
        return False
    if user.has_perm("tournament.change_tournament"):
        return True
    return tournament.clerks.filter(pk=user.pk).exists()

"""The director's rulings on a hand (a claim, a decision and its consequence), kept with
the hand and re-scored through the engine."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import Table, Tournament

from ..models import Hand, Ruling
from .access import (
    check_writable,
)
from .evaluation import (
    hand_input_from,
)
from .hands import (
    game_number_error,
    save_hand,
)

logger = logging.getLogger(__name__)


def record_ruling(
    table: Table,
    *,
    hand_number: int,
    claim: str,
    decision: str,
    consequence: str,
    offender: int | None,
    user,
) -> tuple[Ruling | None, dict[str, list[str]]]:
    """Record a director's ruling on a dispute at ``table`` and apply its consequence.

    ``consequence`` is ``""`` (the ruling changes no score), ``"verwerfen"`` (revoke by the
    player at table position ``offender``) or ``"falsch-druecken"`` (misdiscard by the
    declarer).  A penalty is set on the stored hand ``hand_number`` and the hand is scored
    again by the rules engine under the tournament's ruleset (seed texts: "Verwerfen",
    "Falsch drücken"), as a correction whose reason is the decision; the engine's
    objections (e.g. the ruleset has no such penalty, only the declarer can misdiscard) come
    back as errors on ``consequence``/``offender``.  Ruling and corrected hand are stored in
    one transaction.  Returns ``(ruling, errors)``; ``ruling`` is ``None`` and nothing is
    written when ``errors`` is not empty.  Raises :class:`~scoring.errors.EntryRefused` as
    :func:`check_writable` (a closed round only by the director).
    """
    round_ = table.round
    tournament = round_.tournament
    check_writable(round_, tournament.entry_mode, user)
    errors: dict[str, list[str]] = {}
    if message := game_number_error(tournament, hand_number):
        return None, {"hand_number": [message]}
    claim, decision = claim.strip(), decision.strip()
    if not claim:
        errors["claim"] = [_("Bitte angeben, was beanstandet wurde.")]
    if not decision:
        errors["decision"] = [_("Bitte die Entscheidung angeben.")]
    hand = Hand.objects.filter(table=table, number=hand_number).first()
    if consequence:
        if tournament.entry_mode != Tournament.EntryMode.HANDS:
            errors.setdefault("consequence", []).append(
                _("Im Papiermodus wird die Strafe auf dem Spielblatt eingetragen.")
            )
        elif hand is None:
            errors.setdefault("hand_number", []).append(
                _("Spiel %(n)s ist noch nicht erfasst; bitte zuerst das Spiel eintragen.")
                % {"n": hand_number}
            )
        if offender is None:
            errors.setdefault("offender", []).append(_("Bitte den Spieler angeben."))
    elif offender is not None:
        errors.setdefault("offender", []).append(
            _("Ohne Strafe wird kein Spieler bestraft; bitte Folge wählen oder Feld leeren.")
        )
    if errors:
        return None, errors
    with transaction.atomic():
        if consequence:
            assert hand is not None
            entry = hand_input_from(hand, penalty_type=consequence, penalty_seat=offender)
            saved, evaluation = save_hand(
                table,
                entry,
                user,
                expected_version=hand.version,
                reason=_("Entscheidung der Turnierleitung: %(d)s") % {"d": decision},
            )
            if saved is None:
                for name, messages in evaluation.errors.items():
                    slot = {"penalty_type": "consequence", "penalty_seat": "offender"}.get(
                        name, "__all__"
                    )
                    errors.setdefault(slot, []).extend(messages)
                return None, errors
            hand = saved
        ruling = Ruling.objects.create(
            table=table,
            hand_number=hand_number,
            hand=hand,
            claim=claim,
            decision=decision,
            consequence=consequence,
            offender=offender,
            hand_version=hand.version if hand is not None else None,
            decided_by=user,
        )
    return ruling, {}

"""The director's round actions: draw, start and close a round, each confirmed first
where it would undo or skip something."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament import services as tournament_services
from tournament.models import Round

from .. import links, services

ROUND_ACTIONS = ("auslosen", "starten", "abschliessen")


@login_required
@permission_required("tournament.change_round", raise_exception=True)
@require_POST
def round_action(request: HttpRequest, pk: int, round_number: int, action: str) -> HttpResponse:
    """Director: draw (``auslosen``), start (``starten``) or close (``abschliessen``) a round.

    What cannot be undone (a new draw over an existing one, a start, a close) is done only
    when the POST carries ``bestaetigt=1``; without it the page asks first, saying what will
    happen (no JavaScript needed).  Closing a round with missing or unconfirmed entries
    needs a ``grund``, which is stored and printed on the results list; without it (or with
    one too long) the page asks again, with the message at the field."""
    if action not in ROUND_ACTIONS:
        raise Http404(action)
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=round_number
    )
    seed = (request.POST.get("seed") or "").strip()
    reason = (request.POST.get("grund") or "").strip()
    if request.POST.get("bestaetigt") != "1" and _asks_first(round_, action):
        return _confirm_round_action(request, round_, action, seed, reason)
    try:
        if action == "auslosen":
            if seed and not re.fullmatch(r"[0-9]{1,15}", seed):
                raise ValidationError(
                    _("Startwert (Seed): bitte eine ganze Zahl mit höchstens 15 Ziffern eingeben.")
                )
            plan = tournament_services.draw_round(round_, int(seed) if seed else None)
            messages.success(
                request,
                _("Runde %(n)s ausgelost (Seed %(seed)s, %(r)s Wiederholungen).")
                % {"n": round_.number, "seed": round_.seed, "r": plan.repeats},
            )
        elif action == "starten":
            links.start_round(round_, request.user)
            messages.success(request, _("Runde %(n)s läuft.") % {"n": round_.number})
        else:
            services.close_round(round_, reason=reason)
            messages.success(request, _("Runde %(n)s abgeschlossen.") % {"n": round_.number})
    except services.RoundIncomplete as exc:
        return _confirm_round_action(
            request,
            round_,
            action,
            seed,
            reason,
            error=exc.messages[0],
            reason_error=_(
                "Grund: bitte angeben, warum die Runde trotz fehlender oder unbestätigter "
                "Eingaben abgeschlossen wird; ohne Grund bleibt sie offen."
            ),
        )
    except ValidationError as exc:
        if action == "abschliessen" and getattr(exc, "code", None) == "reason":
            return _confirm_round_action(
                request, round_, action, seed, reason, reason_error=exc.messages[0]
            )
        for message in exc.messages:
            messages.error(request, message)
    return redirect("scoring:clerk", pk=pk)


def _asks_first(round_: Round, action: str) -> bool:
    """Whether ``action`` would change something that cannot be undone: a new draw over an
    existing one, a start, a close.  The first draw loses nothing, and an action the round's
    state refuses anyway is refused at once with its message."""
    if action == "abschliessen":
        return round_.status == Round.Status.RUNNING
    if round_.status != Round.Status.PLANNED or not round_.tables.exists():
        return False
    if action == "starten":  # refused at once while an earlier round is open
        return tournament_services.first_open_round_before(round_) is None
    return True


def _confirm_round_action(
    request: HttpRequest,
    round_: Round,
    action: str,
    seed: str,
    reason: str,
    error: str = "",
    reason_error: str = "",
) -> HttpResponse:
    """The page that asks before a round action, with what it will do (and, for a close,
    which entries are missing or unconfirmed and a field for the reason, with
    ``reason_error`` beside it)."""
    closing = action == "abschliessen"
    missing = services.missing_entries(round_) if closing else []
    unconfirmed = services.unconfirmed_entries(round_) if closing else []
    return render(
        request,
        "scoring/round_confirm.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "action": action,
            "seed": seed,
            "reason": reason,
            "missing": [m.describe() for m in missing],
            "unconfirmed": [m.describe() for m in unconfirmed],
            "error": error,
            "reason_error": reason_error,
        },
        status=422 if error or reason_error else 200,
    )

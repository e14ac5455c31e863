"""Withdrawal pages: withdraw a player ("abmelden", after asking) and undo a withdrawal
("wieder anmelden", asking first when a draw would be deleted); the rounds that lost
their draw are named so the director draws them again.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from .. import services
from ..models import Tournament


def _confirmed(request: HttpRequest) -> bool:
    """Whether the request is the POST of a confirmation page (``bestaetigt=1``)."""
    return request.method == "POST" and request.POST.get("bestaetigt") == "1"


def _report_cleared_draws(request: HttpRequest, cleared) -> None:
    """Tell the director which rounds lost their draw and must be drawn again."""
    for round_ in cleared:
        messages.warning(
            request,
            _("Die Auslosung von Runde %(n)s ist gelöscht: bitte Runde %(n)s neu auslosen.")
            % {"n": round_.number},
        )


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
@require_http_methods(["GET", "HEAD", "POST"])
def withdraw(request: HttpRequest, pk: int, start_number: int) -> HttpResponse:
    """Withdraw a player ("abmelden") from the next draw on; results so far stay.

    Asks first: a GET, or a POST without ``bestaetigt=1`` (the button on the registrations
    page, a stray click, an old form), only shows the question naming the player, the start
    number and the round the withdrawal comes after (:func:`services.withdrawal_round`).
    Only the confirming POST withdraws (:func:`services.withdraw`); a player already
    withdrawn goes back to the list with that message.  404 for an unknown tournament or
    start number."""
    tournament = get_object_or_404(Tournament, pk=pk)
    reg = get_object_or_404(
        tournament.registrations.select_related("player"), start_number=start_number
    )
    if _confirmed(request):
        try:
            cleared = services.withdraw(reg)
        except ValidationError as exc:
            for error in exc.messages:
                messages.error(request, error)
        else:
            messages.success(request, _("%(name)s ist abgemeldet.") % {"name": reg.player})
            _report_cleared_draws(request, cleared)
        return redirect("tournament:registrations", pk=pk)
    if reg.withdrawn_after_round is not None:
        messages.error(
            request,
            _("%(name)s ist schon abgemeldet (%(when)s).")
            % {"name": reg.player, "when": services.withdrawal_text(reg.withdrawn_after_round)},
        )
        return redirect("tournament:registrations", pk=pk)
    after = services.withdrawal_round(tournament)
    return render(
        request,
        "tournament/withdraw_confirm.html",
        {
            "tournament": tournament,
            "registration": reg,
            "action": "withdraw",
            "after": after,
            "last_round": after >= tournament.rounds,
            "cleared": services.draws_cleared_by_withdrawal(reg),
        },
    )


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
@require_POST
def reinstate(request: HttpRequest, pk: int, start_number: int) -> HttpResponse:
    """Undo a withdrawal ("wieder anmelden"; :func:`services.reinstate`): allowed while no
    round after it has started without the player, else refused with the reason.  When a
    planned round after it is already drawn without the player, the page asks first (that
    draw is deleted and must be made again); the POST with ``bestaetigt=1`` then does it.
    404 for an unknown tournament or start number."""
    tournament = get_object_or_404(Tournament, pk=pk)
    reg = get_object_or_404(
        tournament.registrations.select_related("player"), start_number=start_number
    )
    try:
        cleared = services.draws_cleared_by_reinstating(reg)
        if cleared and not _confirmed(request):
            return render(
                request,
                "tournament/withdraw_confirm.html",
                {
                    "tournament": tournament,
                    "registration": reg,
                    "action": "reinstate",
                    "after": reg.withdrawn_after_round,
                    "cleared": cleared,
                },
            )
        cleared = services.reinstate(reg, clear_draws=_confirmed(request))
    except ValidationError as exc:
        for error in exc.messages:
            messages.error(request, error)
    else:
        messages.success(request, _("%(name)s ist wieder angemeldet.") % {"name": reg.player})
        _report_cleared_draws(request, cleared)
    return redirect("tournament:registrations", pk=pk)

"""The door's pages: ``/turnier/<id>/einlass/`` (check-in and start fees, searchable by
name or start number, usable on a phone) and ``/turnier/<id>/kasse/`` (the cash summary;
its PDF is :func:`printing.views.cash`)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms import apply_errors
from tournament.models import Tournament

from . import selectors, services
from .forms import DoorSettingsForm

ACTIONS = ("einchecken", "zuruecknehmen", "startgeld")


def _door_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not services.may_work_door(request.user, tournament):
        raise PermissionDenied(
            _("Am Einlass arbeiten die Turnierleitung und, wenn sie es erlaubt, die Schreiber.")
        )
    return tournament


def _page(request, tournament, query: str, settings_form=None, status: int = 200):
    return render(
        request,
        "door/door.html",
        {
            "tournament": tournament,
            "query": query,
            "rows": selectors.door_rows(tournament, query),
            "counts": selectors.door_counts(tournament),
            "fees": tournament.registrations.model.Fee.choices,
            "director": request.user.has_perm("tournament.change_tournament"),
            "settings_form": settings_form or DoorSettingsForm(instance=tournament),
        },
        status=status,
    )


@login_required
def door(request: HttpRequest, pk: int) -> HttpResponse:
    """The door: every registration (or those matching ``?q=``, a name or start number)
    with "Einchecken" / "Zurücknehmen" and the start fee; the counts above; the
    director's settings below."""
    tournament = _door_tournament(request, pk)
    return _page(request, tournament, request.GET.get("q", "")[:100])


@login_required
@require_POST
def door_action(request: HttpRequest, pk: int, start_number: int, action: str) -> HttpResponse:
    """Check a player in, take it back, or mark the start fee (``fee``); back to the door
    page with the same search."""
    tournament = _door_tournament(request, pk)
    registration = get_object_or_404(tournament.registrations, start_number=start_number)
    query = request.POST.get("q", "")[:100]
    try:
        if action == "einchecken":
            if services.check_in(registration):
                messages.success(request, _("%(name)s ist da.") % {"name": registration.player})
        elif action == "zuruecknehmen":
            services.undo_check_in(registration)
        elif action == "startgeld":
            services.set_fee(registration, request.POST.get("fee", ""))
        else:
            return redirect("door:door", pk=pk)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    search = f"?{urlencode({'q': query})}" if query else ""
    return redirect(f"{reverse('door:door', args=[pk])}{search}#nr-{start_number}")


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
@require_POST
def door_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The director: check-in on or off, the start fee, whether clerks work the door."""
    tournament = get_object_or_404(Tournament, pk=pk)
    form = DoorSettingsForm(request.POST, instance=Tournament.objects.get(pk=pk))
    if form.is_valid():
        try:
            services.set_door(tournament, **form.cleaned_data)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("Einlass gespeichert."))
            return redirect("door:door", pk=pk)
    return _page(request, tournament, "", form, status=422)


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def cash(request: HttpRequest, pk: int) -> HttpResponse:
    """The cash summary for the treasurer: start fees and lost-game fees per player, and
    the sums."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(
        request,
        "door/cash.html",
        {"tournament": tournament, "summary": selectors.cash_summary(tournament)},
    )

"""Director pages: create a tournament, register and withdraw players."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import services
from .forms import RegistrationForm, TournamentForm
from .models import Tournament


def _apply_errors(form, exc: ValidationError) -> None:
    for field, errors in exc.message_dict.items():
        for error in errors:
            form.add_error(field if field in form.fields else None, error)


@login_required
@permission_required("tournament.add_tournament", raise_exception=True)
def tournament_create(request: HttpRequest) -> HttpResponse:
    """New tournament from a preset ruleset (frozen into the tournament) with its rounds."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(**form.cleaned_data)
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(
                request,
                _("Turnier angelegt; Regelwerk eingefroren (Fingerabdruck %(f)s).")
                % {"f": tournament.ruleset_fingerprint},
            )
            return redirect("tournament:registrations", pk=tournament.pk)
    return render(
        request, "tournament/create.html", {"form": form}, status=422 if form.errors else 200
    )


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def registrations(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's players with start numbers; register late arrivals."""
    tournament = get_object_or_404(Tournament, pk=pk)
    form = RegistrationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            reg = services.register_player(tournament, **form.cleaned_data)
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(
                request,
                _("%(name)s hat Startnummer %(n)s.") % {"name": reg.player, "n": reg.start_number},
            )
            return redirect("tournament:registrations", pk=pk)
    return render(
        request,
        "tournament/registrations.html",
        {
            "tournament": tournament,
            "form": form,
            "registrations": tournament.registrations.select_related("player"),
        },
        status=422 if form.errors else 200,
    )


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
@require_POST
def withdraw(request: HttpRequest, pk: int, start_number: int) -> HttpResponse:
    """Withdraw a player from the next draw on (results so far stay)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    reg = get_object_or_404(tournament.registrations, start_number=start_number)
    services.withdraw(reg)
    messages.success(request, _("%(name)s ist abgemeldet.") % {"name": reg.player})
    return redirect("tournament:registrations", pk=pk)

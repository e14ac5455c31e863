"""Setting up a tournament: the page that creates one from a preset ruleset (frozen into
the tournament) with its rounds.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .. import services
from ..forms import TournamentForm, apply_errors


@login_required
@permission_required("tournament.add_tournament", raise_exception=True)
def tournament_create(request: HttpRequest) -> HttpResponse:
    """New tournament from a preset ruleset (frozen into the tournament) with its rounds."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(**form.cleaned_data)
        except ValidationError as exc:
            apply_errors(form, exc)
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

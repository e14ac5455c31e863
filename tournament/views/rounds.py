"""Round pages: a round's seating plan, where the director swaps two players before the
round starts and sets each table's first dealer and scorer until it closes.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from .. import services
from ..forms import SwapForm, TableRolesForm, apply_errors
from ..models import Round


@login_required
@permission_required("tournament.change_round", raise_exception=True)
def round_plan(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """A round's seating: tables with players, first dealer and scorer.  Before the round
    starts the director can swap two players; until it closes, set dealer and scorer."""
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=round_number
    )
    tables = list(round_.tables.prefetch_related("seats__registration__player"))
    swap_form = SwapForm(prefix="swap")
    roles_forms = {t.pk: TableRolesForm(table=t, prefix=f"t{t.number}") for t in tables}
    status = 200
    if request.method == "POST":
        if "swap-first" in request.POST:
            swap_form = SwapForm(request.POST, prefix="swap")
            if swap_form.is_valid():
                try:
                    first, second = swap_form.registrations(round_.tournament)
                    services.swap_players(round_, first, second)
                except ValidationError as exc:
                    apply_errors(swap_form, exc)
                else:
                    messages.success(
                        request,
                        _("Startnummern %(a)s und %(b)s haben die Plätze getauscht.")
                        % {"a": first.start_number, "b": second.start_number},
                    )
                    return redirect("tournament:round_plan", pk=pk, round_number=round_number)
        else:
            table = next((t for t in tables if f"t{t.number}-scorer" in request.POST), None)
            if table is None:
                messages.error(request, _("Unbekannter Tisch."))
                return redirect("tournament:round_plan", pk=pk, round_number=round_number)
            form = TableRolesForm(request.POST, table=table, prefix=f"t{table.number}")
            roles_forms[table.pk] = form
            if form.is_valid():
                try:
                    services.set_table_roles(
                        table, form.cleaned_data["first_dealer"], form.cleaned_data["scorer"]
                    )
                except ValidationError as exc:
                    apply_errors(form, exc)
                else:
                    messages.success(request, _("Tisch %(n)s geändert.") % {"n": table.number})
                    return redirect("tournament:round_plan", pk=pk, round_number=round_number)
        status = 422
    return render(
        request,
        "tournament/round_plan.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "tables": [(t, roles_forms[t.pk]) for t in tables],
            "swap_form": swap_form,
        },
        status=status,
    )

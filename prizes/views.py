"""Prize pages: the director's prize list and tie-break set-up, and the public prize list
(names only with consent)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.db import transaction
from django.forms import BaseModelFormSet, modelformset_factory
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring import selectors, services
from tournament.forms import IdChoiceField
from tournament.models import Tournament

from .forms import PrizeForm, TieBreakForm
from .models import Prize
from .selectors import prize_list


class BasePrizeFormSet(BaseModelFormSet):
    """Each line's hidden ``id`` is an :class:`~tournament.forms.IdChoiceField`: a value
    that is no id (a 30-digit number, a sign) is refused as an invalid choice naming the
    field, before it reaches the database."""

    def add_fields(self, form, index):
        super().add_fields(form, index)
        name = self.model._meta.pk.name
        field = form.fields[name]
        form.fields[name] = IdChoiceField(
            field.queryset,
            initial=field.initial,
            required=False,
            widget=field.widget,
            label=_("Preis-Nr."),
        )


PrizeFormSet = modelformset_factory(
    Prize, form=PrizeForm, formset=BasePrizeFormSet, extra=3, can_delete=True
)


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def prize_setup(request: HttpRequest, pk: int) -> HttpResponse:
    """Director: the tie-break setting and the prize list (cash per place, the prize
    table's places, best of a category, last place), with the winners as the standings
    stand now."""
    tournament = get_object_or_404(Tournament, pk=pk)
    action = request.POST.get("action") if request.method == "POST" else ""
    tie_form = TieBreakForm(request.POST if action == "tie_break" else None, instance=tournament)
    formset = PrizeFormSet(
        request.POST if action == "prizes" else None,
        queryset=tournament.prizes.order_by("pk"),  # as entered
        form_kwargs={"tournament": tournament},
        prefix="prize",
    )
    if action == "tie_break" and tie_form.is_valid():
        tie_form.save()
        services.invalidate_standings(tournament.pk)
        messages.success(request, _("Gleichstand-Regel gespeichert."))
        return redirect("prizes:setup", pk=pk)
    if action == "prizes" and formset.is_valid():
        with transaction.atomic():
            for prize in formset.save(commit=False):
                prize.tournament = tournament
                prize.save()
            for prize in formset.deleted_objects:
                prize.delete()  # the history keeps it
        messages.success(request, _("Preisliste gespeichert."))
        return redirect("prizes:setup", pk=pk)
    failed = tie_form.errors or (formset.is_bound and not formset.is_valid())
    return render(
        request,
        "prizes/prize_setup.html",
        {
            "tournament": tournament,
            "tie_form": tie_form,
            "formset": formset,
            "awards": prize_list(tournament, public=False),
            "tie_break_note": selectors.tie_break_note(tournament),
        },
        status=422 if failed else 200,
    )


def prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """Public prize list: who won what; players without consent by start number only."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(
        request,
        "prizes/prizes.html",
        {
            "tournament": tournament,
            "awards": prize_list(tournament, public=True),
            "tie_break_note": selectors.tie_break_note(tournament),
            "finished": selectors.evening_finished(tournament),
        },
    )

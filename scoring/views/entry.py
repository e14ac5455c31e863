"""The clerk's pages: the entry overview, a table's hands (or paper round totals), the
live check of the hand form, confirming, rulings and the revoke checker.  Every write goes
through :mod:`scoring.services`, the same path as the table link's."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from tournament.models import Round, Table, Tournament
from tournament.params import BadNumber, parse_number

from .. import hand_entry, selectors, services
from ..forms import HandForm, PlayCheckForm, RoundTotalsForm, RulingForm
from ..http import game_number_param, require_clerk_of
from ..models import Hand


@login_required
@permission_required("scoring.add_hand", raise_exception=True)
def clerk_overview(request: HttpRequest, pk: int) -> HttpResponse:
    """Every round with its tables: which are complete, which still miss hands, which
    await confirmation."""
    tournament = get_object_or_404(Tournament, pk=pk)
    require_clerk_of(request, tournament)
    context = {"tournament": tournament, "rounds": selectors.overview_rounds(tournament)}
    return render(request, "scoring/clerk_overview.html", context)


def _table_or_404(request: HttpRequest, pk: int, round_number: int, table_number: int) -> Table:
    """The table, 404 if there is none; 403 unless the user is a clerk of its tournament or
    its director."""
    table = get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament_id=pk,
        round__number=round_number,
        number=table_number,
    )
    require_clerk_of(request, table.round.tournament)
    return table


def _entry_state(user, round_: Round) -> dict:
    """What ``user`` may do with ``round_``'s entries, for the templates: write and
    confirm by the services' own rule (:func:`scoring.services.may_write`,
    :func:`scoring.services.may_confirm`), record rulings."""
    return {
        "can_write": services.may_write(round_, user),
        "round_closed": round_.status == Round.Status.CLOSED,
        "can_confirm": services.may_confirm(round_, user),
        "can_rule": user.has_perm("scoring.add_ruling") and round_.status != Round.Status.PLANNED,
    }


def _table_context(table: Table, form: HandForm, evaluation=None, stale=None, user=None) -> dict:
    seats = form.seats
    hands = selectors.table_hands(table)
    totals = selectors.running_totals(hands, len(seats))
    tournament = table.round.tournament
    state = _entry_state(user, table.round) if user is not None else {}
    correcting = bool(form.initial.get("version") or (form.is_bound and form.data.get("version")))
    state["show_form"] = state.get("can_write") and (
        correcting or len(hands) < tournament.games_per_round
    )
    field_errors, wrong_slots = hand_entry.marked_errors(form, evaluation)
    return {
        **state,
        "more_open": any(name in field_errors for name in HandForm.MORE_FIELDS),
        "tournament": tournament,
        "table": table,
        "seats": seats,
        "teams": services.partner_teams(tournament, seats),
        "rows": list(zip(hands, totals, strict=True)),
        "history": selectors.hand_history(table.hands.all(), closed_at=table.round.closed_at),
        "rulings": list(table.rulings.select_related("decided_by")),
        "columns": 7 + 2 * len(seats),
        "form": form,
        "evaluation": evaluation,
        "stale": stale,
        "games": tournament.games_per_round,
        "complete": len(hands) >= tournament.games_per_round,
        "ruleset": tournament.ruleset,
        "seating": services.seating_text(tournament.ruleset),
        "next_deal": services.next_deal(table, seats),
        "field_errors": field_errors,
        "wrong_slots": wrong_slots,
        "rare_melds": hand_entry.rare_melds(seats, evaluation),
        "error_slots": [*form.fields, "melds", "tricks", "__all__"],
    }


@login_required
@permission_required("scoring.add_hand", raise_exception=True)
def table_page(request: HttpRequest, pk: int, round_number: int, table_number: int) -> HttpResponse:
    """A table's round: the hands so far with running totals, and the entry form for the
    next hand (or, with ``?spiel=N``, the correction form for hand N)."""
    table = _table_or_404(request, pk, round_number, table_number)
    seats = services.table_seats(table)
    if table.round.tournament.entry_mode == Tournament.EntryMode.TOTALS:
        return _totals_page(request, table, seats)
    if request.method == "POST":
        form = hand_entry.hand_form(table, request.POST, seats=seats)
        if form.is_valid():
            entry = form.to_input()
            try:
                hand, evaluation = services.save_hand(
                    table,
                    entry,
                    request.user,
                    expected_version=form.cleaned_data.get("version"),
                    reason=form.cleaned_data.get("reason") or "",
                )
            except services.StaleEntry as exc:
                current = exc.hand
                messages.error(
                    request,
                    _(
                        "Spiel %(n)s wurde inzwischen von %(user)s geändert (Version %(v)s). "
                        "Bitte die aktuellen Werte prüfen."
                    )
                    % {"n": current.number, "user": current.enterer, "v": current.version},
                )
                form = hand_entry.hand_form(
                    table, initial=HandForm.initial_from(current), seats=seats
                )
                return render(
                    request,
                    "scoring/table.html",
                    _table_context(table, form, stale=current, user=request.user),
                    status=409,
                )
            except services.EntryRefused as exc:
                raise PermissionDenied(str(exc)) from exc
            if hand is not None:
                messages.success(request, _("Spiel %(n)s gespeichert.") % {"n": hand.number})
                # no #fragment: a fragment target would cancel the form's autofocus, and
                # the focused field scrolls itself into view
                return redirect(
                    "scoring:table", pk=pk, round_number=round_number, table_number=table_number
                )
            return render(
                request,
                "scoring/table.html",
                _table_context(table, form, evaluation, user=request.user),
                status=422,
            )
        evaluation = hand_entry.evaluate_form(table, form)
        return render(
            request,
            "scoring/table.html",
            _table_context(table, form, evaluation, user=request.user),
            status=422,
        )

    number = request.GET.get("spiel")
    hand = table.hands.filter(number=game_number_param(number)).first() if number else None
    if hand is not None:
        initial = HandForm.initial_from(hand)
    else:
        n = services.next_game_number(table)
        initial = {"number": n, "dealer": services.dealer_for(table, len(seats), n)}
    form = hand_entry.hand_form(table, initial=initial, seats=seats)
    return render(request, "scoring/table.html", _table_context(table, form, user=request.user))


def _totals_page(request: HttpRequest, table: Table, seats) -> HttpResponse:
    """Paper-sheet mode of the table page: every player's round total in one form."""
    tournament = table.round.tournament
    stored = services.table_totals(table, seats)
    context = {
        **_entry_state(request.user, table.round),
        "tournament": tournament,
        "table": table,
        "seats": seats,
        "stored": stored,
        "unconfirmed": [t for t in stored.values() if t.confirmed_at is None],
        "rulings": list(table.rulings.select_related("decided_by")),
        "ruleset": tournament.ruleset,
        "games": tournament.games_per_round,
    }
    if request.method != "POST":
        form = RoundTotalsForm(initial=RoundTotalsForm.initial_from(stored), seats=seats)
        return render(request, "scoring/table_totals.html", {**context, "form": form})
    form = RoundTotalsForm(request.POST, seats=seats)
    form.is_valid()
    errors = {name: list(msgs) for name, msgs in form.errors.items()}
    if errors:
        # show the plausibility problems of what did parse beside the parsing errors
        for name, msgs in services.check_totals(table, form.to_inputs(), seats).items():
            if name not in form.errors:
                errors.setdefault(name, []).extend(msgs)
    else:  # the service checks plausibility itself before it writes
        try:
            _saved, errors = services.save_round_totals(
                table,
                form.to_inputs(),
                request.user,
                form.expected_versions(),
                reason=form.cleaned_data.get("reason") or "",
            )
        except services.StaleTotals as exc:
            names = sorted({exc.totals[p].enterer for p in exc.changed if p in exc.totals})
            messages.error(
                request,
                _(
                    "Die Summen dieses Tisches wurden inzwischen von %(users)s geändert. "
                    "Die aktuellen Werte stehen jetzt im Formular; bitte prüfen."
                )
                % {"users": ", ".join(names)},
            )
            form = RoundTotalsForm(initial=RoundTotalsForm.initial_from(exc.totals), seats=seats)
            context["stored"] = exc.totals
            return render(
                request, "scoring/table_totals.html", {**context, "form": form}, status=409
            )
        except services.EntryRefused as exc:
            raise PermissionDenied(str(exc)) from exc
        if not errors:
            messages.success(
                request, _("Rundensummen von Tisch %(n)s gespeichert.") % {"n": table.number}
            )
            return redirect(
                "scoring:table",
                pk=tournament.pk,
                round_number=table.round.number,
                table_number=table.number,
            )
    return render(
        request,
        "scoring/table_totals.html",
        {**context, "form": form, "field_errors": errors},
        status=422,
    )


@login_required
@permission_required("scoring.add_hand", raise_exception=True)
@require_POST
def validate_hand(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """htmx: check the form as the clerk types; returns the form with errors by field and
    a preview of the scores.  Writes nothing."""
    table = _table_or_404(request, pk, round_number, table_number)
    form = hand_entry.hand_form(table, request.POST)
    context = _table_context(table, form, hand_entry.evaluate_form(table, form), user=request.user)
    context["oob"] = True
    return render(request, "scoring/_preview.html", context)


@login_required
@permission_required("scoring.change_hand", raise_exception=True)
@require_POST
def confirm_entry(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """Confirm a hand (``spiel``, ``version``) or, in paper mode, the table's round totals
    (``version_<position>``) as a second account; back to the table page with a message."""
    table = _table_or_404(request, pk, round_number, table_number)
    back = redirect("scoring:table", pk=pk, round_number=round_number, table_number=table_number)
    try:
        if table.round.tournament.entry_mode == Tournament.EntryMode.TOTALS:
            seats = services.table_seats(table)
            form = RoundTotalsForm(request.POST, seats=seats)
            form.is_valid()  # only the hidden versions are read; they parse or are None
            n = services.confirm_table_totals(table, request.user, form.expected_versions())
            messages.success(
                request,
                _("Rundensummen von Tisch %(t)s bestätigt (%(n)s).") % {"t": table.number, "n": n},
            )
            return back
        try:
            number = game_number_param(request.POST.get("spiel"))
            version = parse_number(request.POST.get("version"), "version")
        except BadNumber:
            messages.error(request, _("Unvollständige Bestätigung; bitte erneut versuchen."))
            return back
        hand = get_object_or_404(Hand, table=table, number=number)
        services.confirm_hand(hand, request.user, version)
        messages.success(request, _("Spiel %(n)s bestätigt.") % {"n": hand.number})
    except services.StaleEntry as exc:
        messages.error(
            request,
            _(
                "Spiel %(n)s wurde inzwischen von %(user)s geändert (Version %(v)s); bitte die "
                "neuen Werte prüfen und dann bestätigen."
            )
            % {"n": exc.hand.number, "user": exc.hand.enterer, "v": exc.hand.version},
        )
    except services.StaleTotals:
        messages.error(
            request,
            _(
                "Die Summen wurden inzwischen geändert; bitte die neuen Werte prüfen und bestätigen."
            ),
        )
    except services.ConfirmationRefused as exc:
        messages.error(request, str(exc))
    except services.EntryRefused as exc:
        raise PermissionDenied(str(exc)) from exc
    return back


@login_required
@permission_required("scoring.add_ruling", raise_exception=True)
def ruling(request: HttpRequest, pk: int, round_number: int, table_number: int) -> HttpResponse:
    """Director: record a dispute at a table and its ruling; a penalty is applied to the
    hand and scored by the engine (``?spiel=N`` preselects the game)."""
    table = _table_or_404(request, pk, round_number, table_number)
    tournament = table.round.tournament
    seats = services.table_seats(table)
    kwargs = {"seats": seats, "games": tournament.games_per_round}
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        form = RulingForm(request.POST, **kwargs)
        if form.is_valid():
            data = form.cleaned_data
            try:
                saved, errors = services.record_ruling(
                    table,
                    hand_number=data["hand_number"],
                    claim=data["claim"],
                    decision=data["decision"],
                    consequence=data["consequence"],
                    offender=data["offender"],
                    user=request.user,
                )
            except services.EntryRefused as exc:
                raise PermissionDenied(str(exc)) from exc
            if saved is not None:
                messages.success(
                    request,
                    _("Entscheidung zu Spiel %(n)s gespeichert.") % {"n": saved.hand_number},
                )
                return redirect(
                    "scoring:table", pk=pk, round_number=round_number, table_number=table_number
                )
        for name, msgs in form.errors.items():
            errors.setdefault(name, []).extend(msgs)
        status = 422
    else:
        number = request.GET.get("spiel")
        initial = {"hand_number": game_number_param(number) if number else ""}
        form = RulingForm(initial=initial, **kwargs)
        status = 200
    hands = {h.number: h for h in table.hands.all()}
    return render(
        request,
        "scoring/ruling.html",
        {
            "tournament": tournament,
            "table": table,
            "seats": seats,
            "hands": hands,
            "form": form,
            "field_errors": errors,
            "rulings": list(table.rulings.select_related("decided_by")),
            "ruleset": tournament.ruleset,
        },
        status=status,
    )


PLAY_RULE_LABELS = {
    "must-follow-suit": _lazy("Farbzwang: die ausgespielte Farbe muss bedient werden."),
    "must-head-trick": _lazy("Stichzwang: wer bedient, muss die höchste Karte überstechen."),
    "must-trump": _lazy("Trumpfzwang: wer nicht bedienen kann, muss trumpfen."),
    "must-overtrump": _lazy("Übertrumpfen: ein Trumpf im Stich muss überstochen werden."),
    "must-win-trick": _lazy("Stechpflicht: wer den Stich gewinnen kann, muss es tun."),
}


@login_required
@permission_required("scoring.view_hand", raise_exception=True)
def play_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The revoke checker: was a card legal under the tournament's ruleset, and if not,
    which obligation did it break?  Reads nothing but the ruleset and writes nothing."""
    tournament = get_object_or_404(Tournament, pk=pk)
    require_clerk_of(request, tournament)
    verdict, errors = None, {}
    form = PlayCheckForm(request.GET or None)
    if form.is_bound:
        if form.is_valid():
            verdict, errors = services.judge_play(tournament, form.to_question())
        errors = {**{n: list(m) for n, m in form.errors.items()}, **errors}
    question = form.to_question() if verdict is not None else None
    return render(
        request,
        "scoring/play_check.html",
        {
            "tournament": tournament,
            "ruleset": tournament.ruleset,
            "low_card": tournament.ruleset.deck_size == 48,  # 40 cards: no Siebener
            "form": form,
            "field_errors": errors,
            "verdict": verdict,
            "question": question,
            "winning_card": (
                [*question.trick, question.card][verdict.winner] if verdict is not None else ""
            ),
            "rule_text": PLAY_RULE_LABELS.get(verdict.rule) if verdict and verdict.rule else "",
        },
        status=422 if errors else 200,
    )

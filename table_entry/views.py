"""Views of table entry: the phone page behind a table's private link (``/t/<token>/``)
and the director's list of links with "neuer Link".

The phone pages need no account: the token in the address is the permission, checked on
every request by :func:`table_entry.services.resolve` (only that table, only while
its round runs).  They answer with ``Referrer-Policy: strict-origin`` so the token never
leaves in a Referer header, keep Django's CSRF check, and are throttled per token and per
address (:mod:`table_entry.throttle`).  A link that does not open its table gets a page that
says why (revoked, round closed …), never a 500.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from scoring import hand_entry, links, qr, selectors, services
from scoring.forms import HandForm
from scoring.http import game_number_param, require_clerk_of
from scoring.models import Hand
from tournament.models import Round, Tournament
from tournament.params import BadNumber, parse_number

from . import services as phone
from . import throttle
from .http import private_answer, refused, table_link_view, wants_json


def _hand_rows(link, seats, device: str) -> list[dict]:
    """The table's hands (latest first) with running totals and what this phone may do:
    ``provisional`` until confirmed, ``can_confirm`` for an opponent's phone."""
    table = link.table
    tournament = table.round.tournament
    hands = selectors.table_hands(table)
    totals = selectors.running_totals(hands, len(seats))
    by_opponent = links.confirms_at_table(tournament)
    rows = []
    for hand, running in zip(hands, totals, strict=True):
        needs = hand.table_link_id is not None or tournament.confirmation_required
        rows.append(
            {
                "hand": hand,
                "totals": running,
                "provisional": needs and not hand.confirmed,
                "own": hand.table_link_id is not None and hand.entered_device == device,
                "can_confirm": by_opponent
                and needs
                and not hand.confirmed
                and not (hand.table_link_id is not None and hand.entered_device == device),
            }
        )
    rows.reverse()
    return rows


def _page_context(request, link, form, evaluation=None, stale=None, mine=None) -> dict:
    table = link.table
    tournament = table.round.tournament
    seats = form.seats
    device = phone.device_id(request.session)
    field_errors, wrong_slots = hand_entry.marked_errors(form, evaluation)
    hands_count = table.hands.count()
    correcting = bool(form.initial.get("version") or (form.is_bound and form.data.get("version")))
    token = link.token
    return {
        "at_table": True,
        "link": link,
        "token": token,
        "tournament": tournament,
        "table": table,
        "seats": seats,
        "rows": _hand_rows(link, seats, device),
        "device": device[:6],
        "totals": selectors.running_totals(selectors.table_hands(table), len(seats))[-1:]
        or [[0] * len(seats)],
        "form": form,
        "evaluation": evaluation,
        "stale": stale,
        "mine": mine,
        "games": tournament.games_per_round,
        "entered": hands_count,
        "show_form": correcting or hands_count < tournament.games_per_round,
        "by_opponent": links.confirms_at_table(tournament),
        "confirmer": phone.is_confirmer(request.session, link),
        "next_deal": services.next_deal(table, seats),
        "field_errors": field_errors,
        "wrong_slots": wrong_slots,
        "rare_melds": hand_entry.rare_melds(seats, evaluation),
        "error_slots": [*form.fields, "melds", "tricks", "__all__"],
        "more_open": any(name in field_errors for name in HandForm.MORE_FIELDS),
        "form_action": reverse("table_entry:page", args=[token]),
        "validate_action": reverse("table_entry:validate", args=[token]),
        "confirm_action": reverse("table_entry:confirm", args=[token]),
    }


@never_cache
@table_link_view
def table_page(request: HttpRequest, link) -> HttpResponse:
    """The phone page of one table: running totals, the last hands (provisional until
    confirmed, "stimmt" for an opponent), and the form for the next hand ("Spiel
    eintragen"; ``?spiel=N`` corrects hand N).  POST saves through
    :func:`scoring.services.save_hand` with the link as author; with ``Accept:
    application/json`` (the offline queue) it answers ``{"status": "saved"|"invalid"|
    "conflict", …}``."""
    table = link.table
    seats = services.table_seats(table)
    if request.method == "POST":
        return _save(request, link, seats)
    number = request.GET.get("spiel")
    try:
        hand = table.hands.filter(number=game_number_param(number)).first() if number else None
    except BadNumber:
        hand = None
    if hand is not None:
        initial = HandForm.initial_from(hand)
    else:
        n = services.next_game_number(table)
        initial = {"number": n, "dealer": services.dealer_for(table, len(seats), n)}
    form = hand_entry.hand_form(table, initial=initial, seats=seats, touch=True)
    return render(request, "table_entry/table_link.html", _page_context(request, link, form))


def _save(request: HttpRequest, link, seats) -> HttpResponse:
    table = link.table
    form = hand_entry.hand_form(table, request.POST, seats=seats, touch=True)
    as_json = wants_json(request)
    device = phone.device_id(request.session)
    if not form.is_valid():
        evaluation = hand_entry.evaluate_form(table, form)
        if as_json:
            return JsonResponse(
                {"status": "invalid", "errors": hand_entry.field_errors(form, evaluation)},
                status=422,
            )
        return render(
            request,
            "table_entry/table_link.html",
            _page_context(request, link, form, evaluation),
            status=422,
        )
    expected = form.cleaned_data.get("version")
    try:
        hand, evaluation = services.save_hand(
            table,
            form.to_input(),
            None,
            expected_version=expected,
            reason=form.cleaned_data.get("reason") or "",
            via=phone.source(link, device),
        )
    except services.StaleEntry as exc:
        # a repeated send of what is stored is no conflict: save_hand returns it as saved
        return _conflict(request, link, form, exc.hand, as_json)
    except services.EntryRefused as exc:
        return refused(request, exc.reason, str(exc))
    if hand is None:
        if as_json:
            return JsonResponse(
                {"status": "invalid", "errors": hand_entry.field_errors(form, evaluation)},
                status=422,
            )
        return render(
            request,
            "table_entry/table_link.html",
            _page_context(request, link, form, evaluation),
            status=422,
        )
    if as_json:
        return JsonResponse({"status": "saved", "number": hand.number, "version": hand.version})
    messages.success(request, _("Spiel %(n)s gespeichert.") % {"n": hand.number})
    return redirect("table_entry:page", token=link.token)


def _conflict(request, link, form, current: Hand, as_json: bool) -> HttpResponse:
    """Someone else saved this game number first: show both versions, the stored one in
    the form (to correct from) and the phone's own beside it; nothing is overwritten."""
    message = _(
        "Spiel %(n)s wurde inzwischen von %(who)s eingetragen (Fassung %(v)s). Bitte beide "
        "Fassungen vergleichen; im Formular steht jetzt die gespeicherte."
    ) % {
        "n": current.number,
        "who": current.enterer or _("der Turnierleitung"),
        "v": current.version,
    }
    if as_json:
        return JsonResponse(
            {
                "status": "conflict",
                "message": message,
                "number": current.number,
                "version": current.version,
                "scores": current.scores,
            },
            status=409,
        )
    mine = {
        "bid": form.cleaned_data.get("bid"),
        "declarer": form.cleaned_data.get("declarer"),
        "outcome": form.cleaned_data.get("outcome"),
    }
    stored = hand_entry.hand_form(
        link.table, initial=HandForm.initial_from(current), seats=form.seats, touch=True
    )
    messages.error(request, message)
    return render(
        request,
        "table_entry/table_link.html",
        _page_context(request, link, stored, stale=current, mine=mine),
        status=409,
    )


@table_link_view
@require_POST
def validate(request: HttpRequest, link) -> HttpResponse:
    """htmx: the engine's verdict on the form as typed (errors by field, score preview);
    writes nothing."""
    table = link.table
    form = hand_entry.hand_form(table, request.POST, touch=True)
    context = _page_context(request, link, form, hand_entry.evaluate_form(table, form))
    context["oob"] = True
    return render(request, "scoring/_preview.html", context)


@table_link_view
@require_POST
def confirm(request: HttpRequest, link) -> HttpResponse:
    """An opponent's "stimmt" on hand ``spiel`` at ``version``; back to the page."""
    back = redirect("table_entry:page", token=link.token)
    try:
        number = game_number_param(request.POST.get("spiel"))
        version = parse_number(request.POST.get("version"), "version")
    except BadNumber:
        messages.error(request, _("Unvollständige Bestätigung; bitte erneut versuchen."))
        return back
    hand = Hand.objects.filter(table=link.table, number=number).first()
    if hand is None:
        messages.error(request, _("Spiel %(n)s gibt es an diesem Tisch nicht.") % {"n": number})
        return back
    if not phone.is_confirmer(request.session, link) and not _code_accepted(request, link):
        return back
    device = phone.device_id(request.session)
    try:
        services.confirm_hand_at_table(hand, phone.source(link, device), version)
        messages.success(request, _("Spiel %(n)s bestätigt.") % {"n": hand.number})
    except services.StaleEntry as exc:
        messages.error(
            request,
            _("Spiel %(n)s wurde inzwischen geändert (Fassung %(v)s); bitte neu prüfen.")
            % {"n": exc.hand.number, "v": exc.hand.version},
        )
    except services.ConfirmationRefused as exc:
        messages.error(request, str(exc))
    except services.EntryRefused as exc:
        return refused(request, exc.reason, str(exc))
    return back


def _code_accepted(request: HttpRequest, link) -> bool:
    """Check the confirmation code sent with a first "stimmt" from this phone
    (:func:`table_entry.services.check_confirmation_code`); a wrong or missing code
    leaves a message and counts against the table's wrong codes."""
    device = phone.device_id(request.session)
    if not throttle.code_guesses_left(request, link.token, wrong=False, device=device):
        messages.error(
            request,
            _("Zu viele falsche Tischcodes. Bitte die Turnierleitung rufen."),
        )
        return False
    if phone.check_confirmation_code(request.session, link, request.POST.get("code", "")):
        return True
    throttle.code_guesses_left(request, link.token, wrong=True, device=device)
    messages.error(
        request,
        _(
            "Tischcode: bitte die vier Ziffern von der Tischkarte eingeben; „stimmt“ tippt "
            "ein Gegenspieler, der die Karte vor sich hat."
        ),
    )
    return False


# ---------------------------------------------------------------------------- director


def _posted_table(request: HttpRequest, round_: Round):
    """The table of ``round_`` named by the posted ``tisch``, or ``None``."""
    try:
        number = parse_number(request.POST.get("tisch"), "tisch", 10_000)
    except BadNumber:
        return None
    return round_.tables.filter(number=number).first() if number else None


def _link_round(tournament: Tournament, request: HttpRequest) -> Round | None:
    """The round whose links the page shows: ``?runde=N``, else the running round, else
    the next planned one that is drawn."""
    number = request.GET.get("runde") or request.POST.get("runde")
    rounds = tournament.round_set.all()
    if number:
        try:
            n = parse_number(number, "runde", tournament.rounds)
        except BadNumber:
            n = None
        return rounds.filter(number=n).first() if n else None
    return (
        rounds.filter(status=Round.Status.RUNNING).first()
        or rounds.filter(status=Round.Status.PLANNED, tables__isnull=False)
        .order_by("number")
        .first()
    )


@login_required
@permission_required("tournament.change_round", raise_exception=True)
def director_links(request: HttpRequest, pk: int) -> HttpResponse:
    """Director: whether tables enter their own hands (and who confirms), and for one
    round every table's link with its QR code; POST ``neu`` with ``tisch`` revokes a
    table's link and issues a new one, POST ``einstellung`` sets ``table_entry``."""
    tournament = get_object_or_404(Tournament, pk=pk)
    require_clerk_of(request, tournament)
    round_ = _link_round(tournament, request)
    if request.method == "POST":
        if "einstellung" in request.POST:
            value = request.POST.get("table_entry", "")
            if value not in Tournament.TableEntry.values:
                messages.error(request, _("Eintragen am Tisch: unbekannte Einstellung."))
            else:
                tournament.table_entry = value
                tournament.save(update_fields=["table_entry"])
                messages.success(request, _("Einstellung gespeichert."))
        elif "entsperren" in request.POST and round_ is not None:
            table = _posted_table(request, round_)
            if table is None:
                messages.error(request, _("Tisch: bitte einen Tisch dieser Runde wählen."))
            else:
                throttle.lift_code_lock(links.live_link(table, request.user).token)
                messages.success(
                    request,
                    _("Tisch %(n)s kann wieder bestätigen.") % {"n": table.number},
                )
        elif "neu" in request.POST and round_ is not None:
            table = _posted_table(request, round_)
            if table is None:
                messages.error(request, _("Tisch: bitte einen Tisch dieser Runde wählen."))
            else:
                links.renew_link(table, request.user)
                messages.success(
                    request,
                    _("Tisch %(n)s hat einen neuen Link; der alte gilt nicht mehr.")
                    % {"n": table.number},
                )
        url = reverse("table_entry:director", args=[pk])
        return redirect(f"{url}?runde={round_.number}" if round_ else url)
    rows = []
    if round_ is not None and tournament.table_entry:
        live = links.round_links(round_, request.user)
        for table in round_.tables.order_by("number").prefetch_related(
            "seats__registration__player"
        ):
            link = live[table.pk]
            address = link_address(link, request)
            rows.append(
                {
                    "table": table,
                    "players": [s.registration for s in table.seats.all()],
                    "link": link,
                    "address": address,
                    "qr": qr.qr_data_uri(address),
                    "code": links.confirmation_code(link),
                    "locked": throttle.code_locked(request, link.token),
                }
            )
    response = render(
        request,
        "table_entry/table_links.html",
        {
            "unreachable": bool(rows) and not qr.reachable_by_phones(rows[0]["address"]),
            "tournament": tournament,
            "round": round_,
            "rounds": tournament.round_set.all(),
            "rows": rows,
            "choices": Tournament.TableEntry.choices,
        },
    )
    return private_answer(response)


def link_address(link, request: HttpRequest | None = None) -> str:
    """Absolute address of a table's link for its QR code (``PUBLIC_BASE_URL`` in venue
    mode, else the address of ``request``, else the bare path)."""
    from django.conf import settings

    path = reverse("table_entry:page", args=[link.token])
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    if request is not None:
        return request.build_absolute_uri(path)
    return path

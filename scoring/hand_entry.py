"""The hand form as both entry pages show it: the clerk's table page
(:mod:`scoring.views.entry`) and the phone's table link (:mod:`table_entry.views`).

A bound form is checked by the engine as far as it parses (:func:`evaluate_form`); its
messages are gathered by error slot (:func:`slot_errors`), each shown once
(:func:`once_per_row`), and the wrong slots marked on the form (:func:`marked_errors`).
"""

from __future__ import annotations

from tournament.models import Table

from . import services
from .forms import HandForm


def hand_form(table: Table, data=None, initial=None, seats=None, touch=False) -> HandForm:
    return HandForm(
        data,
        initial=initial,
        seats=seats if seats is not None else services.table_seats(table),
        ruleset=table.round.tournament.ruleset,
        touch=touch,
    )


def evaluate_form(table: Table, form: HandForm):
    """The engine's verdict on whatever of a bound form parsed (``None`` if too little
    did), so problems show while other fields are still blank or wrong."""
    form.is_valid()
    entry = form.to_input()
    if entry is None:
        return None
    return services.evaluate(table.round.tournament, len(form.seats), entry)


def slot_errors(form: HandForm, evaluation) -> dict[str, list[str]]:
    """Messages by error slot: form fields, ``melds``/``tricks`` (the whole row) and
    ``__all__``; parsing errors first, then the engine's."""
    errors: dict[str, list[str]] = {}
    if form.is_bound:
        for name, messages_ in form.errors.items():
            errors.setdefault(name, []).extend(messages_)
    if evaluation is not None:
        parse_failed = set(errors)
        for name, messages_ in evaluation.errors.items():
            slot = name if name in form.fields or name in ("melds", "tricks") else "__all__"
            if slot in parse_failed:
                continue  # the form's own error (blank, not a number) is the cause
            errors.setdefault(slot, []).extend(
                m for m in messages_ if m not in errors.get(slot, [])
            )
    return errors


def once_per_row(errors: dict[str, list[str]]) -> dict[str, list[str]]:
    """``errors`` with a message given to several seat fields of one row (the engine
    blames every typed trick field for a wrong sum) moved to the row's slot (``tricks``):
    shown once, at the width of the form, rather than in each narrow seat column."""
    shown = {slot: list(messages_) for slot, messages_ in errors.items()}
    for row in ("melds", "tricks"):
        seats = [n for n in shown if n.startswith(f"{row}_") and n[len(row) + 1 :].isdigit()]
        counts: dict[str, int] = {}
        for name in seats:
            for message in shown[name]:
                counts[message] = counts.get(message, 0) + 1
        shared = [message for message, count in counts.items() if count > 1]
        if not shared:
            continue
        for name in seats:
            shown[name] = [m for m in shown[name] if m not in shared]
            if not shown[name]:
                del shown[name]
        row_messages = shown.setdefault(row, [])
        row_messages.extend(m for m in shared if m not in row_messages)
    return shown


def field_errors(form: HandForm, evaluation) -> dict[str, list[str]]:
    """The messages to show by error slot (:func:`slot_errors`), each once
    (:func:`once_per_row`)."""
    return once_per_row(slot_errors(form, evaluation))


def marked_errors(form: HandForm, evaluation) -> tuple[dict[str, list[str]], list[str]]:
    """``(field_errors, wrong_slots)`` for a page with the hand form: the messages to show
    (:func:`field_errors`) and every wrong slot, marked on the form (``aria-invalid``,
    the focus).  A seat field whose message is shown once for its row is still wrong:
    the typed fields of a wrong sum, not the blank one computed from them."""
    slots = slot_errors(form, evaluation)
    form.mark_errors(slots)
    return once_per_row(slots), list(slots)


def rare_melds(seats, evaluation) -> list[tuple[str, str]]:
    """``(player's first name, message)`` for each rare meld total the engine warns about,
    shown beside the "Ja, wirklich" tick that lets the hand be saved."""
    if evaluation is None or not evaluation.warnings:
        return []
    return [
        (seat.registration.player.first_name, message)
        for seat in seats
        for message in evaluation.warnings.get(f"melds_{seat.position}", [])
    ]

"""The clerk's hand-entry form: parses what was typed into a :class:`HandInput`.

The form checks only types and choices; the rules (bid steps, trick totals, penalties …)
are the engine's, applied by :func:`scoring.services.evaluate`, whose errors the view adds to
this form field by field.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rules import Ruleset
from rules.cards import CardWordError, parse_card_words
from tournament.models import Seat, Tournament

from .models import Hand
from .services import HandInput, PlayCheck, TotalInput

OUTCOME_LABELS = dict(Hand.Outcome.choices)
# Far beyond any real bid, meld, trick count or round total, and small enough for every
# database column and for Python's int-to-text limit: a bigger number is a field error.
MAX_POINTS = 1_000_000
WON_CHOICES = [("", "—"), ("1", _("gewonnen")), ("0", _("verloren"))]


def reason_field() -> forms.CharField:
    """The "why" of a correction: required (by the service, its error shown at this field)
    when a saved hand is corrected and for the director's adjustment after the round is
    closed; kept in the entry's history."""
    return forms.CharField(
        label=_("Grund der Korrektur"),
        required=False,
        max_length=300,
        widget=forms.TextInput(attrs={"size": 40}),
    )


class HandForm(forms.Form):
    """Entry form for one hand at a table; seat fields are built from the table's seats.

    Field names: ``number``, ``dealer``, ``declarer``, ``bid``, ``trump``, ``outcome``,
    ``melds_<position>``, ``tricks_<position>``, ``won``, ``penalty_type``,
    ``penalty_seat``, ``version`` (for corrections), ``reason`` (why it was corrected),
    ``confirm_rare`` (the clerk's "Ja, wirklich" for a rare meld total), ``clear_tricks``
    (the clerk agrees that trick points typed for an Abgehen are dropped).
    """

    # fields in the collapsed "Sonderspiel, Strafe" section: an error there opens it
    MORE_FIELDS = ("won", "penalty_type", "penalty_seat")

    number = forms.IntegerField(
        label=_("Spiel"),
        min_value=1,
        max_value=Tournament.GAMES_PER_ROUND_MAX,
        widget=forms.HiddenInput,
    )
    version = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_POINTS, widget=forms.HiddenInput
    )

    def __init__(self, *args, seats: list[Seat], ruleset: Ruleset, touch: bool = False, **kwargs):
        """``touch=True`` (the table's phone page): the trump is a row of buttons, one tap
        instead of opening a list and picking from it."""
        super().__init__(*args, **kwargs)
        self.seats = seats
        players = [
            (str(s.position), f"{s.registration.start_number} {s.registration.player}")
            for s in seats
        ]
        self.fields["dealer"] = forms.TypedChoiceField(
            label=_("Geber"), choices=players, coerce=int
        )
        self.fields["declarer"] = forms.TypedChoiceField(
            label=_("Spielführer"),
            choices=[("", "—"), *players],
            coerce=int,
            empty_value=None,
        )
        self.fields["bid"] = forms.IntegerField(
            label=_("Reizwert"),
            min_value=0,
            max_value=MAX_POINTS,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": ruleset.bid_step}),
        )
        self.fields["trump"] = forms.ChoiceField(
            label=_("Trumpf"),
            # a button reads its label aloud: "ohne" rather than a bare dash
            choices=[("", _("ohne") if touch else "—"), *Hand.Trump.choices],
            required=False,
            widget=forms.RadioSelect if touch else forms.Select,
        )
        self.fields["outcome"] = forms.ChoiceField(
            label=_("Ausgang"),
            choices=[(o, OUTCOME_LABELS[o]) for o in ruleset.outcomes],
        )
        # outcomes played without trump (a Durch under seed 002, a Bettel): hand-form.js
        # empties and locks the trump for them; the engine refuses a trump sent anyway
        no_trump = ruleset.outcomes_without_trump
        if no_trump:
            self.fields["outcome"].widget.attrs["data-no-trump"] = " ".join(no_trump)
        for seat in seats:
            name = f"{seat.registration.player.first_name}"
            # the seat inputs stand in a table under the player's column heading: their
            # label is given to screen readers as aria-label
            meld_label = _("Meldung %(name)s") % {"name": name}
            tricks_label = _("Stiche %(name)s") % {"name": name}
            self.fields[f"melds_{seat.position}"] = forms.IntegerField(
                label=meld_label,
                required=False,
                min_value=0,
                max_value=MAX_POINTS,
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "step": 10,
                        "aria-label": meld_label,
                        # its own error, and the row's (a sum over the seats), read out
                        "aria-describedby": f"err-melds_{seat.position} err-melds",
                    }
                ),
            )
            self.fields[f"tricks_{seat.position}"] = forms.IntegerField(
                label=tricks_label,
                required=False,
                min_value=0,
                max_value=MAX_POINTS,
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "aria-label": tricks_label,
                        "aria-describedby": f"err-tricks_{seat.position} err-tricks",
                    }
                ),
            )
        self.fields["won"] = forms.ChoiceField(
            label=_("Sonderspiel"), choices=WON_CHOICES, required=False
        )
        self.fields["penalty_type"] = forms.ChoiceField(
            label=_("Strafe"), choices=Hand.PenaltyType.choices, required=False
        )
        self.fields["penalty_seat"] = forms.TypedChoiceField(
            label=_("Strafe für"),
            choices=[("", "—"), *players],
            coerce=int,
            empty_value=None,
            required=False,
        )
        self.fields["reason"] = reason_field()
        self.fields["confirm_rare"] = forms.BooleanField(label=_("Ja, wirklich"), required=False)
        self.fields["clear_tricks"] = forms.BooleanField(
            label=_("Stichpunkte leeren (zählen bei Abgehen nicht)"), required=False
        )

    def mark_errors(self, slots) -> None:
        """Mark the fields named in ``slots`` (error slots) with ``aria-invalid`` and put
        ``autofocus`` on the first of them in the form's order, or on the declarer when
        there is none, so the page opens where the eye must go (works without JS)."""
        wrong = [
            name
            for name in self.fields
            if name in slots or name.split("_")[0] in slots and name[-1].isdigit()
        ]
        for name in wrong:
            self.fields[name].widget.attrs["aria-invalid"] = "true"
        first = next((n for n in wrong if not self.fields[n].widget.is_hidden), "declarer")
        self.fields[first].widget.attrs["autofocus"] = True

    def seat_fields(self):
        """``(seat, melds field, tricks field)`` per seat, for the template."""
        return [(s, self[f"melds_{s.position}"], self[f"tricks_{s.position}"]) for s in self.seats]

    def to_input(self) -> HandInput | None:
        """The cleaned data as a :class:`HandInput` (call after ``is_valid()``).

        Works on a partly invalid form too, so the engine can check what was typed while
        other fields are still blank or wrong; ``None`` when the game number, dealer or
        outcome are unusable.
        """
        data = self.cleaned_data
        if any(data.get(key) is None for key in ("number", "dealer", "outcome")):
            return None
        won = data.get("won")
        return HandInput(
            number=data["number"],
            dealer=data["dealer"],
            declarer=data.get("declarer"),
            bid=data.get("bid"),
            outcome=data["outcome"],
            trump=data.get("trump") or "",
            melds={s.position: data.get(f"melds_{s.position}") for s in self.seats},
            tricks={s.position: data.get(f"tricks_{s.position}") for s in self.seats},
            won=None if won in (None, "") else won == "1",
            penalty_type=data.get("penalty_type") or "",
            penalty_seat=data.get("penalty_seat"),
            confirm_rare=bool(data.get("confirm_rare")),
            clear_tricks=bool(data.get("clear_tricks")),
        )

    @staticmethod
    def initial_from(hand: Hand) -> dict:
        """Form data that shows a stored hand for correction."""
        initial = {
            "number": hand.number,
            "version": hand.version,
            "dealer": hand.dealer,
            "declarer": hand.declarer,
            "bid": hand.bid,
            "trump": hand.trump,
            "outcome": hand.outcome,
            "won": "" if hand.won is None else ("1" if hand.won else "0"),
            "penalty_type": hand.penalty_type,
            "penalty_seat": hand.penalty_seat,
        }
        for pos, value in enumerate(hand.melds):
            initial[f"melds_{pos}"] = value
        for pos, value in enumerate(hand.tricks or []):
            initial[f"tricks_{pos}"] = value
        return initial


class RoundTotalsForm(forms.Form):
    """Paper-sheet mode: each player's round total at one table.

    Fields per table position ``p``: ``points_<p>`` (game points, may be negative),
    ``won_<p>`` and ``lost_<p>`` (games won and lost as declarer, blank = 0) and the hidden
    ``version_<p>`` of the stored total being corrected.  Plausibility is the engine's,
    applied by :func:`scoring.services.check_totals`.
    """

    def __init__(self, *args, seats: list[Seat], **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        for i, seat in enumerate(seats):
            name = f"{seat.registration.start_number} {seat.registration.player}"
            attrs = {"inputmode": "numeric"}
            if i == 0:
                attrs["autofocus"] = True
            self.fields[f"points_{seat.position}"] = forms.IntegerField(
                label=_("Punkte %(name)s") % {"name": name},
                required=False,
                min_value=-MAX_POINTS,
                max_value=MAX_POINTS,
                widget=forms.NumberInput(attrs={**attrs, "step": 10}),
            )
            for key, label in (("won", _("gewonnen")), ("lost", _("verloren"))):
                self.fields[f"{key}_{seat.position}"] = forms.IntegerField(
                    label=label,
                    required=False,
                    min_value=0,
                    max_value=Tournament.GAMES_PER_ROUND_MAX,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 3}),
                )
            self.fields[f"version_{seat.position}"] = forms.IntegerField(
                required=False, min_value=1, max_value=MAX_POINTS, widget=forms.HiddenInput
            )
        self.fields["reason"] = reason_field()

    def rows(self):
        """``(seat, points, won, lost, version)`` bound fields per seat, for the template."""
        return [
            (
                s,
                self[f"points_{s.position}"],
                self[f"won_{s.position}"],
                self[f"lost_{s.position}"],
                self[f"version_{s.position}"],
            )
            for s in self.seats
        ]

    def to_inputs(self) -> dict[int, TotalInput]:
        """The cleaned data as :class:`TotalInput` by position (call after ``is_valid()``);
        fields that failed to parse are ``None``."""
        data = self.cleaned_data
        return {
            s.position: TotalInput(
                points=data.get(f"points_{s.position}"),
                won=data.get(f"won_{s.position}"),
                lost=data.get(f"lost_{s.position}"),
            )
            for s in self.seats
        }

    def expected_versions(self) -> dict[int, int | None]:
        """The version of each position's total as the clerk loaded it."""
        return {s.position: self.cleaned_data.get(f"version_{s.position}") for s in self.seats}

    @staticmethod
    def initial_from(totals: dict) -> dict:
        """Form data showing stored totals (position → :class:`RoundTotal`)."""
        initial = {}
        for pos, total in totals.items():
            initial[f"points_{pos}"] = total.points
            initial[f"won_{pos}"] = total.games_won
            initial[f"lost_{pos}"] = total.games_lost
            initial[f"version_{pos}"] = total.version
        return initial


class RulingForm(forms.Form):
    """The director's ruling on a dispute at one table: the game, what was claimed, the
    decision and its consequence (a penalty the engine then scores, or none).  The rules
    and the hand's state are checked by :func:`scoring.services.record_ruling`."""

    def __init__(self, *args, seats: list[Seat], games: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.fields["hand_number"] = forms.TypedChoiceField(
            label=_("Spiel"), choices=[(str(n), str(n)) for n in range(1, games + 1)], coerce=int
        )
        self.fields["claim"] = forms.CharField(
            label=_("Beanstandung"),
            max_length=2000,
            widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
            help_text=_("Wer hat was beanstandet?"),
        )
        self.fields["decision"] = forms.CharField(
            label=_("Entscheidung"),
            max_length=2000,
            widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        )
        self.fields["consequence"] = forms.ChoiceField(
            label=_("Folge"),
            choices=[("", _("keine Strafe")), *Hand.PenaltyType.choices[1:]],
            required=False,
        )
        self.fields["offender"] = forms.TypedChoiceField(
            label=_("betroffener Spieler"),
            choices=[
                ("", "—"),
                *[
                    (str(s.position), f"{s.registration.start_number} {s.registration.player}")
                    for s in seats
                ],
            ],
            coerce=int,
            empty_value=None,
            required=False,
        )


def _cards(value: str) -> list[str]:
    """The cards typed in a field of the revoke checker, as codes or as the club names
    them (:func:`rules.cards.parse_card_words`); a German error naming the word it
    cannot read (issue 37.35: "Schippe-Ass" was refused)."""
    try:
        return parse_card_words(value or "")
    except CardWordError as exc:
        if exc.reason == "rank missing":
            message = _(
                "„%(word)s“: der Rang fehlt oder ist unbekannt (Ass, Zehn, König, Ober, Unter)."
            )
        else:
            message = _(
                "„%(word)s“ ist keine Karte: mit Namen wie „Herz-Ass“, „Schippe-Ober“ oder als "
                "Kürzel wie AH, QS angeben."
            )
        raise forms.ValidationError(message, code="card", params={"word": exc.word}) from None


class PlayCheckForm(forms.Form):
    """The revoke checker: trump, the trick so far, the player's hand and the card played,
    cards as codes separated by spaces or commas (GLOSSARY: rank then suit, ``AH``)."""

    trump = forms.ChoiceField(
        label=_("Trumpf"), choices=[("", _("ohne Trumpf")), *Hand.Trump.choices], required=False
    )
    trick = forms.CharField(
        label=_("Karten im Stich (Ausspiel zuerst)"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": "Herz-Ass, Herz-Zehn"}),
    )
    hand = forms.CharField(
        label=_("Hand des Spielers (vor dem Ausspielen)"),
        max_length=400,
        widget=forms.TextInput(
            attrs={"placeholder": "Herz-König, Schippe-Ober, Kreuz-Ass", "size": 40}
        ),
    )
    card = forms.CharField(
        label=_("gespielte Karte"),
        max_length=30,
        widget=forms.TextInput(attrs={"placeholder": "Kreuz-Ass"}),
    )

    def clean_trick(self) -> list[str]:
        return _cards(self.cleaned_data.get("trick"))

    def clean_hand(self) -> list[str]:
        return _cards(self.cleaned_data.get("hand"))

    def clean_card(self) -> str:
        cards = _cards(self.cleaned_data.get("card"))
        if len(cards) != 1:
            raise forms.ValidationError(_("Genau eine Karte angeben."), code="one_card")
        return cards[0]

    def to_question(self):
        """The cleaned data as a :class:`scoring.services.PlayCheck` (after ``is_valid()``):
        canonical card codes."""
        data = self.cleaned_data
        return PlayCheck(
            trump=data.get("trump") or "",
            trick=data.get("trick") or [],
            hand=data.get("hand") or [],
            card=data.get("card") or "",
        )

"""The handout's section "Dieses Turnier": what a tournament itself decides (rounds and
games, the table of four, the lost-game fee, the tie-break, missed rounds, confirmation
of entries), read from the very fields the standings use.  It opens the handout of a
tournament (:func:`printing.handout.for_tournament`)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.selectors import tie_break_note
from tournament.formatting import euro, ordinal_word
from tournament.models import Tournament

from .model import Section, Statement
from .words import _Words


def _rounds_text(tournament: Tournament) -> str:
    """The item ``tournament.rounds`` (:func:`tournament_section`): rounds × games, the
    table of four, pairs scoring or the partners' credit, special games counted like any
    game (seed 001 "Spezielle Spiele" writes them apart) and no target score (seeds 000
    "Das Spiel gewinnen", 001 "Ziel", 003 "Spielende" play to one)."""
    text = ngettext(
        "%(rounds)s Runde mit %(games)s Spielen.",
        "%(rounds)s Runden mit je %(games)s Spielen.",
        tournament.rounds,
    ) % {"rounds": tournament.rounds, "games": tournament.games_per_round}
    # a sentence of its own per mode: the choice's label ("Geber setzt aus") would begin
    # mid-sentence with a capital in English ("Table of four: Dealer sits out.")
    text += " " + (
        _("An Vierertischen setzt jeweils der Geber aus.")
        if tournament.four_table_mode == Tournament.FourTableMode.SIT_OUT
        else _("An Vierertischen spielen je zwei gegen zwei (Kreuzbinokel).")
    )
    ruleset = tournament.ruleset
    if tournament.event_type == Tournament.EventType.PAIRS:
        text += " " + _("Gewertet wird je Paar (feste Partner).")
    elif (
        tournament.four_table_mode != Tournament.FourTableMode.SIT_OUT
        and ruleset.partnerships
        and 4 in ruleset.seat_counts
    ):
        # the standings rank players singly: what the score sheet prints at a table of
        # partners (issue 37.12); no seed keeps standings of single players
        text += " " + _("Jeder Partner bekommt die Punkte seiner Partei.")
    if ruleset.specials_kept_apart and (ruleset.durch or ruleset.bettel):
        # seed 001 "Spezielle Spiele" writes special games apart; no score sheet or the
        # standings has a column for them, the engine adds them to the hand's score like
        # any other game: the tournament's rule (issue 37.17)
        text += " " + (
            _("Durch und Bettel zählen wie jedes Spiel.")
            if ruleset.durch and ruleset.bettel
            else _("Der Durch zählt wie jedes Spiel.")
            if ruleset.durch
            else _("Der Bettel zählt wie jedes Spiel.")
        )
    if ruleset.target_score is not None:
        # the seeds play to a target (000 "Das Spiel gewinnen", 001 "Ziel", 003
        # "Spielende"); a tournament has a fixed number of games and nothing reads
        # target_score (issue 37.18)
        text += " " + _("Ein Spielziel von %(n)s Punkten gibt es nicht.") % {
            "n": ruleset.target_score
        }
    return text


def _fee_text(tournament: Tournament, w: _Words) -> str:
    """The item ``tournament.lost_game_fee`` (:func:`tournament_section`): the fee in EUR
    per game lost as declarer, from the ``lost_game_fee_from``-th on, conceding (in the
    club's word, ``w``) counting as lost; or that there is none."""
    if tournament.lost_game_fee is None:
        text = _("Für verlorene Spiele gibt es keine Gebühr.")
    else:
        fee = euro(tournament.lost_game_fee)
        if tournament.lost_game_fee_from > 1:
            # the ordinal written out: "ab dem 3." read as "from the 3rd Abgehen" (37.8)
            text = _(
                "Gebühr: %(fee)s für jedes als Spielführer verlorene Spiel, vom %(nth)s "
                "verlorenen Spiel an."
            ) % {"fee": fee, "nth": ordinal_word(tournament.lost_game_fee_from)}
        else:
            text = _("Gebühr: %(fee)s für jedes als Spielführer verlorene Spiel.") % {"fee": fee}
        if tournament.ruleset.abgehen is not None:
            text += " " + _("%(concede)s zählt als verloren.") % {"concede": w.concede}
    return text


def _missed_rounds_text(tournament: Tournament) -> str:
    """The item ``tournament.missed_rounds`` (:func:`tournament_section`): how the overall
    standings treat a missed round (``Tournament.MissedRounds``)."""
    return {
        Tournament.MissedRounds.ZERO: _("Wer eine Runde verpasst, bekommt für sie 0 Punkte."),
        Tournament.MissedRounds.UNPLACED: _(
            "Wer eine Runde verpasst, steht ohne Platz und ohne Preis in der Gesamtwertung."
        ),
        Tournament.MissedRounds.EXCLUDED: _(
            "Wer eine Runde verpasst, kommt nicht in die Gesamtwertung, nur in die seiner Runden."
        ),
    }[tournament.missed_rounds]


def _confirmation_text(tournament: Tournament) -> str | None:
    """The item ``tournament.confirmation`` (:func:`tournament_section`): who confirms
    entries (an opponent or a clerk at the table, where table links work: every hand
    entered; else a second clerk) and whether unconfirmed points are marked in the
    standings; ``None`` when nobody confirms."""
    confirmation = {
        Tournament.TableEntry.OPPONENT: _(
            "Eingetragen wird am Tisch (QR-Code der Tischkarte); ein Gegenspieler bestätigt "
            "jedes Spiel."
        ),
        Tournament.TableEntry.CLERK: _(
            "Eingetragen wird am Tisch (QR-Code der Tischkarte); ein Schreiber bestätigt."
        ),
    }.get(tournament.table_entry)
    if tournament.entry_mode != Tournament.EntryMode.HANDS:
        confirmation = None  # table links enter single hands only (refused otherwise)
    if confirmation is None and tournament.confirmation_required:
        confirmation = _("Jede Eingabe prüft und bestätigt ein zweiter Schreiber.")
    if confirmation and tournament.marks_provisional:
        confirmation += " " + _("Bis dahin steht „unbestätigt“ in der Rangliste.")
    return confirmation


def tournament_section(tournament: Tournament, lang: str = "de") -> Section:
    """The section "Dieses Turnier": what ``tournament`` itself decides, one list item
    (:class:`Statement`, never marked "Turnierregel") each, keyed ``tournament.<field>``:

    - ``tournament.rounds``: rounds × games per round, what a table of four does
      (``four_table_mode``), and pairs scoring (``event_type``) when chosen; else, at
      tables of partners, that each partner is credited his side's points (issue 37.12);
      that special games count like any game where the ruleset's source writes them apart
      (``specials_kept_apart``, which nothing reads: 37.17); and that there is no target
      where the source plays to one (``target_score``, which nothing reads: 37.18).  The
      tournament's own rules, so nothing here is marked; they stand here, not among the
      rules, also so the fullest sheet (swabian-traditional) stays one page;
    - ``tournament.lost_game_fee``: the fee in EUR per game lost as declarer, from the
      ``lost_game_fee_from``-th on, as :func:`scoring.selectors.standings` charges it
      (conceding counts as lost); or that there is none;
    - ``tournament.tie_break``: :func:`scoring.selectors.tie_break_note`, the sentence the
      results list and the standings print;
    - ``tournament.missed_rounds``: how the overall standings treat a missed round;
    - ``tournament.confirmation``: who confirms entries and whether unconfirmed points are
      marked, only when entries are confirmed or entered at the table (``table_entry``,
      which works only when every hand is entered, ``entry_mode == "hands"``).

    ``lang`` (``"de"`` or ``"en"``) must match the active translation, as for
    :func:`build`.  Reads only the tournament's fields: no database query.
    """
    w = _Words(tournament.ruleset, lang)
    items: list[Statement] = []

    items.append(Statement("tournament.rounds", _rounds_text(tournament)))
    items.append(Statement("tournament.lost_game_fee", _fee_text(tournament, w)))
    items.append(Statement("tournament.tie_break", tie_break_note(tournament)))

    items.append(Statement("tournament.missed_rounds", _missed_rounds_text(tournament)))
    confirmation = _confirmation_text(tournament)
    if confirmation:
        items.append(Statement("tournament.confirmation", confirmation))

    return Section(_("Dieses Turnier"), notes=items)

"""Trustworthy results: confirmation by a second account, the round lock with the director's
adjustments, director rulings scored by the engine, the revoke checker, and the database
constraints behind them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.urls import reverse

from scoring import selectors, services
from scoring.errors import EntryRefused
from scoring.models import Hand, RoundTotal, Ruling
from tests.factories.hands import entry
from tests.factories.tournaments import close_round_anyway, make_tournament, three_table
from tournament import services as tournament_services
from tournament.roles import CLERK_GROUP

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirming():
    return make_tournament(confirmation_required=True)


def table_url(table, name="scoring:table"):
    return reverse(name, args=[table.round.tournament_id, table.round.number, table.number])


def form_data(hand_number=1, **kw):
    data = {
        "number": hand_number, "version": "", "dealer": 0, "declarer": 1, "bid": 300,
        "trump": "H", "outcome": "played",
        "melds_0": 20, "melds_1": 140, "melds_2": 60,
        "tricks_0": 30, "tricks_1": 175, "tricks_2": 45,
        "won": "", "penalty_type": "", "penalty_seat": "", "reason": "",
    }  # fmt: skip
    data.update(kw)
    return data


# ------------------------------------------------------------------------ confirmation


def test_a_second_account_confirms_and_the_enterer_cannot(confirming, clerk, second_clerk):
    table = three_table(confirming)
    hand, _ = services.save_hand(table, entry(), clerk)
    with pytest.raises(services.ConfirmationRefused, match="eigene Eingabe"):
        services.confirm_hand(hand, clerk, hand.version)
    confirmed = services.confirm_hand(hand, second_clerk, hand.version)
    assert confirmed.confirmed_by == second_clerk
    assert confirmed.version == 1  # confirming changes no value
    with pytest.raises(services.ConfirmationRefused, match="schon bestätigt"):
        services.confirm_hand(hand, second_clerk, hand.version)
    # the confirmation is kept in the history and folded into version 1
    versions = selectors.hand_history(Hand.objects.filter(pk=hand.pk))
    assert versions == {}  # a hand saved once is not listed as corrected
    assert Hand.history.filter(id=hand.pk).count() == 2


def test_a_correction_clears_the_confirmation_and_a_stale_confirmation_is_refused(
    confirming, clerk, second_clerk
):
    table = three_table(confirming)
    hand, _ = services.save_hand(table, entry(), clerk)
    services.confirm_hand(hand, second_clerk, 1)
    corrected, _ = services.save_hand(
        table, entry(bid=310), second_clerk, expected_version=1, reason="Reizwert 310"
    )
    assert corrected.version == 2 and corrected.confirmed_by is None
    # the clerk looked at version 1 and wants to confirm: refused, the values changed
    with pytest.raises(services.StaleEntry):
        services.confirm_hand(corrected, clerk, 1)
    services.confirm_hand(corrected, clerk, 2)  # clerk did not make version 2: allowed
    history = selectors.hand_history(Hand.objects.filter(pk=hand.pk))[hand.pk]
    assert [v.version for v in history] == [1, 2]
    assert history[0].confirmed_by == "clerk2" and history[1].confirmed_by == "clerk"


def test_confirmation_is_refused_where_the_tournament_does_not_confirm(
    tournament, clerk, second_clerk
):
    hand, _ = services.save_hand(three_table(tournament), entry(), clerk)
    with pytest.raises(services.ConfirmationRefused):
        services.confirm_hand(hand, second_clerk, 1)


def test_confirm_view_marks_overview_and_standings(client, confirming, clerk, second_clerk):
    table = three_table(confirming)
    services.save_hand(table, entry(), clerk)
    progress = {p.table.pk: p for p in selectors.round_progress(table.round)}
    assert progress[table.pk].unconfirmed == 1
    rows = selectors.standings(confirming, public=True)
    assert sorted(r.provisional for r in rows if r.total or r.provisional) == [1, 1, 1]
    client.force_login(clerk)
    overview = client.get(reverse("scoring:clerk", args=[confirming.pk])).content.decode()
    assert "1 unbestätigt" in overview
    page = client.get(table_url(table)).content.decode()
    assert "unbestätigt" in page and ">bestätigen<" not in page  # not for the own entry
    standings = client.get(reverse("scoring:standings", args=[confirming.pk])).content.decode()
    assert "vorläufig" in standings

    client.force_login(second_clerk)
    page = client.get(table_url(table)).content.decode()
    assert ">bestätigen<" in page
    response = client.post(table_url(table, "scoring:confirm"), {"spiel": 1, "version": 1})
    assert response.status_code == 302
    hand = Hand.objects.get(table=table, number=1)
    assert hand.confirmed_by == second_clerk
    assert all(r.provisional == 0 for r in selectors.standings(confirming))
    assert "✓ clerk2" in client.get(table_url(table)).content.decode()


def test_confirm_view_reports_refusals_as_messages_not_errors(client, confirming, clerk):
    table = three_table(confirming)
    services.save_hand(table, entry(), clerk)
    client.force_login(clerk)
    for data in ({"spiel": 1, "version": 1}, {"spiel": 1, "version": 7}, {"spiel": "x"}):
        response = client.post(table_url(table, "scoring:confirm"), data, follow=True)
        assert response.status_code == 200
        assert response.context["messages"]
    assert Hand.objects.get(table=table, number=1).confirmed_by is None
    response = client.post(table_url(table, "scoring:confirm"), {"spiel": 5, "version": 1})
    assert response.status_code == 404


def test_a_round_with_unconfirmed_entries_closes_only_with_a_reason(
    confirming, clerk, second_clerk
):
    table = three_table(confirming)
    round_ = table.round
    hand, _ = services.save_hand(table, entry(), clerk)
    with pytest.raises(services.RoundIncomplete, match=f"unbestätigt sind: Tisch {table.number}"):
        services.close_round(round_)
    services.confirm_hand(hand, second_clerk, 1)
    services.close_round(round_, reason="Test: Runde ohne alle Spiele")
    round_.refresh_from_db()
    assert round_.status == "closed" and round_.closed_at is not None
    # only the missing games were stored: the one hand was confirmed before the close
    assert not any(item.get("unconfirmed") for item in round_.forced_close_missing)


def test_paper_totals_are_confirmed_per_table(client, clerk, second_clerk, paper_table):
    table = paper_table
    progress = {p.table.pk: p for p in selectors.round_progress(table.round)}
    assert progress[table.pk].unconfirmed == 3
    versions = {0: 1, 1: 1, 2: 1}
    with pytest.raises(services.ConfirmationRefused):
        services.confirm_table_totals(table, clerk, versions)
    with pytest.raises(services.StaleTotals):
        services.confirm_table_totals(table, second_clerk, {0: 1, 1: 2, 2: 1})
    client.force_login(second_clerk)
    response = client.post(
        table_url(table, "scoring:confirm"), {f"version_{p}": v for p, v in versions.items()}
    )
    assert response.status_code == 302
    assert set(RoundTotal.objects.values_list("confirmed_by__username", flat=True)) == {"clerk2"}
    assert (
        "Alle Summen dieses Tisches sind bestätigt" in client.get(table_url(table)).content.decode()
    )


# ------------------------------------------------------------------ round lock, adjustments


def test_closing_locks_entries_and_only_the_director_adjusts_with_a_reason(
    client, tournament, clerk, director
):
    table = three_table(tournament)
    hand, _ = services.save_hand(table, entry(), clerk)
    services.close_round(table.round, reason="Test: Runde ohne alle Spiele")
    table.refresh_from_db()
    with pytest.raises(EntryRefused, match="abgeschlossen"):
        services.save_hand(table, entry(bid=310), clerk, expected_version=1)
    refused, evaluation = services.save_hand(table, entry(bid=310), director, expected_version=1)
    assert refused is None and "reason" in evaluation.errors
    adjusted, _ = services.save_hand(
        table, entry(bid=310), director, expected_version=1, reason="Reizwert laut Spielblatt 310"
    )
    assert adjusted.version == 2
    history = selectors.hand_history(
        Hand.objects.filter(pk=hand.pk), closed_at=table.round.closed_at
    )[hand.pk]
    assert history[-1].adjustment and history[-1].reason == "Reizwert laut Spielblatt 310"
    assert not history[0].adjustment

    # the clerk sees the closed table read-only and cannot post
    client.force_login(clerk)
    page = client.get(table_url(table)).content.decode()
    assert "nur noch durch die Turnierleitung" in page and 'id="eingabe"' not in page
    assert client.post(table_url(table), form_data(version=2, bid=320)).status_code == 403
    # the director's form asks for the reason; without one it is a field error
    client.force_login(director)
    page = client.get(table_url(table) + "?spiel=1").content.decode()
    assert 'name="reason"' in page
    response = client.post(table_url(table), form_data(version=2, bid=320))
    assert response.status_code == 422
    assert "Grund der Korrektur" in response.content.decode()
    assert "bitte den Grund" in response.content.decode()
    response = client.post(table_url(table), form_data(version=2, bid=320, reason="Schreibfehler"))
    assert response.status_code == 302
    assert "Nachtrag der Turnierleitung" in client.get(table_url(table)).content.decode()


def test_adjusted_totals_in_paper_mode_need_the_director_and_a_reason(clerk, director):
    paper = make_tournament(entry_mode="totals")
    table = three_table(paper)
    inputs = {
        0: services.TotalInput(1230, 2, 1),
        1: services.TotalInput(-180, 1, 2),
        2: services.TotalInput(2450, 4, 0),
    }
    services.save_round_totals(table, inputs, clerk)
    services.close_round(table.round, reason="Test: Runde ohne alle Spiele")
    table.refresh_from_db()
    inputs[0] = services.TotalInput(1330, 2, 1)
    with pytest.raises(EntryRefused):
        services.save_round_totals(table, inputs, clerk, {0: 1, 1: 1, 2: 1})
    saved, errors = services.save_round_totals(table, inputs, director, {0: 1, 1: 1, 2: 1})
    assert saved is None and "reason" in errors
    saved, errors = services.save_round_totals(
        table, inputs, director, {0: 1, 1: 1, 2: 1}, reason="Additionsfehler"
    )
    assert not errors
    total = RoundTotal.objects.get(pk=saved[0].pk)
    assert total.points == 1330 and total.version == 2
    assert total.history.first().history_change_reason == "Additionsfehler"


def test_a_planned_round_takes_no_entries(tournament, clerk, director):
    close_round_anyway(tournament)
    round_2 = tournament.round_set.get(number=2)
    tournament_services.draw_round(round_2, seed=3)
    table = round_2.tables.filter(seats__position=2).exclude(seats__position=3).first()
    for user in (clerk, director):
        with pytest.raises(EntryRefused, match="nicht begonnen"):
            services.save_hand(table, entry(), user)


# ------------------------------------------------------------------------------ rulings


def test_a_revoke_ruling_is_scored_by_the_engine_and_kept_with_the_hand(
    client, tournament, clerk, director
):
    table = three_table(tournament)
    hand, _ = services.save_hand(table, entry(), clerk)
    before = list(hand.scores)
    ruling, errors = services.record_ruling(
        table,
        hand_number=1,
        claim="Spieler 3 hat Herz nicht bedient",
        decision="Verworfen, Strafe nach Regelwerk",
        consequence="verwerfen",
        offender=2,
        user=director,
    )
    assert not errors
    hand.refresh_from_db()
    expected = services.evaluate(
        tournament, 3, entry(penalty_type="verwerfen", penalty_seat=2)
    ).scores
    assert hand.scores == [expected[p] for p in range(3)] and hand.scores != before
    assert hand.penalty_type == "verwerfen" and hand.penalty_seat == 2 and hand.version == 2
    assert ruling.hand == hand and ruling.hand_version == 2
    record = hand.history.first()
    assert "Entscheidung der Turnierleitung" in record.history_change_reason
    client.force_login(clerk)
    page = client.get(table_url(table)).content.decode()
    assert "Spieler 3 hat Herz nicht bedient" in page and "gewertet in Fassung 2" in page


def test_a_misdiscard_ruling_on_someone_else_than_the_declarer_is_refused(
    tournament, director, clerk
):
    table = three_table(tournament)
    services.save_hand(table, entry(), clerk)
    ruling, errors = services.record_ruling(
        table,
        hand_number=1,
        claim="Dabb falsch gedrückt",
        decision="Falsch gedrückt",
        consequence="falsch-druecken",
        offender=0,
        user=director,
    )
    assert ruling is None
    assert errors["offender"] == ["Falsch drücken kann nur der Spielführer."]
    assert not Ruling.objects.exists()
    assert Hand.objects.get(table=table, number=1).version == 1


def test_a_ruling_without_penalty_needs_no_hand_and_a_penalty_needs_one(tournament, director):
    table = three_table(tournament)
    ruling, errors = services.record_ruling(
        table,
        hand_number=4,
        claim="Zu spät gemeldet",
        decision="Meldung zählt nicht; Spiel wird so eingetragen",
        consequence="",
        offender=None,
        user=director,
    )
    assert ruling is not None and ruling.hand is None and not errors
    _, errors = services.record_ruling(
        table,
        hand_number=5,
        claim="x",
        decision="y",
        consequence="verwerfen",
        offender=None,
        user=director,
    )
    assert set(errors) == {"hand_number", "offender"}


def test_ruling_page_is_for_the_director_and_shows_field_errors(
    client, tournament, clerk, director
):
    table = three_table(tournament)
    services.save_hand(table, entry(), clerk)
    url = table_url(table, "scoring:ruling")
    client.force_login(clerk)
    assert client.get(url).status_code == 403
    assert client.post(url, {}).status_code == 403
    client.force_login(director)
    assert client.get(url + "?spiel=1").status_code == 200
    response = client.post(
        url, {"hand_number": 1, "claim": "", "decision": "ok", "consequence": "verwerfen"}
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="err-claim"' in body and "Dieses Feld ist zwingend erforderlich" in body
    response = client.post(
        url,
        {
            "hand_number": 1,
            "claim": "Nicht bedient",
            "decision": "Verworfen",
            "consequence": "verwerfen",
            "offender": 0,
        },
    )
    assert response.status_code == 302
    assert Hand.objects.get(table=table, number=1).penalty_seat == 0


# ----------------------------------------------------------------------- revoke checker


def test_revoke_checker_names_the_broken_obligation(client, tournament, clerk):
    client.force_login(clerk)
    url = reverse("scoring:play_check", args=[tournament.pk])
    response = client.get(url, {"trump": "S", "trick": "AH", "hand": "TH KC QS", "card": "KC"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "nicht erlaubt" in body and "Farbzwang" in body and "<strong>Herz-Zehn</strong>" in body
    response = client.get(url, {"trump": "S", "trick": "AH", "hand": "KC QS", "card": "KC"})
    body = response.content.decode()
    assert "nicht erlaubt" in body and "Trumpfzwang" in body
    response = client.get(url, {"trump": "S", "trick": "AH", "hand": "TH KC", "card": "th"})
    assert "war erlaubt" in response.content.decode()


def test_revoke_checker_answers_bad_cards_by_field(client, tournament, clerk):
    client.force_login(clerk)
    url = reverse("scoring:play_check", args=[tournament.pk])
    response = client.get(url, {"trump": "S", "trick": "AH ZZ", "hand": "TH KC", "card": "AS"})
    assert response.status_code == 422
    body = response.content.decode()
    assert "„ZZ“ ist keine Karte" in body
    response = client.get(url, {"trump": "S", "trick": "AH", "hand": "TH KC", "card": "AS"})
    assert "Die gespielte Karte muss in der Hand sein." in response.content.decode()
    assert client.get(url, {"hand": "", "card": ""}).status_code == 422
    client.logout()
    assert client.get(url).status_code == 302  # staff only


def test_revoke_checker_reads_the_clubs_card_names(client, tournament, clerk):
    """Issue 37.35: the checker asked for English letters and mentioned 7s and 9s a
    40-card pack does not have; "Schippe-Ass" was refused."""
    client.force_login(clerk)
    url = reverse("scoring:play_check", args=[tournament.pk])
    # the page's own text: the body's CSRF token (random letters) may hold "9H" by chance
    page = client.get(url).content.decode().split("<main", 1)[1]
    assert tournament.ruleset.deck_size == 40
    assert "Herz-Ass" in page and "keine Siebener" in page and "9H" not in page
    response = client.get(
        url,
        {
            "trump": "S",
            "trick": "Herz-Ass",
            "hand": "Herz Zehn, Eichel-König; Schippen-Ober",
            "card": "Kreuz-König",
        },
    )
    body = response.content.decode()
    assert response.status_code == 200, body
    assert "Kreuz-König war nicht erlaubt" in body and "<strong>Herz-Zehn</strong>" in body
    # the pack's own cards only: a Siebener is refused in a 40-card pack, at its field
    refused = client.get(url, {"trick": "Herz-Ass", "hand": "Herz-Siebener", "card": "Herz 7"})
    assert refused.status_code == 422
    # a misspelt name is named at its field
    typo = client.get(url, {"trick": "Schippe-Asss", "hand": "Herz-Zehn", "card": "Herz-Zehn"})
    assert typo.status_code == 422 and "„Schippe Asss“" in typo.content.decode()


# ------------------------------------------------------------------------- constraints


def test_database_refuses_what_the_rules_forbid(tournament, clerk):
    table = three_table(tournament)
    hand, _ = services.save_hand(table, entry(), clerk)
    for change in (
        {"confirmed_by": clerk, "confirmed_at": hand.updated_at},  # own entry
        {"confirmed_by": None, "confirmed_at": hand.updated_at},  # half a confirmation
        {"declarer": 4},
        {"penalty_seat": 7},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Hand.objects.filter(pk=hand.pk).update(**change)
    with pytest.raises(IntegrityError), transaction.atomic():
        Ruling.objects.create(
            table=table, hand_number=1, claim="x", decision="y",
            consequence="verwerfen", offender=None, decided_by=clerk,
        )  # fmt: skip


def test_revoke_checker_names_each_bad_card_once_at_its_field(tournament):
    """:func:`scoring.services.judge_play` turns the engine's indexed fields into the form's
    fields, each message once, a listed card named in front of its message."""
    judged, errors = services.judge_play(
        tournament, services.PlayCheck(trump="S", trick=["AH"], hand=["TH", "ZZ", "ZZ"], card="TH")
    )
    assert judged is None
    assert list(errors) == ["hand"]
    (message,) = errors["hand"]  # the same bad code twice: one message
    assert message.startswith("ZZ: Kein Kartencode")
    # a problem of the whole trick has no card to name, and the card played has no list
    judged, errors = services.judge_play(
        tournament, services.PlayCheck(trump="S", trick=["AH"] * 5, hand=["TH"], card="KC")
    )
    assert judged is None and sorted(errors) == ["card", "trick"]
    assert not any(m.startswith("AH:") for m in errors["trick"])
    assert errors["card"] == ["Die gespielte Karte muss in der Hand sein."]


def test_revoke_checker_counts_the_cards_of_a_full_trick(tournament):
    judged, errors = services.judge_play(
        tournament,
        services.PlayCheck(trump="S", trick=["AH", "KH", "QH", "JH"], hand=["TH"], card="TH"),
    )
    assert judged is None
    assert errors == {"trick": ["4 Karten sind zu viele; höchstens 3."]}


def test_every_refusal_of_a_ruling_names_its_field_and_writes_nothing(
    tournament, director, django_user_model
):
    """Each of :func:`scoring.services.record_ruling`'s own checks, with its words (mutation
    testing, docs/testing.md)."""
    table = three_table(tournament)

    def ruling(**kw):
        values = dict(
            hand_number=1, claim="Nicht bedient", decision="Verworfen", consequence="",
            offender=None, user=director,
        )  # fmt: skip
        values.update(kw)
        return services.record_ruling(table, **values)

    assert ruling(hand_number=99) == (
        None,
        {"hand_number": ["Spielnummer muss zwischen 1 und 12 liegen."]},
    )
    assert ruling(claim="  ", decision="") == (
        None,
        {
            "claim": ["Bitte angeben, was beanstandet wurde."],
            "decision": ["Bitte die Entscheidung angeben."],
        },
    )
    assert ruling(offender=1) == (
        None,
        {
            "offender": [
                "Ohne Strafe wird kein Spieler bestraft; bitte Folge wählen oder Feld leeren."
            ]
        },
    )
    outsider = django_user_model.objects.create_user("fremd", password="pw-fremd-123")
    outsider.groups.add(Group.objects.get(name=CLERK_GROUP))
    with pytest.raises(EntryRefused, match="nicht als Schreiber eingetragen"):
        ruling(user=outsider)
    # a penalty needs this table's hand of that number: game 1 of another table, or game 2
    # of this one, does not count
    other = next(t for t in table.round.tables.all() if t.pk != table.pk)
    services.save_hand(other, entry(), director)
    services.save_hand(table, entry(number=2, dealer=1), director)
    assert ruling(consequence="verwerfen") == (
        None,
        {
            "hand_number": ["Spiel 1 ist noch nicht erfasst; bitte zuerst das Spiel eintragen."],
            "offender": ["Bitte den Spieler angeben."],
        },
    )
    assert not Ruling.objects.exists()


def test_a_paper_evening_takes_no_penalty_in_a_ruling(director):
    paper = make_tournament(entry_mode="totals")
    table = three_table(paper)
    assert services.record_ruling(
        table, hand_number=1, claim="Nicht bedient", decision="Verworfen",
        consequence="verwerfen", offender=1, user=director,
    ) == (
        None,
        {"consequence": ["Im Papiermodus wird die Strafe auf dem Spielblatt eingetragen."]},
    )  # fmt: skip
    assert not Ruling.objects.exists()


def test_revoke_checker_names_a_card_the_tournaments_pack_lacks(tournament):
    """A Neuner in a 40-card evening: the message names the pack of this tournament's
    ruleset."""
    judged, errors = services.judge_play(
        tournament, services.PlayCheck(trump="S", trick=["AH"], hand=["9H", "KC"], card="KC")
    )
    assert judged is None
    assert errors == {"hand": ["9H: Diese Karte gibt es im Blatt mit 40 Karten nicht."]}


def test_the_correction_history_reads_in_words_and_numbers(tournament, clerk):
    """Issue 37.27: the history showed Python: "Spielführer gewonnen True → False;
    Meldungen [0, 40, 160] → [0, 40, 150]".  A lost game with other melds and trump."""
    table = three_table(tournament)
    hand, _ = services.save_hand(table, entry(), clerk)
    services.save_hand(
        table,
        entry(trump="S", melds={0: 20, 1: 140, 2: 40}, tricks={0: 130, 1: 75, 2: 45}),
        clerk,
        expected_version=1,
        reason="Stiche vertauscht",
    )
    history = selectors.hand_history(Hand.objects.filter(pk=hand.pk))[hand.pk]
    changes = {label: (old, new) for label, old, new in history[1].changes}
    assert changes["Spielführer gewonnen"] == ("ja", "nein")
    assert changes["Trumpf"][1] != "S" and not changes["Trumpf"][1].startswith("[")
    melds = next(v for k, v in changes.items() if "Meld" in k)
    assert melds == ("20 / 140 / 60", "20 / 140 / 40")
    scores = next(v for k, v in changes.items() if "Punkte" in k or "Ergebnis" in k)
    assert "\u2212" in scores[1] and "[" not in scores[1], scores
    text = " ".join(f"{a} {b}" for _, a, b in history[1].changes)
    assert "True" not in text and "False" not in text and "[" not in text

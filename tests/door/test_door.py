"""The door (issue 41.6) through its pages: check-in by start number or name, the draw
among those checked in (the overview names who is absent), start fees and the cash
summary as a page and a PDF, who may work the door; and an evening at the door from the
member list to the treasurer's sheet."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring import services as scoring_services
from tests.factories.pdf import text_of
from tournament import services
from tournament.models import Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(db, clerk):
    """Twelve players registered beforehand, check-in and a start fee of 8 EUR on, round 1
    not drawn; the clerk is one of the tournament's clerks."""
    tournament = services.create_tournament(
        name="Winterturnier", date=date(2026, 12, 5), clerks=[clerk]
    )
    for i in range(1, 13):
        player = Player.objects.create(
            first_name=f"Vorname{i}", last_name=f"Spieler{i}", club="TSV"
        )
        services.register(tournament, player, consent_public=True)
    tournament.check_in = True
    tournament.start_fee = Decimal("8.00")
    tournament.save()
    return tournament


def _door(tournament, query: str = "") -> str:
    return reverse("door:door", args=[tournament.pk]) + (f"?q={query}" if query else "")


def _act(client, tournament, number: int, action: str, **data):
    return client.post(reverse("door:action", args=[tournament.pk, number, action]), data)


def _checked_in(tournament) -> list[int]:
    return list(
        tournament.registrations.filter(checked_in_at__isnull=False)
        .order_by("start_number")
        .values_list("start_number", flat=True)
    )


def test_players_are_found_by_number_or_name_and_checked_in(evening, as_director):
    page = as_director.get(_door(evening, "7")).content.decode()
    assert "Spieler7" in page and "Spieler1," not in page
    page = as_director.get(_door(evening, "spieler1 vorname11")).content.decode()
    assert "Spieler11" in page and "Spieler12" not in page
    assert _act(as_director, evening, 7, "einchecken", q="7").status_code == 302
    assert _act(as_director, evening, 7, "einchecken").status_code == 302  # a second tap
    assert _checked_in(evening) == [7]
    page = as_director.get(_door(evening)).content.decode()
    assert "1 von 12 Angemeldeten eingecheckt" in page and "da seit" in page
    _act(as_director, evening, 7, "zuruecknehmen")
    assert _checked_in(evening) == []


def test_a_round_is_drawn_among_those_checked_in_and_the_overview_names_the_absent(
    evening, as_director
):
    for number in range(1, 10):  # 9 of 12 came
        _act(as_director, evening, number, "einchecken")
    overview = as_director.get(reverse("scoring:clerk", args=[evening.pk])).content.decode()
    assert "Angemeldet, aber nicht eingecheckt (3, werden nicht ausgelost)" in overview
    for name in ("10 Vorname10 Spieler10", "11 Vorname11 Spieler11", "12 Vorname12 Spieler12"):
        assert name in overview
    round_ = evening.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    seated = sorted(round_.seats.values_list("registration__start_number", flat=True))
    assert seated == list(range(1, 10))
    # once seated, a check-in is not taken back silently
    response = _act(as_director, evening, 4, "zuruecknehmen")
    assert "schon ausgelost" in " ".join(m.message for m in response.wsgi_request._messages)
    assert 4 in _checked_in(evening)


def test_without_check_in_everyone_registered_is_drawn(evening):
    evening.check_in = False
    evening.save()
    round_ = evening.round_set.get(number=1)
    assert services.absent_from_draw(round_) == []
    services.draw_round(round_, seed=3)
    assert round_.seats.count() == 12


def test_clerks_work_the_door_only_when_the_director_allows_it(evening, client, clerk):
    client.force_login(clerk)
    assert client.get(_door(evening)).status_code == 403
    assert _act(client, evening, 1, "einchecken").status_code == 403
    evening.clerks_at_door = True
    evening.save()
    page = client.get(_door(evening))
    assert page.status_code == 200 and "Einstellungen" not in page.content.decode()
    _act(client, evening, 1, "einchecken")
    _act(client, evening, 1, "startgeld", fee="paid")
    assert _checked_in(evening) == [1]
    assert client.get(reverse("door:cash", args=[evening.pk])).status_code == 403
    # another clerk, not of this tournament, still may not
    other = get_user_model().objects.create_user("fremd", password="pw-fremd-123")
    other.groups.add(*clerk.groups.all())
    client.force_login(other)
    assert client.get(_door(evening)).status_code == 403


def test_bad_door_input_is_refused_clearly(evening, as_director):
    response = as_director.post(
        reverse("door:settings", args=[evening.pk]),
        {"check_in": "on", "start_fee": "-5", "clerks_at_door": ""},
    )
    assert response.status_code == 422 and 'role="alert"' in response.content.decode()
    evening.refresh_from_db()
    assert evening.start_fee == Decimal("8.00")
    response = _act(as_director, evening, 2, "startgeld", fee="vielleicht")
    assert "bitte offen, bezahlt oder erlassen" in " ".join(
        m.message for m in response.wsgi_request._messages
    )
    assert Registration.objects.get(tournament=evening, start_number=2).fee == ""
    assert _act(as_director, evening, 99, "einchecken").status_code == 404


def test_the_cash_summary_adds_start_fees_and_lost_game_fees(evening, as_director):
    evening.lost_game_fee = Decimal("0.50")
    evening.save()
    for number, fee in ((1, "paid"), (2, "paid"), (3, "waived")):
        _act(as_director, evening, number, "startgeld", fee=fee)
    page = as_director.get(reverse("door:cash", args=[evening.pk])).content.decode()
    assert "16,00" in page  # two paid start fees of 8 EUR
    assert "erlassen: 1 Spieler" in page
    pdf = as_director.get(reverse("printing:cash", args=[evening.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = text_of(pdf.content)
    assert "Kasse" in text and "Vorname12 Spieler12" in text
    assert Client().get(reverse("printing:cash", args=[evening.pk])).status_code == 302


# ----------------------------------------------------------------- an evening at the door


def _lost_hand(table, number: int) -> dict:
    """Hand ``number`` at a table of three in which position 1 bids 300 and loses."""
    from tests.factories.web import form_data

    return form_data(
        table,
        number=number,
        dealer=scoring_services.dealer_for(table, 3, number),
        tricks_0=75,
        tricks_1=100,
        tricks_2=75,
    )


def test_an_evening_at_the_door(director, clerk, client):
    """31 players from an XLSX (umlauts) and a Windows-1252 CSV, 28 checked in at the door,
    the draw among them, a call and an announcement during the round, and the cash
    summary against the fees counted by hand."""

    from hall.models import Announcement, DirectorCall
    from scoring import links
    from tests.factories.member_lists import press, upload, xlsx
    from tests.factories.web import link_page, phone, table_url

    client.force_login(director)
    tournament = services.create_tournament(
        name="Herbstturnier", date=date(2026, 11, 28), clerks=[clerk]
    )
    members = [["Nachname", "Vorname", "Verein", "Jahrgang", "Einwilligung"]] + [
        [f"Müller{i}", f"Jürgen{i}", "SV Öhringen", 1950 + i, "ja"] for i in range(1, 21)
    ]
    press(client, tournament, upload(client, tournament, xlsx(members)))
    csv = "\r\n".join(f"Weiß{i};Käthe{i};TSV Künzelsau;19{60 + i};ja" for i in range(1, 12))
    press(
        client,
        tournament,
        upload(client, tournament, csv.encode("cp1252"), "nachmeldungen.csv"),
    )
    assert tournament.registrations.count() == 31
    assert Player.objects.filter(last_name="Weiß3", first_name="Käthe3").exists()

    settings = {"check_in": "on", "start_fee": "10.00", "clerks_at_door": "on"}
    assert client.post(reverse("door:settings", args=[tournament.pk]), settings).status_code == 302
    tournament.refresh_from_db()
    tournament.lost_game_fee = Decimal("0.50")
    tournament.table_entry = "opponent"
    tournament.save()
    door = Client()
    door.force_login(clerk)  # the clerk at the door
    for number in range(1, 29):
        if number % 2:
            found = door.get(_door(tournament, str(number))).content.decode()
        else:  # by name
            name = Registration.objects.get(tournament=tournament, start_number=number).player
            found = door.get(_door(tournament, name.last_name)).content.decode()
        assert f'id="nr-{number}"' in found
        _act(door, tournament, number, "einchecken")
        _act(door, tournament, number, "startgeld", fee="waived" if number in (5, 6) else "paid")
    assert len(_checked_in(tournament)) == 28

    overview = client.get(reverse("scoring:clerk", args=[tournament.pk])).content.decode()
    assert "Angemeldet, aber nicht eingecheckt (3, werden nicht ausgelost)" in overview
    client.post(
        reverse("scoring:round_action", args=[tournament.pk, 1, "auslosen"]), {"seed": "41"}
    )
    client.post(
        reverse("scoring:round_action", args=[tournament.pk, 1, "starten"]), {"bestaetigt": "1"}
    )
    round_ = tournament.round_set.get(number=1)
    assert round_.status == "running" and round_.started_at is not None
    seated = set(round_.seats.values_list("registration__start_number", flat=True))
    assert seated == set(range(1, 29))

    # during the round: one announcement and one call
    client.post(reverse("hall:announce", args=[tournament.pk]), {"text": "Pause um 21 Uhr"})
    three = [t for t in round_.tables.all() if t.seats.count() == 3]
    link = links.live_link(three[0])
    caller = phone()
    caller.get(link_page(link))
    caller.post(
        reverse("hall:table_call", args=[link.token]),
        {"reason": "Frage zum Reizen", "csrfmiddlewaretoken": caller.cookies["csrftoken"].value},
    )
    assert Announcement.objects.filter(tournament=tournament).count() == 1
    assert DirectorCall.objects.get().reason == "Frage zum Reizen"
    live = client.get(reverse("hall:console_live", args=[tournament.pk])).content.decode()
    assert "Frage zum Reizen" in live

    # lost games, counted by hand: two at the first table of three, one at the second
    clerk_client = Client()
    clerk_client.force_login(clerk)
    lost = {}
    for table, hands in ((three[0], 2), (three[1], 1)):
        declarer = table.seats.get(position=1).registration.start_number
        for number in range(1, hands + 1):
            address, _table = table_url(tournament, table_number=table.number)
            response = clerk_client.post(address, _lost_hand(table, number))
            assert response.status_code == 302, response.content.decode()[:500]
        lost[declarer] = hands

    summary_page = client.get(reverse("door:cash", args=[tournament.pk])).content.decode()
    from door.selectors import cash_summary

    summary = cash_summary(tournament)
    by_hand_start = Decimal("10.00") * 26  # 28 checked in, 2 waived, 3 absent still open
    by_hand_lost = Decimal("0.50") * sum(lost.values())
    assert summary.start_fees == by_hand_start
    assert summary.lost_fees == by_hand_lost == Decimal("1.50")
    assert summary.total == by_hand_start + by_hand_lost
    assert summary.outstanding == Decimal("30.00") and summary.waived == 2
    assert {r.start_number: r.lost_fee for r in summary.rows if r.lost_fee} == {
        n: Decimal("0.50") * k for n, k in lost.items()
    }
    assert "261,50" in summary_page  # the total, in German


def test_odd_searches_answer_with_a_page(evening, as_director):
    for query in ("²", "%00a", "Spieler3,%20Vorname3", "9999999999999"):
        response = as_director.get(_door(evening) + f"?q={query}")
        assert response.status_code == 200, query
    assert 'id="nr-3"' in as_director.get(_door(evening, "Spieler3,%20Vorname3")).content.decode()


def test_a_player_arriving_after_the_start_plays_from_the_next_round(evening, as_director):
    for number in range(1, 10):
        _act(as_director, evening, number, "einchecken")
    round_ = evening.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    _act(as_director, evening, 10, "einchecken")  # after the draw, before the start
    overview = as_director.get(reverse("scoring:clerk", args=[evening.pk])).content.decode()
    assert "Nach der Auslosung eingecheckt, noch ohne Platz" in overview
    assert "10 Vorname10 Spieler10" in overview
    assert Registration.objects.get(tournament=evening, start_number=10).first_round == 1
    services.start_round(round_)
    _act(as_director, evening, 11, "einchecken")  # round 1 runs: he starts with round 2
    late = Registration.objects.get(tournament=evening, start_number=11)
    assert late.first_round == 2 and late.checked_in_at is not None
    assert late.history.first().first_round == 2  # the change is in the history


def test_the_cash_summary_keeps_the_fees_of_players_the_standings_leave_out(clerk, as_director):
    from tests.factories.tournaments import make_tournament, three_table
    from tests.factories.web import table_url

    tournament = make_tournament(lost_game_fee=Decimal("0.50"))
    tournament.missed_rounds = "excluded"
    tournament.save()
    table = three_table(tournament)
    address, _table = table_url(tournament)
    clerk_client = Client()
    clerk_client.force_login(clerk)
    assert clerk_client.post(address, _lost_hand(table, 1)).status_code == 302
    declarer = table.seats.get(position=1).registration
    declarer.withdrawn_after_round = 1  # then he misses rounds 2 and 3: left out
    declarer.save()
    from door.selectors import cash_summary
    from scoring import selectors

    assert declarer.start_number not in [r.start_number for r in selectors.standings(tournament)]
    row = next(r for r in cash_summary(tournament).rows if r.start_number == declarer.start_number)
    assert row.lost_fee == Decimal("0.50")

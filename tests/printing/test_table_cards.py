"""Table cards (issue 13: "printed as a QR code on the table card"): one card per table with
its number, seats and first dealer; names only with consent; with table entry on, the
table's live link as a QR code and as text.  And the links exist from the round's start."""

from __future__ import annotations

import pytest
from django.urls import reverse

from printing import documents, pdfs
from scoring import links
from scoring.models import TableLink
from scoring.qr import qr_data_uri
from table_entry import services as table_entry_services
from tests.factories.pdf import pages, squash, text_of
from tests.factories.tournaments import close_round_anyway, make_tournament
from tournament import services as tournament_services

pytestmark = pytest.mark.django_db


def test_a_card_per_table_two_per_page_names_only_with_consent(tournament):
    round_ = tournament.round_set.get(number=1)
    tables = list(round_.tables.order_by("number"))
    text = text_of(pdfs.table_cards_pdf(round_))
    flat = squash(text)
    assert len(pages(text)) == -(-len(tables) // 2)
    for table in tables:
        assert f"Tisch {table.number}" in flat
        seats = list(table.seats.select_related("registration__player").order_by("position"))
        for seat in seats:
            reg = seat.registration
            label = f"Platz {seat.position + 1} Nr. {reg.start_number}"
            if reg.consent_public:
                label += f" · {reg.player.first_name} {reg.player.last_name}"
            assert label in flat, label
        assert f"Gibt zuerst: Platz {table.first_dealer + 1}" in flat
    # every third player (3, 6, 9) did not consent: no name anywhere on the cards
    for i in (3, 6, 9):
        assert f"Nachname{i}" not in text
    # without table entry there is no link on the card
    assert "QR-Code scannen" not in flat and not TableLink.objects.exists()


def test_with_table_entry_each_card_carries_its_own_tables_live_link(tournament):
    tournament.table_entry = "opponent"
    tournament.save()
    round_ = tournament.round_set.get(number=1)
    cards = documents.table_cards(round_, "http://192.168.1.20:8000")
    live = {link.table.number: link for link in TableLink.objects.select_related("table")}
    assert [c.number for c in cards] == sorted(live)
    for card in cards:
        address = f"http://192.168.1.20:8000/t/{live[card.number].token}/"
        assert card.link_address == address and card.link_qr == qr_data_uri(address)
    text = squash(text_of(pdfs.table_cards_pdf(round_, "http://192.168.1.20:8000"), False))
    assert "Spiele am Tisch eintragen: QR-Code scannen" in text
    assert "Gilt nur für Tisch 1 in Runde 1." in text
    # "neuer Link": the next print carries the new token, not the revoked one
    first = round_.tables.get(number=1)
    old = live[1].token
    new = links.renew_link(first).token
    card = documents.table_cards(round_, "")[0]
    assert card.link_address == f"/t/{new}/" and old not in card.link_address
    # a closed round's cards carry no link: it would open nothing
    close_round_anyway(tournament)
    round_.refresh_from_db()
    assert all(not c.link_qr for c in documents.table_cards(round_, ""))


def test_only_the_director_downloads_table_cards(client, clerk, director, tournament):
    url = reverse("printing:table_cards", args=[tournament.pk, 1])
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    client.force_login(clerk)
    assert client.get(url).status_code == 403
    client.force_login(director)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "tischkarten-runde-1.pdf" in response["Content-Disposition"]
    assert client.get(reverse("printing:table_cards", args=[tournament.pk, 2])).status_code == 404
    overview = client.get(reverse("scoring:clerk", args=[tournament.pk])).content.decode()
    assert url in overview
    # with table entry on the cards carry working links: never kept in a browser cache, and
    # links made by the print are the director's
    tournament.table_entry = "opponent"
    tournament.save()
    response = client.get(url)
    assert "no-store" in response["Cache-Control"]
    sheets = client.get(reverse("printing:score_sheets", args=[tournament.pk, 1]) + "?leer=1")
    assert "no-store" in sheets["Cache-Control"]
    made = TableLink.objects.filter(table__round__tournament=tournament)
    assert made.count() == 3 and {link.created_by for link in made} == {director}


def test_starting_a_round_issues_every_tables_link_at_once(client, director, db):
    tournament = make_tournament(players=12)
    tournament.table_entry = "opponent"
    tournament.save()
    # make_tournament starts round 1 with the plain service: no links yet
    assert not TableLink.objects.exists()
    close_round_anyway(tournament)
    round2 = tournament.round_set.get(number=2)
    tournament_services.draw_round(round2, seed=3)
    # a table whose blank sheet was printed after the draw already has its link: kept
    printed = links.live_link(round2.tables.get(number=1))
    client.force_login(director)
    url = reverse("scoring:round_action", args=[tournament.pk, 2, "starten"])
    response = client.post(url, {"bestaetigt": "1"})
    assert response.status_code == 302
    round2.refresh_from_db()
    assert round2.status == "running"
    live = TableLink.objects.filter(table__round=round2, revoked_at__isnull=True)
    assert live.count() == round2.tables.count() == 4
    assert live.get(table__number=1) == printed
    assert {link.created_by for link in live.exclude(pk=printed.pk)} == {director}
    # every link opens its table at once
    for link in live:
        assert table_entry_services.resolve(link.token) == link


def test_starting_a_round_without_table_entry_issues_no_links(client, director, db):
    tournament = make_tournament(players=12)
    close_round_anyway(tournament)
    round2 = tournament.round_set.get(number=2)
    tournament_services.draw_round(round2, seed=3)
    client.force_login(director)
    url = reverse("scoring:round_action", args=[tournament.pk, 2, "starten"])
    assert client.post(url, {"bestaetigt": "1"}).status_code == 302
    round2.refresh_from_db()
    assert round2.status == "running" and not TableLink.objects.exists()


def test_a_link_created_while_the_round_starts_is_kept_not_a_failure(director, db, monkeypatch):
    """A print or the Tisch-Links page may create a table's link between the start's read of
    the live links and its bulk insert (``live_link`` does not lock the round): the start
    keeps that link instead of failing on the one-live-link constraint."""
    tournament = make_tournament(players=12)
    tournament.table_entry = "opponent"
    tournament.save()
    close_round_anyway(tournament)
    round2 = tournament.round_set.get(number=2)
    tournament_services.draw_round(round2, seed=3)
    last = round2.tables.order_by("number").last()
    real_token = links.new_token
    competing = []

    def token_with_a_competitor():
        if not competing:  # the read is done, the insert not yet: another request prints
            competing.append(TableLink.objects.create(table=last, token=real_token()))
        return real_token()

    monkeypatch.setattr(links, "new_token", token_with_a_competitor)
    live = links.start_round(round2, director)
    round2.refresh_from_db()
    assert round2.status == "running"
    assert set(live) == set(round2.tables.values_list("pk", flat=True))
    assert live[last.pk] == competing[0]
    assert TableLink.objects.filter(table__round=round2, revoked_at__isnull=True).count() == 4

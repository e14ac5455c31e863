"""Consent to be named is given for one tournament (issue 16, item 4).

The same person registers without consent in tournament A and with consent in B; the
player record is shared (same name and club), the consent is not."""

from __future__ import annotations

import io
import re
from datetime import date

import openpyxl
import pytest
from django.urls import reverse

from tests.factories.pdf import text_of
from tournament import services
from tournament.models import Registration

pytestmark = pytest.mark.django_db

PERSON = {"first_name": "Erika", "last_name": "Mustermann", "club": "TSV Wendlingen"}


def running_tournament(name: str, consent: bool, client, director) -> tuple:
    """A tournament with two others and PERSON (registered through the director's form,
    with or without consent), round 1 drawn and running.  Returns (tournament, PERSON's
    registration)."""
    tournament = services.create_tournament(name=name, date=date(2026, 11, 28))
    for i in (1, 2):
        services.register_player(
            tournament, first_name=f"Andere{i}", last_name=name, consent_public=True
        )
    client.force_login(director)
    data = {**PERSON, "first_round": 1, **({"consent_public": "on"} if consent else {})}
    response = client.post(reverse("tournament:registrations", args=[tournament.pk]), data)
    assert response.status_code == 302
    client.logout()
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    services.start_round(round_)
    return tournament, tournament.registrations.get(player__last_name="Mustermann")


def public_texts(client, tournament, registration) -> dict[str, str]:
    """Every public view of ``tournament`` as text, by name."""
    pk = tournament.pk
    texts = {}
    for label, url in {
        "standings": reverse("scoring:standings", args=[pk]),
        "fragment": reverse("scoring:standings_fragment", args=[pk]),
        "projector": reverse("scoring:projector", args=[pk]),
        "csv": reverse("archive:standings", args=[pk, "csv"]),
        "player": reverse("scoring:player", args=[pk, registration.start_number]),
    }.items():
        response = client.get(url)
        assert response.status_code == 200, label
        texts[label] = response.content.decode()
    response = client.get(reverse("archive:standings", args=[pk, "xlsx"]))
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    texts["xlsx"] = "\n".join(
        " ".join(str(c) for c in row if c is not None) for row in sheet.iter_rows(values_only=True)
    )
    for label, url in {
        "results_pdf": reverse("printing:results", args=[pk]),
        "table_plan_pdf": reverse("printing:table_plan", args=[pk, 1]),
    }.items():
        response = client.get(url)
        assert response.status_code == 200, label
        texts[label] = text_of(response.content)
    return texts


@pytest.mark.parametrize("a_first", [True, False], ids=["A-then-B", "B-then-A"])
def test_consent_given_in_one_tournament_does_not_name_the_player_in_another(
    client, director, a_first
):
    if a_first:
        a, reg_a = running_tournament("Turnier A", False, client, director)
        b, reg_b = running_tournament("Turnier B", True, client, director)
    else:
        b, reg_b = running_tournament("Turnier B", True, client, director)
        a, reg_a = running_tournament("Turnier A", False, client, director)
    assert reg_a.player_id == reg_b.player_id  # one person, reused by name and club
    assert not reg_a.consent_public and reg_b.consent_public

    for label, text in public_texts(client, a, reg_a).items():
        assert "Mustermann" not in text, label
        assert "Wendlingen" not in text, label
        assert str(reg_a.start_number) in text, label
    for label, text in public_texts(client, b, reg_b).items():
        if label == "player":
            assert "Erika Mustermann" in text
        elif label != "table_plan_pdf":  # the plan lists names by table, columns wrap
            assert "Mustermann" in text, label


def test_registrations_page_shows_this_tournaments_answer(client, director):
    a, reg_a = running_tournament("Turnier A", False, client, director)
    running_tournament("Turnier B", True, client, director)
    client.force_login(director)
    body = client.get(reverse("tournament:registrations", args=[a.pk])).content.decode()
    # the consent column is a checkbox to tick at the door: unticked for this tournament
    row = body[body.index("Mustermann") :].split("</tr>")[0]
    box = re.search(r'<input type="checkbox"[^>]*name="consent"[^>]*>', row).group(0)
    assert "checked" not in box


def test_register_player_records_consent_on_the_registration_only():
    a = services.create_tournament(name="A", date=date(2026, 11, 28))
    b = services.create_tournament(name="B", date=date(2026, 11, 29))
    reg_a = services.register_player(a, **PERSON, consent_public=False)
    reg_b = services.register_player(b, **PERSON, consent_public=True)
    reg_a.refresh_from_db()
    assert reg_a.consent_public is False and reg_b.consent_public is True
    assert reg_a.public_name() == "Startnummer 1"
    assert reg_b.public_name() == "Erika Mustermann"
    # the player keeps only the last answer, to pre-fill the next registration
    assert reg_b.player.last_consent_public is True
    assert Registration.objects.filter(consent_public=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_migration_copies_each_players_consent_to_all_their_registrations():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("tournament", "0004_round_forced_close")]
    after = [("tournament", "0005_consent_per_registration")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Tournament, Player = (
        old.get_model("tournament", "Tournament"),
        old.get_model("tournament", "Player"),
    )
    Registration = old.get_model("tournament", "Registration")
    events = [
        Tournament.objects.create(
            name=n, date=date(2026, 11, d), preset="p", ruleset_json={}, ruleset_fingerprint="f"
        )
        for n, d in (("A", 1), ("B", 2))
    ]
    yes = Player.objects.create(first_name="Ja", last_name="X", consent_public=True)
    no = Player.objects.create(first_name="Nein", last_name="Y", consent_public=False)
    for number, player in enumerate((yes, no), start=1):
        for event in events:
            Registration.objects.create(tournament=event, player=player, start_number=number)

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    regs = new.get_model("tournament", "Registration").objects
    assert sorted(regs.values_list("player__first_name", "consent_public")) == [
        ("Ja", True),
        ("Ja", True),
        ("Nein", False),
        ("Nein", False),
    ]
    players = new.get_model("tournament", "Player").objects
    assert players.get(first_name="Ja").last_consent_public is True
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the latest state

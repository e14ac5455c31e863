"""The addresses and commands people and printed QR codes use did not move when the code was
split into apps (issue 25): each URL name gives the same path as before the split, written
out literally, and every management command is still there."""

from __future__ import annotations

import pytest
from django.core.management import get_commands
from django.urls import resolve, reverse

ADDRESSES = [
    ("table_entry:page", ["AbC_12"], "/t/AbC_12/"),
    ("table_entry:validate", ["AbC_12"], "/t/AbC_12/pruefen/"),
    ("table_entry:confirm", ["AbC_12"], "/t/AbC_12/stimmt/"),
    ("table_entry:director", [3], "/turnier/3/tischlinks/"),
    ("prizes:list", [3], "/turnier/3/preise/"),
    ("prizes:setup", [3], "/turnier/3/preise/festlegen/"),
    ("series:create", [], "/serie/neu/"),
    ("series:page", [2], "/serie/2/"),
    ("series:edit", [2], "/serie/2/bearbeiten/"),
    ("archive:standings", [3, "csv"], "/turnier/3/export.csv"),
    ("archive:standings", [3, "de.csv"], "/turnier/3/export.de.csv"),
    ("archive:series", [2, "xlsx"], "/serie/2/export.xlsx"),
    ("scoring:standings", [3], "/turnier/3/"),
    ("scoring:projector", [3], "/turnier/3/beamer/"),
    ("scoring:clerk", [3], "/turnier/3/erfassung/"),
    ("scoring:player", [3, 7], "/turnier/3/spieler/7/"),
]


@pytest.mark.parametrize(("name", "args", "path"), ADDRESSES)
def test_the_address_is_where_it_was(name, args, path):
    assert reverse(name, args=args) == path
    assert resolve(path).view_name == name


#: command → the app that holds it now
COMMANDS = {
    "load_demo": "operations",
    "disable_demo_logins": "operations",
    "generate_tournament": "operations",
    "export_tournament": "archive",
    "import_tournament": "archive",
    "backup_db": "archive",
    "restore_db": "archive",
    "leitung_anlegen": "tournament",
    "print_round": "printing",
}


def test_every_command_is_still_there():
    commands = get_commands()
    assert {name: commands.get(name) for name in COMMANDS} == COMMANDS


@pytest.mark.django_db
def test_the_admin_lists_every_registered_model(client, django_user_model):
    from django.contrib import admin

    admin_user = django_user_model.objects.create_superuser("chef", password="x-Geheim-4711")
    client.force_login(admin_user)
    assert client.get("/admin/").status_code == 200
    labels = sorted(model._meta.label_lower for model in admin.site._registry)
    assert {"scoring.hand", "scoring.roundtotal", "tournament.tournament"} <= set(labels)
    for model in admin.site._registry:
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        assert client.get(url).status_code == 200, url

"""A guard for the management commands that read a tournament's data (``export_site``,
``backup_db``, ``print_round``, ``export_tournament``): on SQLite they must find the
database that holds the evening, never make an empty one (issue 37.28: ``export_site`` run
from the README made an empty ``db.sqlite3`` and crashed with an English traceback)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError
from django.db import connection


def require_database() -> None:
    """Raise :class:`CommandError` with a German message when the database is SQLite and
    its file does not exist (opening it would create an empty one); PostgreSQL and an
    in-memory database are left to their own errors."""
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        return
    name = str(connection.settings_dict["NAME"])
    if name.startswith("file:"):
        return
    if not Path(name).is_file():
        raise CommandError(
            f"Keine Datenbank unter {name}. Die Daten eines Turnierabends liegen im "
            "Datenordner von scripts/venue: den Befehl mit "
            "„scripts/venue --data ORDNER --befehl BEFEHL …“ aufrufen (oder "
            "DATABASE_URL=sqlite:///ORDNER/db.sqlite3 setzen)."
        )

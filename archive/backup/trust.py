"""Checking a backup before it is restored: that it holds only this program's schema
(:func:`foreign_objects`, :func:`foreign_indexes`), only content the program writes
(:func:`content_problems`) and no account or right the program's roles cannot explain
(:func:`unexplained_accounts`, :func:`changed_passwords`).  :func:`check_trusted` runs
them all and refuses with one German message.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext as _

from tournament.roles import CLERK_GROUP, DIRECTOR_GROUP, group_may

from .files import COUNTED_APPS, BackupError, _names, _open_readonly

#: tables SQLite itself keeps beside the program's (``sqlite_stat1`` … from ``ANALYZE``)
SQLITE_TABLES = ("sqlite_sequence", "sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4")


def check_trusted(backup: Path | str, target: Path | str, allow_new_privileged: bool) -> None:
    """Raise :class:`BackupError` naming everything in ``backup`` that a restore over
    ``target`` must not bring along: objects this program does not create
    (:func:`foreign_objects`) and accounts it cannot explain (:func:`unexplained_accounts`)."""
    conn = _open_readonly(Path(backup))
    try:
        try:
            foreign = foreign_objects(conn) + foreign_indexes(conn) + content_problems(conn)
        except sqlite3.DatabaseError as exc:  # a schema tampered with beyond reading
            raise BackupError(
                _("Die Sicherung lässt sich nicht prüfen: %(error)s") % {"error": exc}
            ) from exc
        accounts = unexplained_accounts(
            conn, _current_privileged(Path(target)), allow_new_privileged
        )
        if not allow_new_privileged:
            accounts += changed_passwords(conn, _current_passwords(Path(target)))
    finally:
        conn.close()
    if foreign or accounts:
        raise BackupError(
            _("Die Sicherung wird nicht wiederhergestellt, sie enthält: %(found)s.")
            % {"found": "; ".join(foreign + accounts)}
        )


def foreign_objects(conn: sqlite3.Connection) -> list[str]:
    """What the database behind ``conn`` holds that this program's migrations do not
    create, as German descriptions (``Trigger »x«``): every trigger and view (the program
    has none) and every table that is not a model's table, ``django_migrations`` or one of
    SQLite's own.  A trigger would run on the evening's writes (deleting scores, say), so
    a restore refuses all of them.  Indexes are not checked: they change no data."""
    known = set(connections[DEFAULT_DB_ALIAS].introspection.django_table_names())
    known |= {"django_migrations", *SQLITE_TABLES}
    found = []
    labels = {
        "trigger": _("Trigger »%(name)s«"),
        "view": _("Sicht (View) »%(name)s«"),
        "table": _("fremde Tabelle »%(name)s«"),
    }
    for kind, name in conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view', 'table') "
        "ORDER BY type, name"
    ):
        if kind == "table" and name in known:
            continue
        found.append(labels[kind] % {"name": name})
    return found


def _models_by_table() -> dict[str, type]:
    """Every installed model (historical ones too) by its table name."""
    return {
        model._meta.db_table: model
        for model in apps.get_models(include_auto_created=True)
        if not model._meta.proxy and model._meta.managed
    }


def _program_unique_sets() -> dict[str, set[frozenset[str]]]:
    """The column sets the program's models keep unique, by table: primary keys, unique
    fields, ``unique_together`` and unique constraints (with or without a condition)."""
    out: dict[str, set[frozenset[str]]] = {}
    for table, model in _models_by_table().items():
        sets = out.setdefault(table, set())
        for f in model._meta.local_fields:
            if f.primary_key or f.unique:
                sets.add(frozenset([f.column]))
        for together in model._meta.unique_together:
            sets.add(frozenset(model._meta.get_field(n).column for n in together))
        for constraint in model._meta.constraints:
            fields = getattr(constraint, "fields", ())
            if type(constraint).__name__ == "UniqueConstraint" and fields:
                sets.add(frozenset(model._meta.get_field(n).column for n in fields))
    return out


def foreign_indexes(conn: sqlite3.Connection) -> list[str]:
    """Unique indexes in the database behind ``conn`` that the program does not make, as
    German descriptions.  An index can refuse writes: a planted ``UNIQUE`` index on the
    hands' table id let a table hold one hand and answered the second with a 500 (issue
    38.4).  Other indexes change nothing and are left alone."""
    unique_sets = _program_unique_sets()
    found = []
    tables = [
        row[0]
        for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    ]
    for table in tables:
        if table not in unique_sets:
            continue  # not a model's table: foreign_objects reports it
        for _seq, name, unique, _origin, _partial in conn.execute(
            "SELECT * FROM pragma_index_list(?)", (table,)
        ).fetchall():
            if not unique:
                continue
            columns = frozenset(
                row[2]
                for row in conn.execute("SELECT * FROM pragma_index_info(?)", (name,))
                if row[2]
            )
            if columns not in unique_sets[table]:
                found.append(
                    _("eindeutiger Index »%(name)s« auf %(table)s (%(columns)s)")
                    % {"name": name, "table": table, "columns": ", ".join(sorted(columns))}
                )
    return found


def content_problems(conn: sqlite3.Connection, limit: int = 5) -> list[str]:
    """Content the program never writes, as German descriptions: rows whose foreign keys
    point nowhere (``PRAGMA foreign_key_check``), text longer than its field allows, and
    values of the wrong type in integer, number and text columns (issue 38.5: a 5 MB
    name in a 100-character field was restored).  At most ``limit`` per kind."""
    found = []
    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        shown = ", ".join(f"{table} Zeile {rowid}" for table, rowid, _p, _f in broken[:limit])
        found.append(_("%(n)s Verweise ins Leere (%(rows)s)") % {"n": len(broken), "rows": shown})
    present = {
        row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    integer = {"integer"}
    for table, model in sorted(_models_by_table().items()):
        # only the project's own tables of typed data, not their history copies nor
        # Django's: SQLite does not enforce a length, and the program itself writes
        # longer text there (a correction reason of up to 300 characters lands in
        # simple_history's 100-character history_change_reason), which must not make
        # its own backups unrestorable
        if (
            table not in present
            or model._meta.app_label not in COUNTED_APPS
            or getattr(model, "instance_type", None) is not None
        ):
            continue
        columns = {row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')}
        for f in model._meta.local_fields:
            if f.column not in columns:
                continue
            internal = f.get_internal_type()
            column = f'"{f.column}"'
            if getattr(f, "max_length", None) and internal in ("CharField", "SlugField"):
                too_long = conn.execute(
                    f'SELECT count(*) FROM "{table}" WHERE length({column}) > ?',
                    (f.max_length,),
                ).fetchone()[0]
                if too_long:
                    found.append(
                        _(
                            "%(n)s zu lange Werte in %(table)s.%(column)s (höchstens %(max)s Zeichen)"
                        )
                        % {"n": too_long, "table": table, "column": f.column, "max": f.max_length}
                    )
            allowed = None
            if internal.endswith("IntegerField") or internal in (
                "AutoField",
                "BigAutoField",
                "ForeignKey",
                "BooleanField",
            ):
                allowed = integer
            elif internal in ("CharField", "TextField", "SlugField"):
                allowed = {"text"}
            elif internal in ("FloatField",):
                allowed = {"real", "integer"}
            if allowed is None:
                continue
            kinds = ", ".join(f"'{k}'" for k in sorted(allowed | {"null"}))
            wrong = conn.execute(
                f'SELECT count(*) FROM "{table}" WHERE typeof({column}) NOT IN ({kinds})'
            ).fetchone()[0]
            if wrong:
                found.append(
                    _("%(n)s Werte der falschen Art in %(table)s.%(column)s")
                    % {"n": wrong, "table": table, "column": f.column}
                )
    return found


def _current_passwords(target: Path) -> dict[str, str]:
    """User name → password hash of the accounts in the database being replaced (empty
    when it has none or cannot be read)."""
    if not target.is_file() or target.stat().st_size == 0:
        return {}
    try:
        conn = _open_readonly(target)
        try:
            if "auth_user" not in _names(conn):
                return {}
            return dict(conn.execute("SELECT username, password FROM auth_user"))
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return {}


def changed_passwords(conn: sqlite3.Connection, current: dict[str, str]) -> list[str]:
    """Accounts that the database being replaced has (``current``: name → hash) and that
    the backup behind ``conn`` would give another password, as one German description, or
    none.  A backup from another club's laptop otherwise brought that club's password for
    the same director's name, and it opened this laptop (issue 38.6)."""
    if not current or "auth_user" not in _names(conn):
        return []
    changed = sorted(
        name
        for name, password in conn.execute("SELECT username, password FROM auth_user")
        if name in current and current[name] != password and not password.startswith("!")
    )
    if not changed:
        return []
    return [
        _(
            "andere Passwörter für die Konten %(users)s (mit --neue-konten übernehmen, wenn "
            "die Sicherung von diesem Verein stammt)"
        )
        % {"users": ", ".join(changed)}
    ]


def privileged_accounts(path: Path | str) -> list[str]:
    """User names of the accounts in the SQLite database ``path`` with director or admin
    rights (superuser, staff or in the "Turnierleitung" group), sorted; empty when it has
    no account table."""
    conn = _open_readonly(Path(path))
    try:
        return sorted(_privileged(conn))
    finally:
        conn.close()


def _privileged(conn: sqlite3.Connection) -> set[str]:
    tables = _names(conn)
    if "auth_user" not in tables:
        return set()
    names = {
        row[0]
        for row in conn.execute(
            "SELECT username FROM auth_user WHERE is_active AND (is_superuser OR is_staff)"
        )
    }
    if {"auth_group", "auth_user_groups"} <= tables:
        names |= {
            row[0]
            for row in conn.execute(
                "SELECT u.username FROM auth_user u JOIN auth_user_groups ug ON ug.user_id = u.id "
                "JOIN auth_group g ON g.id = ug.group_id WHERE u.is_active AND g.name = ?",
                (DIRECTOR_GROUP,),
            )
        }
    return names


def _current_privileged(target: Path) -> set[str] | None:
    """The privileged user names of the database being replaced; ``None`` when it has no
    accounts at all (a new laptop: nothing to compare with) or cannot be read."""
    if not target.is_file() or target.stat().st_size == 0:
        return None
    try:
        conn = _open_readonly(target)
        try:
            tables = _names(conn)
            if "auth_user" not in tables:
                return None
            if not conn.execute("SELECT count(*) FROM auth_user").fetchone()[0]:
                return None
            return _privileged(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return None


def unexplained_accounts(
    conn: sqlite3.Connection, current: set[str] | None, allow_new_privileged: bool = False
) -> list[str]:
    """Accounts and rights in the database behind ``conn`` that the program's roles do not
    explain, as German descriptions:

    - a permission given to a user directly (the program grants rights only by its two
      groups, :mod:`tournament.roles`);
    - a group other than those two, or one of them holding a permission its role does not
      have (a clerk group that may close rounds, say);
    - a superuser or staff account that ``current`` (the privileged user names of the
      database being replaced) does not have, unless ``allow_new_privileged``.  With
      ``current`` ``None`` (no accounts to compare with) they are reported by
      :func:`privileged_accounts` instead, for the operator to read.
    """
    tables = _names(conn)
    if "auth_user" not in tables:
        return []
    found = []
    direct = [
        row[0]
        for row in conn.execute(
            "SELECT DISTINCT u.username FROM auth_user_user_permissions p "
            "JOIN auth_user u ON u.id = p.user_id ORDER BY u.username"
        )
    ]
    if direct:
        found.append(
            _("eigene Rechte für %(users)s (nur über die Rollen vorgesehen)")
            % {"users": ", ".join(direct)}
        )
    grants: dict[str, list[str]] = {}
    for group, app, codename in conn.execute(
        "SELECT g.name, c.app_label, p.codename FROM auth_group g "
        "LEFT JOIN auth_group_permissions gp ON gp.group_id = g.id "
        "LEFT JOIN auth_permission p ON p.id = gp.permission_id "
        "LEFT JOIN django_content_type c ON c.id = p.content_type_id ORDER BY g.name"
    ):
        extra = grants.setdefault(group, [])
        if codename is not None and not group_may(group, f"{app}.{codename}"):
            extra.append(f"{app}.{codename}")
    for group, extra in grants.items():
        if group not in (DIRECTOR_GROUP, CLERK_GROUP):
            found.append(_("unbekannte Gruppe »%(group)s«") % {"group": group})
        elif extra:
            found.append(
                _("Gruppe »%(group)s« mit Rechten, die ihre Rolle nicht hat: %(perms)s")
                % {"group": group, "perms": ", ".join(extra[:5])}
            )
    if current is not None and not allow_new_privileged:
        new = sorted(_privileged(conn) - current)
        if new:
            found.append(
                _(
                    "Konten mit Leitungs- oder Admin-Rechten, die es hier nicht gibt: %(users)s "
                    "(mit --neue-konten übernehmen, wenn sie bekannt sind)"
                )
                % {"users": ", ".join(new)}
            )
    return found

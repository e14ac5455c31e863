"""Back up and restore the SQLite database while the server runs.

Both directions use SQLite's online backup API (:meth:`sqlite3.Connection.backup`): it
copies a consistent snapshot page by page inside one read transaction, so clerks can keep
entering hands meanwhile (in WAL mode a reader never blocks the writer), and rows committed
to the write-ahead log but not yet checkpointed into the main file are included.  A backup
is written to a temporary name first and renamed when complete, switched to a rollback
journal (one self-contained file, no ``-wal`` beside it) and checked with
``PRAGMA integrity_check``.

Nothing here opens a database file except through SQLite.  On POSIX, closing *any*
descriptor of a file drops every lock the process holds on it, SQLite's among them; the
round-close backup runs inside the server process, so one ``open()`` of the live file
would let the next process that exits delete ``-wal`` and ``-shm`` under the running
server (``tests/web/test_backup_locks.py``).  Whether a file is SQLite at all is therefore
asked of SQLite, and a database too damaged to copy is moved aside, never read byte by byte.

Backups are written with mode 0600: they hold session keys, password hashes and personal
data.  A restore accepts only this program's own schema and accounts
(:func:`foreign_objects`, :func:`unexplained_accounts`).

Every function takes explicit paths; :func:`configured_database` finds the path of the
configured database (and refuses PostgreSQL and in-memory databases).  Errors are raised as
:class:`BackupError` with a German message.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.roles import CLERK_GROUP, DIRECTOR_GROUP, group_may

#: The apps whose migrations mark a database as this program's.
PROJECT_APPS = ("tournament", "scoring")
#: The apps whose tables a backup's summary counts (the prize list moved out of scoring).
COUNTED_APPS = ("tournament", "scoring", "prizes")
TIMEOUT = 20  # seconds to wait for a lock, as the server's connections do


class BackupError(Exception):
    """A backup or restore refused or failed; ``str()`` is a German message."""


@dataclass
class DatabaseReport:
    """What a database file holds: ``path``, ``size`` in bytes, ``integrity`` (``"ok"``
    when ``PRAGMA integrity_check`` found nothing), ``counts``: rows per table of the
    project apps as ``(label, rows)`` with the model's German plural as label, and
    ``migrations``: applied migration names per project app."""

    path: Path
    size: int
    integrity: str
    counts: list[tuple[str, int]] = field(default_factory=list)
    migrations: dict[str, set[str]] = field(default_factory=dict)

    def summary(self) -> str:
        """One line: size and the non-empty tables, e.g. ``1,2 MB; Turniere: 2, …``."""
        size = f"{self.size / 1_000_000:.1f} MB".replace(".", ",")
        rows = ", ".join(f"{label}: {n}" for label, n in self.counts if n)
        return f"{size}; {rows}" if rows else size


#: tables SQLite itself keeps beside the program's (``sqlite_stat1`` … from ``ANALYZE``)
SQLITE_TABLES = ("sqlite_sequence", "sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4")


@dataclass
class RestoreReport:
    """The restored database (``restored``), the backup it came from (``source``), where
    the replaced database was saved first (``safety_copy``, ``None`` when there was none),
    project migrations the code has but the backup lacks (``missing_migrations``: run
    ``manage.py migrate``) and the backup's accounts with director or admin rights
    (``privileged``, user names)."""

    restored: DatabaseReport
    source: DatabaseReport
    safety_copy: Path | None
    missing_migrations: list[str]
    privileged: list[str] = field(default_factory=list)


def configured_database(alias: str = DEFAULT_DB_ALIAS) -> Path:
    """Path of the database file behind the connection ``alias``.  Raises
    :class:`BackupError` when it is not SQLite (PostgreSQL: use ``pg_dump``) or lives only
    in memory."""
    connection = connections[alias]
    if connection.vendor != "sqlite":
        raise BackupError(_("Sicherung geht nur mit SQLite; für PostgreSQL pg_dump verwenden."))
    if connection.is_in_memory_db():
        raise BackupError(
            _("Die Datenbank liegt nur im Arbeitsspeicher; es gibt keine Datei zu sichern.")
        )
    return Path(connection.settings_dict["NAME"])


def default_backup_name(now: datetime | None = None) -> str:
    """File name for a backup made at ``now``: ``binokel-YYYY-MM-DD-HHMMSS.sqlite3`` in
    local time."""
    now = timezone.localtime(now or timezone.now())
    return f"binokel-{now:%Y-%m-%d-%H%M%S}.sqlite3"


def backup_database(
    source: Path | str, target: Path | str, overwrite: bool = False
) -> DatabaseReport:
    """Copy the SQLite database ``source`` (it may be in use) to ``target`` with the online
    backup API and check the copy.  ``target`` may be a directory: the file is then named
    by :func:`default_backup_name`.  Returns the copy's :class:`DatabaseReport`.

    Raises :class:`BackupError` when ``source`` is missing or not SQLite, ``target``
    exists (unless ``overwrite``), or the copy fails its integrity check (it is removed).
    """
    meant_directory = str(target).endswith(("/", os.sep))
    source, target = Path(source), Path(target)
    if target.is_dir():
        target = target / default_backup_name()
    elif meant_directory:
        raise BackupError(_("Das Verzeichnis %(path)s gibt es nicht.") % {"path": target})
    if not source.is_file():
        raise BackupError(_("Die Datenbank %(path)s gibt es nicht.") % {"path": source})
    if target.exists() and not overwrite:
        raise BackupError(
            _("%(path)s gibt es schon; einen anderen Namen wählen.") % {"path": target}
        )
    if not target.parent.is_dir():
        raise BackupError(_("Das Verzeichnis %(path)s gibt es nicht.") % {"path": target.parent})
    if source.resolve() == target.resolve():
        raise BackupError(_("Quelle und Ziel der Sicherung sind dieselbe Datei."))
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    partial.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=TIMEOUT)
        try:
            _require_sqlite(src, source)
            _create_private(partial)
            dst = sqlite3.connect(partial, timeout=TIMEOUT)
            try:
                src.backup(dst)  # all pages in one step: one consistent snapshot
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                integrity = _integrity(dst)
            finally:
                dst.close()
        finally:
            src.close()
        if integrity != "ok":
            raise BackupError(
                _("Die Sicherung besteht die Prüfung nicht: %(error)s") % {"error": integrity}
            )
        os.replace(partial, target)
    except (sqlite3.Error, OSError) as exc:  # OSError: a folder the server may not write
        raise BackupError(_("Sicherung fehlgeschlagen: %(error)s") % {"error": exc}) from exc
    finally:
        for leftover in (partial, Path(f"{partial}-journal")):
            try:
                leftover.unlink(missing_ok=True)
            except OSError:
                pass
    return inspect_database(target, require_project=False)


def inspect_database(path: Path | str, require_project: bool = True) -> DatabaseReport:
    """Open the SQLite file ``path`` read-only and report on it.  Raises
    :class:`BackupError` when it is missing, not SQLite, fails ``PRAGMA integrity_check``
    or — with ``require_project`` — holds no tables of this program (``django_migrations``
    with entries for the ``tournament`` and ``scoring`` apps)."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(_("Die Datei %(path)s gibt es nicht.") % {"path": path})
    try:
        conn = _open_readonly(path)
        try:
            _require_sqlite(conn, path)
            integrity = _integrity(conn)
            if integrity != "ok":
                raise BackupError(
                    _("%(path)s ist beschädigt (integrity_check: %(error)s).")
                    % {"path": path, "error": integrity}
                )
            tables = _names(conn)
            migrations: dict[str, set[str]] = {app: set() for app in PROJECT_APPS}
            if "django_migrations" in tables:
                for app, name in conn.execute("SELECT app, name FROM django_migrations"):
                    if app in migrations:
                        migrations[app].add(name)
            if require_project and not all(migrations.values()):
                raise BackupError(
                    _(
                        "%(path)s ist keine Datenbank dieses Programms (keine Migrationen "
                        "für tournament und scoring)."
                    )
                    % {"path": path}
                )
            counts = [
                (label, conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])
                for label, table in _project_tables()
                if table in tables
            ]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(
            _("%(path)s lässt sich nicht lesen: %(error)s") % {"path": path, "error": exc}
        ) from exc
    return DatabaseReport(path, _size(path), integrity, counts, migrations)


def restore_database(
    backup: Path | str,
    target: Path | str,
    safety_copy: bool = True,
    allow_new_privileged: bool = False,
) -> RestoreReport:
    """Replace the contents of the SQLite database ``target`` by the backup ``backup``.

    The backup is checked first (:func:`inspect_database`); it must not come from a newer
    program version (project migrations this code does not know), must hold nothing this
    program does not create (:func:`foreign_objects`: triggers, views, other tables) and no
    account it cannot explain (:func:`unexplained_accounts`; ``allow_new_privileged``
    accepts director or admin accounts that ``target`` does not have).  With ``safety_copy``
    an existing ``target`` is first saved beside itself as
    ``<name>.vor-wiederherstellung-<time>.sqlite3`` (by the backup API, or file by file if
    it is too damaged for that).  The copy goes through the backup API, so ``-wal`` and
    ``-shm`` files and open connections of a running server are handled by SQLite; the
    server should still be restarted afterwards.  A ``target`` too damaged to open is
    replaced by a new file (only after its safety copy).

    Raises :class:`BackupError` for an unusable backup or when the restore fails.
    """
    backup, target = Path(backup), Path(target)
    source = inspect_database(backup)
    if backup.resolve() == target.resolve():
        raise BackupError(_("Sicherung und Datenbank sind dieselbe Datei."))
    known = {(app, name) for app, name in MigrationLoader(None).disk_migrations}
    newer = sorted(
        f"{app}.{name}"
        for app, names in source.migrations.items()
        for name in names
        if (app, name) not in known
    )
    if newer:
        raise BackupError(
            _(
                "Die Sicherung stammt von einer neueren Programmversion (Migrationen %(names)s); "
                "erst das Programm aktualisieren."
            )
            % {"names": ", ".join(newer)}
        )
    missing = sorted(
        f"{app}.{name}"
        for app, name in known
        if app in source.migrations and name not in source.migrations[app]
    )
    check_trusted(backup, target, allow_new_privileged)
    saved = None
    if safety_copy and target.exists():
        saved = target.with_name(
            f"{target.stem}.vor-wiederherstellung-{timezone.localtime():%Y-%m-%d-%H%M%S}.sqlite3"
        )
        _safety_copy(target, saved)
    try:
        _copy_into(backup, target)
    except sqlite3.DatabaseError as exc:
        if saved is None or not _unreadable(target):
            raise BackupError(
                _("Wiederherstellung fehlgeschlagen: %(error)s") % {"error": exc}
            ) from exc
        for path in _database_files(target):  # damaged, and saved above: start afresh
            path.unlink(missing_ok=True)
        try:
            _copy_into(backup, target)
        except sqlite3.DatabaseError as exc2:
            raise BackupError(
                _("Wiederherstellung fehlgeschlagen: %(error)s") % {"error": exc2}
            ) from exc2
    restored = inspect_database(target)
    return RestoreReport(restored, source, saved, missing, privileged_accounts(backup))


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


# --------------------------------------------------------------------------- helpers


def _require_sqlite(conn: sqlite3.Connection, path: Path) -> None:
    """Raise :class:`BackupError` unless ``conn`` (a connection to ``path``) reads a SQLite
    database.  Asked of SQLite itself, never by reading the file: see the module docstring.
    An empty file would be an empty database to SQLite; here it is no database."""
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        if "not a database" not in str(exc) and "encrypted" not in str(exc):
            # locked, busy, unreadable: say what it is, not "no database"
            raise BackupError(
                _("%(path)s lässt sich nicht lesen: %(error)s") % {"path": path, "error": exc}
            ) from exc
        raise BackupError(_("%(path)s ist keine SQLite-Datenbank.") % {"path": path}) from exc
    if path.stat().st_size == 0:
        raise BackupError(_("%(path)s ist keine SQLite-Datenbank.") % {"path": path})


def _create_private(path: Path) -> None:
    """Create the new, empty file ``path`` with mode 0600 whatever the umask, so the
    database SQLite writes into it (and its journal, which takes the same mode) is the
    owner's only.  Raises ``FileExistsError`` when ``path`` exists."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        os.chmod(path, 0o600)
    except PermissionError:  # FAT/exFAT (a USB stick) keeps no owner's modes
        pass


def _names(conn: sqlite3.Connection) -> set[str]:
    """The names of every table, index, view and trigger in the database of ``conn``."""
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}


def _open_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection that changes nothing beside ``path``: immutable unless a
    ``-wal`` file lies beside it (then SQLite must read that too)."""
    wal = Path(f"{path}-wal")
    options = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{options}", uri=True, timeout=TIMEOUT)


def _integrity(conn: sqlite3.Connection) -> str:
    rows = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    return "ok" if rows == ["ok"] else "; ".join(rows[:5])


def _project_tables() -> list[tuple[str, str]]:
    """``(label, table)`` for every model of :data:`COUNTED_APPS` (historical ones too)."""
    out = []
    for app in COUNTED_APPS:
        for model in apps.get_app_config(app).get_models():
            if model._meta.proxy:
                continue
            tracked = getattr(model, "instance_type", None)  # django-simple-history
            label = (
                _("%(models)s (Verlauf)") % {"models": tracked._meta.verbose_name_plural}
                if tracked is not None
                else str(model._meta.verbose_name_plural)
            )
            out.append((label, model._meta.db_table))
    return out


def _database_files(path: Path) -> list[Path]:
    return [path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")]


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in _database_files(path) if p.exists())


def _unreadable(path: Path) -> bool:
    """Whether SQLite cannot even read ``path`` as a database."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        # locked or busy is not damage: only what SQLite cannot read as a database
        return any(word in str(exc) for word in ("not a database", "malformed", "encrypted"))
    return False


def _safety_copy(current: Path, saved: Path) -> None:
    """Save ``current`` as ``saved`` before it is replaced: by the backup API, or — when
    SQLite cannot read it at all — by moving its files aside as they are (renamed, never
    read: see the module docstring), so that the restore writes a new file.  Any other
    failure (the database is locked, the disk is full) is raised as :class:`BackupError`
    and nothing is moved: a running server must never lose its file."""
    try:
        backup_database(current, saved)
    except BackupError as exc:
        if not _unreadable(current):
            raise BackupError(
                _(
                    "Die bisherige Datenbank ließ sich nicht sichern (%(error)s); nichts wurde "
                    "ersetzt. Läuft der Server noch? Erst beenden, dann noch einmal."
                )
                % {"error": exc}
            ) from exc
        for path in _database_files(current):
            if path.exists():
                os.replace(path, Path(str(path).replace(str(current), str(saved), 1)))


def _copy_into(backup: Path, target: Path) -> None:
    """Copy ``backup`` over ``target`` with the backup API.  A target in WAL mode with a
    different page size cannot take the copy; it is switched to a rollback journal for the
    copy (possible only while no other connection is open) and back to WAL."""
    src = _open_readonly(backup)
    try:
        if not target.exists():
            _create_private(target)
        dst = sqlite3.connect(target, timeout=TIMEOUT)
        try:
            wal = dst.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            try:
                src.backup(dst)
            except sqlite3.OperationalError:
                if not wal:
                    raise
                if dst.execute("PRAGMA journal_mode=DELETE").fetchone()[0] != "delete":
                    raise BackupError(
                        _(
                            "Die Sicherung hat eine andere Seitengröße; dafür erst den Server "
                            "beenden und noch einmal versuchen."
                        )
                    ) from None
                src.backup(dst)
            if wal:
                dst.execute("PRAGMA journal_mode=WAL")
            integrity = _integrity(dst)
        finally:
            dst.close()
    finally:
        src.close()
    if integrity != "ok":
        raise BackupError(
            _("Die wiederhergestellte Datenbank besteht die Prüfung nicht: %(error)s")
            % {"error": integrity}
        )


# ------------------------------------------------------------------ automatic (venue mode)

#: automatic backups are named ``auto-YYYY-MM-DD-HHMMSS-<reason>.sqlite3``
AUTO_PREFIX = "auto-"
#: how many automatic backups are kept (the oldest beyond that are deleted)
AUTO_KEEP = 20


def automatic_backup(
    directory: Path | str, reason: str, keep: int = AUTO_KEEP, alias: str = DEFAULT_DB_ALIAS
) -> DatabaseReport:
    """Back up the configured database into ``directory`` (created if missing) as
    ``auto-<local time>-<reason>.sqlite3``, then delete all but the newest ``keep``
    automatic backups there (other files are never touched).  ``reason`` is a short word
    such as ``timer``, ``runde-2`` or ``ende``.  Returns the copy's report.

    Raises :class:`BackupError` as :func:`backup_database` does."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    now = timezone.localtime()
    safe_reason = "".join(c for c in reason if c.isascii() and (c.isalnum() or c == "-"))
    target = directory / f"{AUTO_PREFIX}{now:%Y-%m-%d-%H%M%S}-{safe_reason or 'x'}.sqlite3"
    report = backup_database(configured_database(alias), target, overwrite=True)
    for old in automatic_backups(directory)[keep:]:
        old.unlink(missing_ok=True)
    return report


def automatic_backups(directory: Path | str) -> list[Path]:
    """The automatic backups in ``directory``, newest first (by name, which is the time)."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    return sorted(directory.glob(f"{AUTO_PREFIX}*.sqlite3"), key=lambda p: p.name, reverse=True)


def last_automatic_backup(directory: Path | str) -> datetime | None:
    """When the newest automatic backup in ``directory`` was written (aware), or None."""
    backups = automatic_backups(directory)
    if not backups:
        return None
    return datetime.fromtimestamp(backups[0].stat().st_mtime, tz=timezone.get_current_timezone())

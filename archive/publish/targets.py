"""Where the club's website lives, and how a file gets there.

A target is written as an address: ``sftp://user@host:22/folder``, ``ftps://user@host/folder``
(FTP with TLS, explicit, as German hosting providers offer it), ``ftp://…`` (plain FTP, only
when the director allows it: the password crosses the network readable) or a local folder
(a synced cloud folder or a mounted share).  The password never is part of the address: it
comes from the environment (``BINOKEL_PUBLISH_PASSWORD``) or the stored settings.

Each remote offers the same four calls (:class:`Remote`): read a file, write one under a
temporary name and rename it into place (a visitor never sees half a page), remove one,
close.  An SFTP server's host key is trusted on first use: it is written to a known-hosts
file, and a server that later shows another key is refused (:class:`HostKeyChanged`).
"""

from __future__ import annotations

import ftplib
import io
import os
import posixpath
import ssl
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.utils.translation import gettext as _

#: Seconds a connection, a login or one transfer may take before the publish gives up
TIMEOUT = 15


class PublishError(Exception):
    """Publishing did not work; ``str()`` is the message for the director (German, or
    English through i18n)."""


class HostKeyChanged(PublishError):
    """The SFTP server shows another host key than the one trusted on first use."""


@dataclass(frozen=True)
class Target:
    """A parsed target address.  ``scheme``: ``sftp``, ``ftps``, ``ftp`` or ``folder``;
    ``path``: the remote folder, relative to the login's own folder (``""``: that folder)
    or absolute (``/srv/site``, written ``host//srv/site``), or the local folder."""

    scheme: str
    path: str
    host: str = ""
    port: int = 0
    user: str = ""

    def __str__(self) -> str:
        if self.scheme == "folder":
            return self.path
        return f"{self.scheme}://{self.user}@{self.host}:{self.port}/{self.path}"


DEFAULT_PORTS = {"sftp": 22, "ftps": 21, "ftp": 21}


def parse_target(text: str) -> Target:
    """The :class:`Target` an address names.  Raises :class:`PublishError` for an address
    with a password in it, an unknown scheme, or one without host or user."""
    text = (text or "").strip()
    if not text:
        raise PublishError(_("Kein Ziel angegeben."))
    if "://" not in text:
        return Target("folder", str(Path(text).expanduser()))
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise PublishError(
            _("Unbekannte Zieladresse „%(scheme)s://“: sftp://, ftps://, ftp:// oder ein Ordner.")
            % {"scheme": scheme}
        )
    if parts.password is not None:
        raise PublishError(
            _(
                "Das Passwort gehört nicht in die Zieladresse (es stünde in der Befehlszeile): "
                "bitte BINOKEL_PUBLISH_PASSWORD setzen."
            )
        )
    try:
        port = parts.port or DEFAULT_PORTS[scheme]
    except ValueError as exc:
        raise PublishError(
            _("Die Portnummer in „%(address)s“ ist keine gültige Zahl.") % {"address": text}
        ) from exc
    if not parts.hostname or not parts.username:
        raise PublishError(
            _("In „%(address)s“ fehlen Benutzer oder Server (benutzer@server).") % {"address": text}
        )
    # "host/site": the folder "site" in the login's own folder; "host//srv/site": the
    # absolute folder /srv/site (as curl reads sftp:// addresses)
    path = unquote(parts.path)
    path = (path[1:] if path.startswith("/") else path).rstrip("/")
    if any(part == ".." for part in path.split("/")):
        raise PublishError(_("Der Zielordner darf kein „..“ enthalten."))
    return Target(scheme, path, parts.hostname, port, unquote(parts.username))


class Remote:
    """A place the site's files are written to.  Names are relative paths with ``/``
    (``spieler/12.html``) below the target's folder."""

    def read(self, name: str) -> bytes | None:
        """The file's content, or ``None`` when there is none."""
        raise NotImplementedError

    def write(self, name: str, data: bytes) -> None:
        """Write ``data`` under a temporary name beside ``name``, then rename it into
        place, so a reader sees the old file or the new one, never half of it."""
        raise NotImplementedError

    def remove(self, name: str) -> None:
        """Remove the file ``name``; a missing file is no error."""
        raise NotImplementedError

    def close(self) -> None:
        """End the connection."""

    def __enter__(self) -> Remote:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _folders(folder: str) -> list[str]:
    """``folder`` and every folder above it, outermost first (``a/b`` → ``a``, ``a/b``;
    ``/srv/a`` → ``/srv``, ``/srv/a``): what must exist before a file goes in."""
    parts = [part for part in folder.split("/") if part]
    start = "/" if folder.startswith("/") else ""
    return [start + "/".join(parts[: n + 1]) for n in range(len(parts))]


def _temporary(name: str) -> str:
    folder, base = posixpath.split(name)
    return posixpath.join(folder, f".{base}.binokel-neu")


class FolderRemote(Remote):
    """A local folder (a synced cloud folder, a mounted share)."""

    def __init__(self, folder: str) -> None:
        self.root = Path(folder)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PublishError(
                _("Der Ordner %(folder)s lässt sich nicht anlegen: %(error)s")
                % {"folder": folder, "error": exc}
            ) from exc

    def _path(self, name: str) -> Path:
        path = self.root.joinpath(*name.split("/"))
        if not path.resolve().is_relative_to(self.root.resolve()):
            raise PublishError(_("%(name)s liegt nicht im Zielordner.") % {"name": name})
        return path

    def read(self, name: str) -> bytes | None:
        try:
            return self._path(name).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise _folder_error(
                _("%(name)s lässt sich im Ordner nicht lesen: %(error)s"), name, exc
            ) from exc

    def write(self, name: str, data: bytes) -> None:
        path = self._path(name)
        temporary = self._path(_temporary(name))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError as exc:
            raise _folder_error(
                _("%(name)s lässt sich im Ordner nicht schreiben: %(error)s"), name, exc
            ) from exc

    def remove(self, name: str) -> None:
        try:
            self._path(name).unlink(missing_ok=True)
        except OSError as exc:
            raise _folder_error(
                _("%(name)s lässt sich im Ordner nicht löschen: %(error)s"), name, exc
            ) from exc


def _folder_error(message: str, name: str, exc: OSError) -> PublishError:
    return PublishError(message % {"name": name, "error": exc})


def _unreachable(target: Target, exc: Exception) -> PublishError:
    return PublishError(
        _(
            "Der Server %(host)s:%(port)s ist nicht erreichbar (%(error)s). Ohne Internet im "
            "Saal: später noch einmal."
        )
        % {"host": target.host, "port": target.port, "error": f"{type(exc).__name__}: {exc}"}
    )


class _ServerRemote(Remote):
    """A remote on a server: names are below the target's folder."""

    target: Target

    def _path(self, name: str) -> str:
        return posixpath.join(self.target.path, name) if self.target.path else name


class SftpRemote(_ServerRemote):
    """A folder on an SFTP server (paramiko).  ``known_hosts``: the file holding the host
    keys trusted so far; a first connection adds the server's key to it (trust on first
    use) and ``first_key`` then names its fingerprint for the director."""

    def __init__(
        self,
        target: Target,
        password: str | None,
        key_file: str | None,
        known_hosts: Path,
    ) -> None:
        import paramiko

        self.target = target
        self._ssh_error = paramiko.SSHException
        self.first_key: str | None = None
        self.client = paramiko.SSHClient()
        if known_hosts.exists():
            self.client.load_host_keys(str(known_hosts))
        remote = self

        class TrustOnFirstUse(paramiko.MissingHostKeyPolicy):
            def missing_host_key(self, client, hostname, key) -> None:
                client.get_host_keys().add(hostname, key.get_name(), key)
                known_hosts.parent.mkdir(parents=True, exist_ok=True)
                client.save_host_keys(str(known_hosts))
                os.chmod(known_hosts, 0o600)
                remote.first_key = f"{key.get_name()} {key.fingerprint}"

        self.client.set_missing_host_key_policy(TrustOnFirstUse())
        try:
            self.client.connect(
                target.host,
                port=target.port,
                username=target.user,
                password=password or None,
                key_filename=key_file or None,
                timeout=TIMEOUT,
                banner_timeout=TIMEOUT,
                auth_timeout=TIMEOUT,
                allow_agent=False,
                look_for_keys=False,
            )
            self.sftp = self.client.open_sftp()
            self.sftp.get_channel().settimeout(TIMEOUT)
        except paramiko.BadHostKeyException as exc:
            self.client.close()
            raise HostKeyChanged(
                _(
                    "Der Server %(host)s zeigt einen anderen Schlüssel als beim ersten Mal "
                    "(%(key)s). Nichts wurde hochgeladen: bitte beim Anbieter nachfragen; ist "
                    "der neue Schlüssel richtig, ihn aus %(file)s löschen."
                )
                % {
                    "host": target.host,
                    "key": f"{exc.key.get_name()} {exc.key.fingerprint}",
                    "file": known_hosts,
                }
            ) from exc
        except paramiko.AuthenticationException as exc:
            self.client.close()
            raise PublishError(
                _("Anmeldung als %(user)s bei %(host)s abgelehnt: Passwort oder Schlüssel prüfen.")
                % {"user": target.user, "host": target.host}
            ) from exc
        except (OSError, EOFError, paramiko.SSHException) as exc:
            self.client.close()
            raise _unreachable(target, exc) from exc

    def _makedirs(self, folder: str) -> None:
        for current in _folders(folder):
            try:
                self.sftp.stat(current)
            except OSError:
                self.sftp.mkdir(current)

    def read(self, name: str) -> bytes | None:
        try:
            with self.sftp.open(self._path(name), "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            return None
        except OSError as exc:
            if getattr(exc, "errno", None) == 2:
                return None
            raise _unreachable(self.target, exc) from exc
        except (EOFError, self._ssh_error) as exc:
            raise _unreachable(self.target, exc) from exc

    def write(self, name: str, data: bytes) -> None:
        path, temporary = self._path(name), self._path(_temporary(name))
        try:
            self._makedirs(posixpath.dirname(path))
            self.sftp.putfo(io.BytesIO(data), temporary, confirm=True)
            try:
                self.sftp.posix_rename(temporary, path)
            except OSError:  # a server without OpenSSH's atomic rename
                self.remove(name)
                self.sftp.rename(temporary, path)
        except (OSError, EOFError, self._ssh_error) as exc:
            raise _unreachable(self.target, exc) from exc

    def remove(self, name: str) -> None:
        try:
            self.sftp.remove(self._path(name))
        except FileNotFoundError:
            pass
        except OSError as exc:
            if getattr(exc, "errno", None) != 2:
                raise _unreachable(self.target, exc) from exc
        except (EOFError, self._ssh_error) as exc:
            raise _unreachable(self.target, exc) from exc

    def close(self) -> None:
        self.client.close()


class _SessionReusingFTP_TLS(ftplib.FTP_TLS):
    """FTP with TLS whose data connections resume the control connection's TLS session,
    as vsftpd and ProFTPD require by default (``require_ssl_reuse``); the standard
    library's class starts a new session for each transfer."""

    def ntransfercmd(self, cmd, rest=None):
        conn, size = ftplib.FTP.ntransfercmd(self, cmd, rest)
        if self._prot_p:
            conn = self.context.wrap_socket(
                conn, server_hostname=self.host, session=self.sock.session
            )
        return conn, size


def _refused_by_server(target: Target, name: str, exc: ftplib.Error) -> PublishError:
    return PublishError(
        _("Der Server %(host)s nimmt %(name)s nicht an (%(error)s).")
        % {"host": target.host, "name": name, "error": exc}
    )


class FtpRemote(_ServerRemote):
    """A folder on an FTP server: with ``tls`` (``ftps://``) explicit TLS on the control
    and the data connections (``AUTH TLS``, ``PROT P``), else plain FTP."""

    def __init__(
        self, target: Target, password: str | None, tls: bool, context: ssl.SSLContext | None
    ) -> None:
        self.target = target
        try:
            if tls:
                self.ftp: ftplib.FTP = _SessionReusingFTP_TLS(
                    context=context or ssl.create_default_context(), timeout=TIMEOUT
                )
            else:
                self.ftp = ftplib.FTP(timeout=TIMEOUT)
            self.ftp.connect(target.host, target.port)
            self.ftp.login(target.user, password or "")
            if tls:
                self.ftp.prot_p()
        except ftplib.error_perm as exc:
            self.ftp.close()
            raise PublishError(
                _("Anmeldung als %(user)s bei %(host)s abgelehnt (%(error)s).")
                % {"user": target.user, "host": target.host, "error": exc}
            ) from exc
        except ssl.SSLCertVerificationError as exc:
            self.ftp.close()
            raise PublishError(
                _("Das Zertifikat von %(host)s ist nicht vertrauenswürdig (%(error)s).")
                % {"host": target.host, "error": exc.verify_message}
            ) from exc
        except (OSError, EOFError, ftplib.Error) as exc:
            self.ftp.close()
            raise _unreachable(target, exc) from exc

    def _makedirs(self, folder: str) -> None:
        for current in _folders(folder):
            try:
                self.ftp.mkd(current)
            except ftplib.error_perm:
                pass  # it is there already

    def read(self, name: str) -> bytes | None:
        buffer = io.BytesIO()
        try:
            self.ftp.retrbinary(f"RETR {self._path(name)}", buffer.write)
        except ftplib.error_perm as exc:
            if str(exc).startswith("550"):  # no such file
                return None
            raise _refused_by_server(self.target, name, exc) from exc
        except (OSError, EOFError, ftplib.Error) as exc:
            raise _unreachable(self.target, exc) from exc
        return buffer.getvalue()

    def write(self, name: str, data: bytes) -> None:
        path, temporary = self._path(name), self._path(_temporary(name))
        try:
            self._makedirs(posixpath.dirname(path))
            self.ftp.storbinary(f"STOR {temporary}", io.BytesIO(data))
            try:
                self.ftp.rename(temporary, path)
            except ftplib.error_perm:  # a server that renames onto no existing file
                self.remove(name)
                self.ftp.rename(temporary, path)
        except ftplib.error_perm as exc:  # full, a name it refuses, no right to write
            raise _refused_by_server(self.target, name, exc) from exc
        except (OSError, EOFError, ftplib.Error) as exc:
            raise _unreachable(self.target, exc) from exc

    def remove(self, name: str) -> None:
        try:
            self.ftp.delete(self._path(name))
        except ftplib.error_perm as exc:
            if not str(exc).startswith("550"):  # 550: not there
                raise _refused_by_server(self.target, name, exc) from exc
        except (OSError, EOFError, ftplib.Error) as exc:
            raise _unreachable(self.target, exc) from exc

    def close(self) -> None:
        try:
            self.ftp.quit()
        except (OSError, EOFError, ftplib.Error):
            self.ftp.close()


def trusted_key(target: Target, known_hosts: Path) -> str | None:
    """The host key stored for ``target``'s server (``"ssh-ed25519 SHA256:…"``), or
    ``None``: what the director compares with the provider's, also when the first login
    failed after the key was stored."""
    if target.scheme != "sftp" or not known_hosts.exists():
        return None
    import paramiko

    try:
        keys = paramiko.HostKeys(str(known_hosts))
    except (OSError, paramiko.SSHException):
        return None
    name = target.host if target.port == 22 else f"[{target.host}]:{target.port}"
    for key_type, key in (keys.lookup(name) or {}).items():
        return f"{key_type} {key.fingerprint}"
    return None


def open_remote(
    target: Target,
    password: str | None = None,
    *,
    key_file: str | None = None,
    known_hosts: Path | None = None,
    allow_plain_ftp: bool = False,
    tls_context: ssl.SSLContext | None = None,
) -> Remote:
    """A connected :class:`Remote` for ``target``.  ``known_hosts``: the SFTP host keys
    trusted so far (required for ``sftp``); ``allow_plain_ftp``: the director's consent to
    plain FTP; ``tls_context``: the TLS settings of ``ftps`` (default: the system's
    certificate store).  Raises :class:`PublishError`."""
    if target.scheme == "folder":
        return FolderRemote(target.path)
    if target.scheme == "sftp":
        if known_hosts is None:
            raise PublishError(_("Für SFTP fehlt die Datei der bekannten Serverschlüssel."))
        return SftpRemote(target, password, key_file, known_hosts)
    if target.scheme == "ftp" and not allow_plain_ftp:
        raise PublishError(
            _(
                "Einfaches FTP schickt das Passwort lesbar durchs Netz: bitte ftps:// oder "
                "sftp:// nehmen, oder es mit --unverschluesselt ausdrücklich erlauben."
            )
        )
    return FtpRemote(target, password, target.scheme == "ftps", tls_context)


__all__ = [
    "FolderRemote",
    "FtpRemote",
    "HostKeyChanged",
    "PublishError",
    "Remote",
    "SftpRemote",
    "Target",
    "open_remote",
    "parse_target",
    "trusted_key",
]

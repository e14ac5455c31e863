"""The results on the club's own website, live (issue 40.1).

The site is the website export (:mod:`archive.site`: the public pages, the same privacy
rules, the style sheet), with a line saying when it was made and, while the evening runs,
a page that reloads itself every minute.  It goes to the club's web space by SFTP, FTP
with TLS or into a local folder (:mod:`.targets`), only the files that changed
(:mod:`.sync`).  ``manage.py publish_site`` runs it from the command line.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.utils import timezone

from tournament.models import Tournament

from .sync import MANIFEST, PublishReport, digest, publish_files, read_manifest
from .targets import (
    HostKeyChanged,
    PublishError,
    Remote,
    Target,
    open_remote,
    parse_target,
)


def live_site(tournament: Tournament, language: str = "de") -> dict[str, bytes]:
    """The files to publish for ``tournament`` (relative name → content): the website
    export, its index marked live while a round is not closed."""
    from archive.site import export_site

    return export_site(tournament, language, live=True)


def publish_tournament(
    tournament: Tournament,
    target: Target,
    password: str | None = None,
    *,
    key_file: str | None = None,
    allow_plain_ftp: bool = False,
    tls_context=None,
    language: str = "de",
) -> tuple[PublishReport, str | None]:
    """Publish ``tournament``'s site to ``target``.  Returns the report and, on the first
    connection to an SFTP server, the fingerprint of the host key now trusted (else
    ``None``).  Raises :class:`PublishError` (German) when the target cannot be reached,
    refuses the login, or shows another host key than before."""
    files = live_site(tournament, language)
    stand = timezone.localtime().isoformat(timespec="seconds")
    with open_remote(
        target,
        password,
        key_file=key_file,
        known_hosts=Path(settings.PUBLISH_KNOWN_HOSTS),
        allow_plain_ftp=allow_plain_ftp,
        tls_context=tls_context,
    ) as remote:
        report = publish_files(files, remote, stand)
        first_key = getattr(remote, "first_key", None)
    return report, first_key


__all__ = [
    "MANIFEST",
    "HostKeyChanged",
    "PublishError",
    "PublishReport",
    "Remote",
    "Target",
    "digest",
    "live_site",
    "open_remote",
    "parse_target",
    "publish_files",
    "publish_tournament",
    "read_manifest",
]

"""Bringing a remote folder in step with the site: only what changed is uploaded.

The remote keeps a manifest, ``.binokel-stand.json``: each file's SHA-256 as of the last
publish that finished.  A publish reads it, uploads every file whose hash differs (each
under a temporary name, renamed into place), removes the files of the last site that the
new one no longer has, and writes the manifest last.  A publish cut off half-way leaves the
old manifest: the next one uploads again what may have changed, and the remote ends equal
to the site, file by file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .targets import PublishError, Remote

#: The remote's record of what the last finished publish wrote
MANIFEST = ".binokel-stand.json"


@dataclass
class PublishReport:
    """What a publish did: file names uploaded and removed, and how many were unchanged."""

    uploaded: list[str]
    removed: list[str]
    unchanged: int


def digest(content: bytes) -> str:
    """The SHA-256 of ``content`` in hex, as the manifest keeps it."""
    return hashlib.sha256(content).hexdigest()


def read_manifest(remote: Remote) -> dict[str, str]:
    """The remote's manifest (file name → SHA-256), or ``{}`` when it has none or one
    that is not this program's (then everything is uploaded anew)."""
    raw = remote.read(MANIFEST)
    if raw is None:
        return {}
    try:
        files = json.loads(raw.decode("utf-8")).get("files", {})
    except (UnicodeDecodeError, ValueError, AttributeError):
        return {}
    if not isinstance(files, dict):
        return {}
    # only names this program could have written: a manifest someone else edited must not
    # make a publish delete files outside the site's folder
    return {str(k): str(v) for k, v in files.items() if safe_name(str(k))}


def safe_name(name: str) -> bool:
    """Whether ``name`` is a relative path below the site's folder: ``/`` separated, no
    empty, ``.`` or ``..`` part, no backslash, colon (a Windows drive), NUL or control
    character."""
    if not name or name.startswith("/") or any(ord(c) < 32 or c in "\\:" for c in name):
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))


def publish_files(files: dict[str, bytes], remote: Remote, stand: str = "") -> PublishReport:
    """Make ``remote`` hold exactly ``files`` (relative name → content) and nothing else
    this program put there, uploading only what changed.  ``stand``: when the site was
    made (kept in the manifest).  Raises :class:`~archive.publish.targets.PublishError`
    when the remote fails; what was uploaded before stays, the manifest does not."""
    if MANIFEST in files:
        raise PublishError(
            _("%(name)s ist der Name der Liste dieses Programms.") % {"name": MANIFEST}
        )
    for name in files:
        if not safe_name(name):
            raise PublishError(_("%(name)s liegt nicht im Zielordner.") % {"name": name})
    before = read_manifest(remote)
    now = {name: digest(content) for name, content in files.items()}
    uploaded = [name for name in files if before.get(name) != now[name]]
    # pages first and the index last, so the index never links a page not there yet
    uploaded.sort(key=lambda name: (name == "index.html", name))
    for name in uploaded:
        remote.write(name, files[name])
    removed = sorted(set(before) - set(now))
    for name in removed:
        remote.remove(name)
    manifest = json.dumps({"stand": stand, "files": now}, indent=0, sort_keys=True)
    remote.write(MANIFEST, manifest.encode("utf-8"))
    return PublishReport(uploaded, removed, len(files) - len(uploaded))

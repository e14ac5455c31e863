"""Publishing the results to the club's website (issue 40.1): the site goes to a folder
(a synced cloud folder, a mounted share) with only the changed files uploaded, written
under a temporary name and renamed; the index says "live" and reloads itself while the
evening runs; the command takes no password on its command line.  The real SFTP and FTPS
servers are in ``test_publish_servers.py``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from archive import publish
from archive.publish.sync import MANIFEST
from archive.publish.targets import FolderRemote
from archive.site import export_site
from tests.factories.hands import play_hand

pytestmark = pytest.mark.django_db


def remote_tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` but the manifest, by relative name."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != MANIFEST
    }


def without_stand(files: dict[str, bytes]) -> dict[str, bytes]:
    """``files`` without the index, whose "Stand HH:MM" line is the time it was made, and
    the rules PDF, which carries its print time."""
    return {n: c for n, c in files.items() if n not in ("index.html", "regeln.pdf")}


def test_the_folder_holds_the_site_and_a_second_publish_uploads_only_what_changed(
    results_night, clerk, tmp_path, django_capture_on_commit_callbacks
):
    target = publish.parse_target(str(tmp_path / "verein"))
    report, first_key = publish.publish_tournament(results_night, target)
    assert first_key is None and report.removed == [] and report.unchanged == 0
    remote = remote_tree(tmp_path / "verein")
    assert set(remote) == set(report.uploaded)
    fresh = export_site(results_night, live=True)
    assert without_stand(remote) == without_stand(fresh)
    assert "static/style.css" in remote or any(n.startswith("static/") for n in remote)
    # nothing changed: at most the index (its "Stand HH:MM") goes up again
    again, _ = publish.publish_tournament(results_night, target)
    assert set(again.uploaded) <= {"index.html", "regeln.pdf"} and again.removed == []
    assert again.unchanged >= len(fresh) - 2
    # a hand saved: its standings and players' pages change, the others stay
    table = results_night.round_set.get(number=2).tables.order_by("number").first()
    before = remote_tree(tmp_path / "verein")
    with django_capture_on_commit_callbacks(execute=True):  # the standings go stale
        play_hand(table, 1, 3, clerk)
    third, _ = publish.publish_tournament(results_night, target)
    assert "gesamt.html" in third.uploaded and "runde-2.html" in third.uploaded
    # only what changed went up (a page of another round too, when its "Stand" line
    # moved on to the next minute); the style sheet and the other players' pages stayed
    after = remote_tree(tmp_path / "verein")
    assert all(before.get(name) != after[name] for name in third.uploaded)
    assert third.unchanged > 0 and not any(n.startswith("static/") for n in third.uploaded)
    assert without_stand(remote_tree(tmp_path / "verein")) == without_stand(
        export_site(results_night, live=True)
    )
    manifest = json.loads((tmp_path / "verein" / MANIFEST).read_text("utf-8"))
    assert set(manifest["files"]) == set(fresh) and manifest["stand"]
    assert not list((tmp_path / "verein").rglob("*.binokel-neu"))


def test_the_live_site_says_so_and_reloads_itself_while_the_evening_runs(results_night):
    live = export_site(results_night, live=True)
    index = live["index.html"].decode()
    assert "· live" in index and '<meta http-equiv="refresh" content="60">' in index
    assert '<meta http-equiv="refresh"' in live["gesamt.html"].decode()
    assert '<meta http-equiv="refresh"' not in next(
        content.decode() for name, content in live.items() if name.startswith("spieler/")
    )
    plain = export_site(results_night)
    assert "· live" not in plain["index.html"].decode()
    assert not any(b'http-equiv="refresh"' in content for content in plain.values())


def test_names_without_consent_never_reach_the_club_s_site(results_night, tmp_path):
    hidden = [
        r.player for r in results_night.registrations.select_related("player")
        if not r.consent_public
    ]  # fmt: skip
    assert hidden
    publish.publish_tournament(results_night, publish.parse_target(str(tmp_path / "s")))
    for content in remote_tree(tmp_path / "s").values():
        for player in hidden:
            assert player.last_name.encode() not in content


def test_a_file_the_new_site_lacks_is_removed_and_a_foreign_one_left_alone(results_night, tmp_path):
    folder = tmp_path / "verein"
    remote = FolderRemote(str(folder))
    report = publish.publish_files({"a.html": b"1", "b/c.html": b"2"}, remote, "20:41")
    assert report.uploaded == ["a.html", "b/c.html"]
    (folder / "impressum.html").write_bytes(b"des Vereins")
    second = publish.publish_files({"a.html": b"1"}, remote, "20:42")
    assert second.uploaded == [] and second.removed == ["b/c.html"]
    assert (folder / "impressum.html").read_bytes() == b"des Vereins"
    assert not (folder / "b" / "c.html").exists()


def test_a_publish_cut_off_half_way_is_made_whole_by_the_next(tmp_path):
    folder = tmp_path / "verein"

    class Breaks(FolderRemote):
        writes = 0

        def write(self, name: str, data: bytes) -> None:
            Breaks.writes += 1
            if Breaks.writes == 3:
                raise publish.PublishError("Der Server … ist nicht erreichbar")
            super().write(name, data)

    site = {f"seite-{n}.html": f"{n}".encode() for n in range(5)} | {"index.html": b"i"}
    with pytest.raises(publish.PublishError):
        publish.publish_files(site, Breaks(str(folder)), "1")
    assert not (folder / MANIFEST).exists()  # the old list (none) stays
    report = publish.publish_files(site, FolderRemote(str(folder)), "2")
    assert set(report.uploaded) == set(site)
    assert remote_tree(folder) == site
    assert report.uploaded[-1] == "index.html"  # the index last: it never links ahead


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("sftp://verein:geheim@example.org/www", "Passwort gehört nicht in die Zieladresse"),
        ("http://example.org/www", "Unbekannte Zieladresse"),
        ("sftp://example.org/www", "fehlen Benutzer oder Server"),
        ("ftps://verein@example.org:99999/www", "Portnummer"),
        ("sftp://verein@example.org/../etc", "kein „..“"),
        ("", "Kein Ziel"),
    ],
)
def test_a_target_address_that_cannot_be_used_is_refused_with_its_reason(address, words):
    with pytest.raises(publish.PublishError, match=words):
        publish.parse_target(address)


def test_target_addresses():
    assert publish.parse_target("sftp://verein@web.example:2222/html/turnier") == publish.Target(
        "sftp", "html/turnier", "web.example", 2222, "verein"
    )
    assert publish.parse_target("ftps://a@b//srv/www/").path == "/srv/www"
    assert publish.parse_target("ftp://a@b").port == 21


def test_plain_ftp_needs_the_directors_consent():
    target = publish.parse_target("ftp://verein@127.0.0.1:1/www")
    with pytest.raises(publish.PublishError, match="ausdrücklich erlauben"):
        publish.open_remote(target, "x")


def test_the_command_publishes_and_names_an_unreachable_server_in_german(
    results_night, tmp_path, monkeypatch
):
    out = io.StringIO()
    call_command("publish_site", results_night.pk, target=str(tmp_path / "v"), stdout=out)
    assert "Dateien hochgeladen, 0 entfernt, 0 unverändert" in out.getvalue()
    monkeypatch.setenv("BINOKEL_PUBLISH_PASSWORD", "geheim")
    with pytest.raises(CommandError, match="ist nicht erreichbar"):
        # nothing listens on port 1 of loopback
        call_command("publish_site", results_night.pk, target="ftps://verein@127.0.0.1:1/www")
    with pytest.raises(CommandError, match="Passwort gehört nicht"):
        call_command("publish_site", results_night.pk, target="ftps://v:geheim@127.0.0.1/www")


def test_a_manifest_someone_else_edited_cannot_delete_outside_the_site(tmp_path):
    folder = tmp_path / "verein"
    outside = tmp_path / "wichtig.txt"
    outside.write_bytes(b"bleibt")
    folder.mkdir()
    (folder / MANIFEST).write_text(
        json.dumps({"files": {"../wichtig.txt": "x", "/etc/hostname": "x", "a.html": "x"}})
    )
    report = publish.publish_files({"b.html": b"2"}, FolderRemote(str(folder)), "1")
    assert report.removed == ["a.html"]
    assert outside.read_bytes() == b"bleibt"
    with pytest.raises(publish.PublishError, match="liegt nicht im Zielordner"):
        publish.publish_files({"../c.html": b"3"}, FolderRemote(str(folder)), "2")


def test_a_windows_drive_in_a_manifest_name_is_ignored(tmp_path):
    folder = tmp_path / "verein"
    folder.mkdir()
    (folder / MANIFEST).write_text(json.dumps({"files": {"C:manage.py": "x"}}))
    report = publish.publish_files({"a.html": b"1"}, FolderRemote(str(folder)), "1")
    assert report.removed == []

"""Issue 28: the exported results website opened from disk (file://) in Chromium: every
link leads to a page or file of the export, the standings read as on the live page, and
the pages keep the public pages' accessibility (axe, 16 px on the phone)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from django.urls import reverse

from archive import site
from tests.factories.browser import BLOCKING, PHONE, SMALLEST_TEXT, describe, require_chromium
from tests.factories.evenings import prize_evening, results_evening
from tests.factories.web import standings_rows

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")


@pytest.mark.django_db(transaction=True)
def test_the_exported_site_works_from_disk(browser, clerk, client, tmp_path):
    tournament = results_evening(clerk)
    folder = site.write_site(site.export_site(tournament), tmp_path / "ergebnisse")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    axe = axe_sync.Axe()
    seen: set[Path] = set()
    queue = [folder / "index.html"]
    problems: list[str] = []
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        page.goto(path.as_uri())
        assert page.title(), path
        for href in page.eval_on_selector_all("a[href], link[href]", "es => es.map(e => e.href)"):
            parts = urlsplit(href)
            assert parts.scheme == "file", (path.name, href)  # nothing off the disk
            target = Path(unquote(parts.path))
            assert target.is_file(), (path.name, href)
            assert folder in target.parents, (path.name, href)
            if target.suffix == ".html":
                queue.append(target)
        problems += [
            f"{path.name}: {describe(v)}"
            for v in axe.run(page).response["violations"]
            if v["impact"] in BLOCKING
        ]
        smallest = page.evaluate(SMALLEST_TEXT)
        if smallest and smallest["size"] < 16:
            problems.append(f"{path.name}: {smallest}")
    assert not problems, "\n".join(problems)
    assert {p.name for p in seen} >= {
        "index.html",
        "gesamt.html",
        "runde-1.html",
        "kategorie-damen.html",
    }
    # the places and points as the browser shows them, against the live page
    page.goto((folder / "gesamt.html").as_uri())
    shown = standings_rows(page.content())
    live = client.get(reverse("scoring:standings", args=[tournament.pk])).content.decode()
    assert shown == standings_rows(live) and len(shown) > 9
    # a tie-break evening: places broken by the best round, then shared, as live
    from tournament.models import Tournament

    tied = prize_evening(tie_break=Tournament.TieBreak.BEST_ROUND)
    other = site.write_site(site.export_site(tied), tmp_path / "tie-break")
    page.goto((other / "gesamt.html").as_uri())
    shown = standings_rows(page.content())
    live = client.get(reverse("scoring:standings", args=[tied.pk])).content.decode()
    assert shown == standings_rows(live)
    assert [row[0] for row in shown[1:5]] == ["1", "2", "2", "4"]
    context.close()


@pytest.mark.django_db(transaction=True)
def test_the_website_zip_of_the_venue_has_its_stylesheet(
    browser, clerk, director, client, tmp_path, settings
):
    """Issue 37.2: with DJANGO_DEBUG=0 the pages name their stylesheet by its hashed name
    (``css/app.<hash>.css``), which the static files finders do not know, so the ZIP from
    the entry overview had no CSS and opened as plain Times text.  Here the static files
    are collected under hashed names as the venue does; the ZIP and the export command's
    files are the same site, and in Chromium the app's styles apply."""
    import io
    import zipfile

    from django.core.management import call_command

    settings.STATIC_ROOT = str(tmp_path / "static")
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    tournament = results_evening(clerk)
    client.force_login(director)
    response = client.get(reverse("archive:site", args=[tournament.pk]))
    assert response.status_code == 200
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        zipped = {name: archive.read(name) for name in archive.namelist()}
    command = site.export_site(tournament)
    assert set(zipped) == set(command)
    styles = [name for name in zipped if name.endswith(".css")]
    assert styles and all(zipped[name] == command[name] for name in styles)
    index = zipped["index.html"].decode()
    assert 'rel="stylesheet"' in index and styles[0] in index

    folder = tmp_path / "zip"
    for name, content in zipped.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)
    page = browser.new_page()
    page.goto((folder / "index.html").as_uri())
    font = page.evaluate("getComputedStyle(document.body).fontFamily")
    margin = page.evaluate("getComputedStyle(document.body).margin")
    assert "system-ui" in font and margin == "0px", (font, margin)

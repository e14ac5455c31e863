"""A laptop without Pango (most Windows laptops; issue 40.2): WeasyPrint cannot load its
system libraries, the evening still runs, and every PDF address answers with a page that
says what to install instead of a server error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from archive.site import export_site
from printing import render

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
MISSING = OSError("cannot load library 'libpango-1.0-0': error 0x7e")


def test_without_weasyprint_the_app_starts_and_says_why(tmp_path):
    """A ``weasyprint`` whose import fails as it does without Pango: Django still starts,
    ``manage.py check`` passes, and the printing app knows why it cannot print."""
    fake = tmp_path / "fake" / "weasyprint"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "raise OSError(\"cannot load library 'libgobject-2.0-0': error 0x7e\")\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "fake")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    check = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stderr
    probe = subprocess.run(
        [
            sys.executable, "-c",
            "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'config.settings'); django.setup(); import printing.views, printing.render as r; "
            "print(r.PDF_ENGINE_ERROR)",
        ],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert probe.returncode == 0, probe.stderr
    assert "libgobject-2.0-0" in probe.stdout


def test_every_pdf_address_names_what_to_install(client, tournament, monkeypatch):
    monkeypatch.setattr(render, "PDF_ENGINE_ERROR", MISSING)
    response = client.get(reverse("printing:rules", args=[tournament.pk]))
    assert response.status_code == 503
    page = response.content.decode()
    assert (
        "PDF-Druck nicht verfügbar" in page
        and "GTK-for-Windows-Runtime-Environment-Installer" in page
    )
    assert "no-store" in response["Cache-Control"]
    assert "error 0x7e" not in page  # the raw error only for the staff
    for name in ("results", "poster"):
        assert client.get(reverse(f"printing:{name}", args=[tournament.pk])).status_code == 503
    # the evening itself goes on
    assert client.get(reverse("scoring:standings", args=[tournament.pk])).status_code == 200
    site = export_site(tournament)
    assert "regeln.pdf" not in site and "gesamt.html" in site
    assert not any(b"regeln.pdf" in content for content in site.values())  # no dead link


def test_the_director_sees_the_systems_own_words(as_director, tournament, monkeypatch):
    monkeypatch.setattr(render, "PDF_ENGINE_ERROR", MISSING)
    page = as_director.get(reverse("printing:rules", args=[tournament.pk])).content.decode()
    assert "error 0x7e" in page


def test_the_page_is_in_english_for_an_english_visitor(client, tournament, monkeypatch):
    monkeypatch.setattr(render, "PDF_ENGINE_ERROR", MISSING)
    client.get("/sprache/en/")
    page = client.get(reverse("printing:rules", args=[tournament.pk])).content.decode()
    assert "PDF printing is not available" in page

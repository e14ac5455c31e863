"""Uploading a member list through the import page (issue 41.5): the helpers of the
import's tests and of the evening at the door."""

from __future__ import annotations

import io

import lxml.html
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook


def xlsx(rows: list[list]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def url(tournament) -> str:
    return reverse("tournament:member_import", args=[tournament.pk])


def upload(client, tournament, content: bytes, name: str = "mitglieder.xlsx"):
    return client.post(
        url(tournament), {"action": "upload", "file": SimpleUploadedFile(name, content)}
    )


def page(response) -> str:
    return response.content.decode()


def shown_form(response) -> dict[str, str]:
    """The mapping form of a preview page as a browser would post it."""
    document = lxml.html.document_fromstring(page(response))
    form = next(f for f in document.forms if "upload" in f.fields)
    return dict(form.form_values())


def press(client, tournament, response, action: str = "import", **changes):
    """Post the preview's form with the button ``action``; ``changes`` changes fields
    (``None`` leaves a field out, as an unticked checkbox)."""
    data = {**shown_form(response), "action": action, **changes}
    return client.post(url(tournament), {k: v for k, v in data.items() if v is not None})

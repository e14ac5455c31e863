"""Template tags of the score sheet (``printing/score_sheets.html``): ``{% field %}`` prints
one table's text, or in the grid the box it will be stamped into (printing.sheets)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from printing.stamping import FIELD

register = template.Library()


def field_key(*parts) -> str:
    """The name of a field from its parts: ``field_key("cell", 3, 1, 0)`` is
    ``"cell-3-1-0"`` (row 3 of the page, seat 1, the meld column)."""
    return "-".join(str(part) for part in parts)


@register.simple_tag(takes_context=True)
def placeholder(context, *parts) -> str:
    """Invisible stand-in text for a field in the grid: as many lines ("X<br>X") as the
    page's text of that field takes (``page.lines``), so the grid is laid out at the
    height the text needs; fields of the fixed-height game rows get none."""
    page = context.get("page")
    lines = page.lines.get(field_key(*parts), 1) if page is not None else 1
    # safe: only the letter X and <br>, a count of lines; no text of a table or a user ever
    # reaches it (tests/security/test_sheet_grid.py renders hostile names into the grid)
    return mark_safe("<br>".join(["X"] * int(lines)))


@register.simple_tag(takes_context=True)
def field(context, *parts) -> str:
    """A field of the score sheet named by ``parts`` (see :func:`field_key`).

    Printed directly: the page's text for it (``page.fields``), escaped, in a
    ``<span class="f">``.  In the grid (``grid`` in the context): an ``<a class="f">`` whose
    link target is the field's name and whose content is invisible
    (``print.css``); WeasyPrint reports its box among the page's links
    (:func:`printing.stamping.field_boxes`)."""
    key = field_key(*parts)
    page = context["page"]
    if context.get("grid"):
        if key in page.lines:
            return format_html(
                '<a class="f" href="{}{}">{}</a>', FIELD, key, placeholder(context, key)
            )
        return format_html('<a class="f" href="{}{}"></a>', FIELD, key)
    text = page.fields.get(key, "")
    if not isinstance(text, str):  # shorter forms not yet chosen by the stamper: the full
        text = text[0] if text else ""
    return format_html('<span class="f">{}</span>', text)

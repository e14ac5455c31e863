"""Template helpers for the print templates."""

from django import template

register = template.Library()


@register.filter
def css_string(value) -> str:
    """``value`` as the inside of a double-quoted CSS string (for ``@page`` margin boxes)."""
    text = str(value)
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("<", "\\3c ")

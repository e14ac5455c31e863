"""Template helpers for the scoring pages."""

from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` or ``""`` (for dicts keyed by seat position or field name)."""
    if mapping is None:
        return ""
    try:
        return mapping.get(key, "")
    except AttributeError:
        return ""


@register.filter
def at(sequence, index):
    """``sequence[index]`` or ``""``."""
    try:
        return sequence[index]
    except (IndexError, TypeError, KeyError):
        return ""

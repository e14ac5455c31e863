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


@register.filter
def points(value):
    """Points with a thin no-break space between thousands, as the club writes them on the
    board ("1 240", "-1 050"); anything else unchanged."""
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    return f"{value:,}".replace(",", "\u202f")


@register.filter
def euro(value):
    """An amount in euros as the active language writes it: "0,50 €" / "€0.50"
    (:func:`tournament.formatting.euro`); ``None`` and "" stay empty."""
    from tournament.formatting import euro as formatted

    if value is None or value == "":
        return ""
    return formatted(value)

"""Template helpers for the scoring pages."""

from django import template
from django.utils import translation

from rules.cards import card_name
from tournament.templatetags import binokel_format

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


# the number and name filters live with the formatting they use (tournament app); the
# scoring templates get them with this library too
register.filter("points", binokel_format.points)
register.filter("euro", binokel_format.euro)
register.filter("ruleset_name", binokel_format.ruleset_name)


@register.filter
def card_names(cards):
    """A card code ("QS") or a list of codes as people name them in the active language:
    "Schippe-Ober" / "queen of spades", listed with commas (:func:`rules.cards.card_name`)."""
    language = "en" if translation.get_language() == "en" else "de"
    if isinstance(cards, str):
        return card_name(cards, language) if len(cards) == 2 else cards
    return ", ".join(card_name(c, language) for c in cards)

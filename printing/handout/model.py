"""The handout's building blocks: a :class:`Statement` (one rule, marked "Turnierregel"
or not), a :class:`Table`, a :class:`Section` of them and the whole :class:`Handout`, as
the template ``printing/rules.html`` prints them; and the one minus sign (:data:`MINUS`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from tournament import formatting

# the one minus sign of every printed document and page, U+2212 as the lists and sheets
# print it (issue 37.20; issue 26 had asked for one sign, then the hyphen everywhere)
MINUS = formatting.MINUS


@dataclass
class Statement:
    """One rule on the sheet: ``key`` names it for tests (the parameter behind it),
    ``text`` is the sentence, ``house_rule`` marks a value the tournament chose
    ("Turnierregel"); ``run_on`` prints a list item's statement in the item before it
    (a rule's details, each marked on its own, without a bullet of their own)."""

    key: str
    text: str
    house_rule: bool = False
    run_on: bool = False


@dataclass
class Table:
    """A small table: ``head`` cells and ``rows`` of cells; the last ``numeric`` columns
    are right-aligned.  A cell ``None`` is covered by the cell before it (colspan)."""

    head: list[str]
    rows: list[list[str | None]]
    numeric: int = 1

    def cells(self) -> list[list[tuple[str, int, bool]]]:
        """Rows as ``(text, colspan, numeric)`` for the template."""
        width = len(self.head)
        out = []
        for row in self.rows:
            cells: list[tuple[str, int, bool]] = []
            for i, cell in enumerate(row):
                if cell is None:
                    text, span, _num = cells[-1]
                    cells[-1] = (text, span + 1, True)
                else:
                    cells.append((cell, 1, i >= width - self.numeric))
            out.append(cells)
        return out


@dataclass
class Section:
    """One block of the sheet: a heading, paragraphs (each a list of statements printed
    as one paragraph), tables, and list items (one statement each)."""

    title: str
    paragraphs: list[list[Statement]] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[Statement] = field(default_factory=list)

    def note_items(self) -> list[list[Statement]]:
        """The list items: each note, with the ``run_on`` notes after it in its item."""
        items: list[list[Statement]] = []
        for note in self.notes:
            if note.run_on and items:
                items[-1].append(note)
            else:
                items.append([note])
        return items


@dataclass
class Handout:
    """The whole sheet: ``name``, ``fingerprint`` and ``version`` of the ruleset, and its
    sections."""

    name: str
    fingerprint: str
    version: int
    sections: list[Section]

    def statements(self) -> Iterator[Statement]:
        """Every statement of the sheet, in reading order (tables left out)."""
        for section in self.sections:
            for paragraph in section.paragraphs:
                yield from paragraph
            yield from section.notes

    def statement(self, key: str) -> Statement | None:
        """The statement with ``key``, or ``None`` if the sheet does not state it."""
        return next((s for s in self.statements() if s.key == key), None)

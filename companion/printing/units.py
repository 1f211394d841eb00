"""Lengths as strings ("63mm", "2.5in", "0.3cm", "12pt") and mm <-> pixel conversion.

Squib-style: every length option accepts a unit; a bare number means millimetres.
"""

from __future__ import annotations

import re

from companion import i18n

MM_PER_IN = 25.4
MM_PER_PT = 25.4 / 72

_UNITS = {"mm": 1.0, "cm": 10.0, "in": MM_PER_IN, '"': MM_PER_IN, "pt": MM_PER_PT, "": 1.0}
_LEN = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|\"|pt)?\s*$", re.IGNORECASE)


class KeyedError(ValueError):
    """A refusal the print command says in the user's language: `key` of the platform catalog
    (pcli.*) and its params; str() is the English text (a ValueError as before for every caller)."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(i18n.t("en", key, **params))
        self.key = key
        self.params = params

    def text(self, lang: str) -> str:
        return i18n.t(lang, self.key, **self.params)


def parse_length(value: str | float | int) -> float:
    """Return a length in mm. Accepts numbers (mm) and strings like "3mm", "0.125in", "1cm"."""
    if isinstance(value, bool):
        raise ValueError(f"not a length: {value!r}")
    if isinstance(value, int | float):
        return float(value)
    m = _LEN.match(str(value))
    if not m:
        raise ValueError(f"not a length: {value!r} (use e.g. 3mm, 0.125in, 1cm)")
    return float(m.group(1)) * _UNITS[(m.group(2) or "").lower()]


def parse_size(value: str) -> tuple[float, float]:
    """Parse "63x88", "63x88mm", "2.5inx3.5in", "2.5x3.5in" or a single length (square)."""
    text = str(value).strip().lower().replace("×", "x").replace("*", "x")
    parts = [p for p in re.split(r"x(?![^\d.]*$)|,", text) if p.strip()] if "x" in text or "," in text else [text]
    if len(parts) == 1:
        side = parse_length(parts[0])
        return side, side
    if len(parts) != 2:
        raise ValueError(f"not a size: {value!r} (use e.g. 63x88mm or 2.5x3.5in)")
    a, b = parts
    unit = re.search(r"(mm|cm|in|pt)\s*$", b)
    if unit and not re.search(r"(mm|cm|in|pt)\s*$", a):
        a = a + unit.group(1)
    return parse_length(a), parse_length(b)


def mm_to_px(mm: float, dpi: int) -> int:
    """Nearest whole pixel for a length in mm at `dpi`."""
    return int(round(mm * dpi / MM_PER_IN))


def px_to_mm(px: float, dpi: int) -> float:
    return px * MM_PER_IN / dpi

"""--max-shingle-df: the cap on a shingle's document frequency, a count of texts or a fraction of them.

A shingle held by more distinct normalized texts than the cap is boilerplate: the boilerplate stage
(sql/02_boilerplate.sql) lists it and the shingles stage leaves it out of every document's set."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from .errors import UsageError

OPTION = "--max-shingle-df"


@dataclass(frozen=True)
class FrequencyCap:
    """A cap of `count` texts, or of the fraction `fraction` of the distinct texts (the other None)."""

    count: int | None = None
    fraction: float | None = None

    @classmethod
    def parse(cls, value: object) -> FrequencyCap:
        """A whole number of at least 1 is a count of texts (20); a number between 0 and 1 with a
        point is a fraction of them (0.01)."""
        if isinstance(value, bool) or not isinstance(value, (str, numbers.Real)):
            raise UsageError(f"{OPTION} must be a number, got {value!r}")
        text = str(value).strip()
        if isinstance(value, numbers.Integral) or text.lstrip("-").isdigit():
            count = int(text)
            if count < 1:
                raise UsageError(f"{OPTION} must be at least 1 text, or a fraction between 0 and 1, got {text}")
            return cls(count=count)
        try:
            fraction = float(text)
        except ValueError:
            raise UsageError(
                f"{OPTION} must be a count of texts (20) or a fraction of them between 0 and 1 (0.01), got {text!r}"
            ) from None
        if not 0.0 < fraction < 1.0:
            raise UsageError(f"{OPTION} as a fraction must be between 0 and 1 (a count is a whole number), got {text}")
        return cls(fraction=fraction)

    def __str__(self) -> str:
        """Its one spelling, as the runs table records it."""
        return str(self.count) if self.count is not None else repr(self.fraction)

    def describe(self) -> str:
        """The cap in words: 'more than 20 distinct texts', 'more than 0.01 of the distinct texts'."""
        if self.count is not None:
            return f"more than {self.count:,} distinct texts"
        return f"more than {self.fraction:.4g} of the distinct texts"

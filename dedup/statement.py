"""A compiled SQL statement: one value, used both to fingerprint a stage and to run it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Statement:
    """One SQL statement as it runs in one dialect, with the values of exactly the parameters it uses.

    `sql` is a query (for a table: its SELECT; the engine writes the `create ... as` line) with
    `$name` markers; `parameters` maps each marker's name to its value. Values never enter `sql`.
    """

    name: str
    dialect: str
    sql: str
    parameters: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", MappingProxyType(dict(self.parameters)))

    def with_values(self, **values: Any) -> Statement:
        """The statement with new values for some of its parameters (e.g. the bounds of a batch)."""
        unknown = sorted(set(values) - set(self.parameters))
        if unknown:
            raise KeyError(f"{self.name}: no parameter ${unknown[0]}")
        return Statement(self.name, self.dialect, self.sql, {**self.parameters, **values})

    def fingerprint(self, previous: str = "") -> str:
        """sha256 chaining `previous`, the SQL text and the parameter values (as text)."""
        digest = hashlib.sha256(previous.encode())
        digest.update(self.sql.encode())
        digest.update(json.dumps({k: str(v) for k, v in self.parameters.items()}, sort_keys=True).encode())
        return digest.hexdigest()

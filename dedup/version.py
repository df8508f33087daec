"""The one place of dedup's version: pyproject.toml reads it from here (hatch's version source), so
an import does not pay for importlib.metadata (55 ms, 7 % of a 100-document run), and the modules
that record it (dedup.records) need not import the package's API."""

__version__ = "0.1.0"

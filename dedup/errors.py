"""Errors that reach users as one line, never as a traceback."""


def first_line(error: BaseException) -> str:
    """The first line of an error's message (its type's name when it has none): what a user sees."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class DedupError(Exception):
    """A failure the user can act on; the CLI prints `Error: <message>` and exits 1."""

    exit_code = 1


class UsageError(DedupError):
    """Wrong options or arguments; the CLI exits 2 like any other usage error."""

    exit_code = 2


class InputError(DedupError):
    """Input that cannot be read as documents (missing column, duplicate ids, ...)."""


class Interrupted(DedupError):
    """Ctrl-C (SIGINT): the stage in progress was rolled back; the CLI exits 130 like a shell."""

    exit_code = 130


class EngineError(DedupError):
    """A statement the engine could not run (out of memory or disk, a bad query): its first line."""

    def __init__(self, message: str, *, out_of_space: bool = False) -> None:
        super().__init__(message)
        self.out_of_space = out_of_space

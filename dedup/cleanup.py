"""Optional clean-up of a text before it is shingled: --strip-html.

HTML is parsed by the standard library's `html.parser` (tags, comments, entities and character
references as browsers read them); the text between tags is kept, each tag becomes a space (so
`a<br />b` is two words, not `ab`), and the contents of `<script>` and `<style>` are dropped.
"""

from __future__ import annotations

from html.parser import HTMLParser

HIDDEN = frozenset({"script", "style"})


class _TextOnly(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in HIDDEN:
            self.hidden += 1
        self.parts.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN and self.hidden:
            self.hidden -= 1
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def html_to_text(text: str) -> str:
    """The text of an HTML fragment or page: tags become spaces, entities their characters.

    >>> html_to_text("A film.<br /><br />I &amp; my friends loved it")
    'A film.  I & my friends loved it'
    """
    parser = _TextOnly()
    parser.feed(text)
    parser.close()
    return "".join(parser.parts)

"""Words for people: the nearest right one to a mistyped word ("did you mean …?"), counts."""

import difflib


def nearest(word: str, words: list[str]) -> str | None:
    """The closest of ``words`` to a mistyped ``word``, or None when none is close."""
    close = difflib.get_close_matches(word, words, n=1, cutoff=0.6)
    return close[0] if close else None


def counted(number: int, thing: str, things: str | None = None) -> str:
    """``number`` and the noun: "1 false find", "3 false finds" (``things`` when not thing + s)."""
    return f"{number} {thing if number == 1 else things or thing + 's'}"

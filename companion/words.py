"""Answering a mistyped word with the nearest right one ("did you mean …?")."""

import difflib


def nearest(word: str, words: list[str]) -> str | None:
    """The closest of ``words`` to a mistyped ``word``, or None when none is close."""
    close = difflib.get_close_matches(word, words, n=1, cutoff=0.6)
    return close[0] if close else None

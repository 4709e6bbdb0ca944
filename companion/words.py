"""Words for people: the nearest right one to a mistyped word ("did you mean …?"), counts."""

import difflib
from typing import Any


def nearest(word: str, words: list[str]) -> str | None:
    """The closest of ``words`` to a mistyped ``word``, or None when none is close."""
    close = difflib.get_close_matches(word, words, n=1, cutoff=0.6)
    return close[0] if close else None


def slips_from(word: str, words: list[str]) -> list[str]:
    """The ``words`` that ``word`` is a single slip away from (a letter left out, added, changed,
    or two neighbours swapped: ``rde`` of red, ``blu`` of blue). Stricter than ``nearest``: a
    name of its own that merely looks alike (``lilac``, ``rose``) is no slip of any."""
    return [known for known in words if known != word and one_slip_apart(word, known)]


def one_slip_apart(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by one letter left out, added or changed, or two neighbours swapped."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        differ = [i for i in range(len(a)) if a[i] != b[i]]
        if len(differ) == 1:
            return True
        first, second = differ if len(differ) == 2 else (0, 0)
        return second == first + 1 and a[first] == b[second] and a[second] == b[first]
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def unknown_field(data: dict[str, Any], fields: tuple[str, ...], what: str) -> str | None:
    """What is wrong when ``data`` holds a field that ``what`` (a new game, a die…) does not take:
    the first such field and the nearest one it does ("a die has no field 'pip' — did you mean
    'pips'?"); None when every field is one of ``fields``."""
    for name in data:
        if name not in fields:
            close = nearest(str(name), list(fields))
            hint = f" — did you mean '{close}'?" if close else f"; it takes {', '.join(fields)}"
            return f"{what} has no field {name!r}{hint}"
    return None


def counted(number: int, thing: str, things: str | None = None) -> str:
    """``number`` and the noun: "1 false find", "3 false finds" (``things`` when not thing + s)."""
    return f"{number} {thing if number == 1 else things or thing + 's'}"

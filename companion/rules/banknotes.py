"""The banknote deck: what it holds, how it is built, and how casinos are stocked from it."""

from collections.abc import Iterable, Sequence

#: The classic deck as (value, count): 54 notes, $2,500,000 in all.
CLASSIC_DECK: tuple[tuple[int, int], ...] = (
    (10_000, 6),
    (20_000, 8),
    (30_000, 8),
    (40_000, 6),
    (50_000, 6),
    (60_000, 5),
    (70_000, 5),
    (80_000, 5),
    (90_000, 5),
)


def build_deck(composition: Iterable[tuple[int, int]]) -> list[int]:
    """Lay out every note of a deck composition, lowest value first (unshuffled)."""
    return [value for value, count in composition for _ in range(count)]


def deck_total(composition: Iterable[tuple[int, int]]) -> int:
    """The money a deck composition holds."""
    return sum(value * count for value, count in composition)


def check_banknote(value: object) -> int:
    """Return ``value`` if it is a positive whole number of dollars, else raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"a banknote must be a positive whole number, got {value!r}")
    return value


def deal_to_minimum(deck: list[int], minimum: int) -> list[int]:
    """Take notes from the top of ``deck`` until they add up to ``minimum`` or the deck is empty."""
    dealt: list[int] = []
    while deck and sum(dealt) < minimum:
        dealt.append(deck.pop(0))
    return dealt


def deal_count(deck: list[int], count: int) -> list[int]:
    """Take ``count`` notes from the top of ``deck`` (fewer if it runs out)."""
    dealt = deck[:count]
    del deck[:count]
    return dealt


def by_value(notes: Sequence[int]) -> dict[int, int]:
    """Count notes by value, highest value first."""
    counts: dict[int, int] = {}
    for note in sorted(notes, reverse=True):
        counts[note] = counts.get(note, 0) + 1
    return counts

"""Whether the reader is sure of a die: the one rule the camera game and ``companion read`` share.

A die the reader is unsure of holds a camera roll until a player looks at it; a die it is sure
of goes into the game as read. The rule looks at two things the reader knows of each die: how
surely the detector found it (``found_score``) and how far the pip reader's answer led its next
likeliest (``pips_margin``).
"""

from typing import Protocol


class ReadDie(Protocol):
    """What the rule looks at of a die read (``die.SeenDie`` has it)."""

    @property
    def score(self) -> float: ...
    @property
    def found_score(self) -> float | None: ...
    @property
    def pips_margin(self) -> float | None: ...


#: a die the detector scores under this, or whose pips the pip reader read with a margin under
#: ``UNSURE_MARGIN`` (its answer's probability less the next likeliest's), is one the reader is
#: unsure of: fewer rolls asked about than other pairs for as few recorded wrong (docs/
#: decisions.md, "A die is sure by one rule")
UNSURE_FOUND = 0.3
UNSURE_MARGIN = 0.6
#: for a die without those two (one built by hand rather than read): the least score (detector ×
#: pip confidence) of a die the reader is sure of
UNSURE_SCORE = 0.45


def is_sure(die: ReadDie, least_found: float = UNSURE_FOUND, least_margin: float = UNSURE_MARGIN) -> bool:
    """Whether the reader is sure of this die: found and read without hesitation (the two
    bounds are the game's; the research bench fits others)."""
    if die.found_score is None or die.pips_margin is None:
        return die.score >= UNSURE_SCORE
    return die.found_score >= least_found and die.pips_margin >= least_margin

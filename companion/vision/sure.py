"""Whether the reader is sure of a die: the one rule the camera game and ``companion read`` share.

A die the reader is unsure of holds a camera roll until a player looks at it; a die it is sure
of goes into the game as read. The rule looks at two things the reader knows of each die: how
surely the detector found it (``found_score``) and how far the pip reader's answer led its next
likeliest (``pips_margin``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .die import SeenDie

#: a die the detector scores under this, or whose pips the pip reader read with a margin under
#: ``UNSURE_MARGIN`` (its answer's probability less the next likeliest's), is one the reader is
#: unsure of. Chosen on rendered game rolls: on 5,755 rolls that fit the roller's hand, 0.3 / 0.6
#: asked about 355 and left 15 recorded wrong, where 0.5 / 0.5 asked 435 and left 16; on 2,400
#: fresh ones (as rendered and at saturation × 0.5) it asked 133 where 0.5 / 0.5 asked 159, with
#: the same 9 recorded wrong
UNSURE_FOUND = 0.3
UNSURE_MARGIN = 0.6
#: for a die without those two (a model that reads pips itself): the least score (detector ×
#: pip confidence) of a die the reader is sure of
UNSURE_SCORE = 0.45


def is_sure(die: SeenDie, least_found: float = UNSURE_FOUND, least_margin: float = UNSURE_MARGIN) -> bool:
    """Whether the reader is sure of this die: found and read without hesitation (the two
    bounds are the game's; the research bench fits others)."""
    if die.found_score is None or die.pips_margin is None:
        return die.score >= UNSURE_SCORE
    return die.found_score >= least_found and die.pips_margin >= least_margin

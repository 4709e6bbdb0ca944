"""What the reader sees: one die on the table (the rules' ``Die`` is what the game records)."""

from collections.abc import Iterable
from dataclasses import dataclass

from .boxes import centre
from .sure import is_sure


@dataclass(frozen=True)
class SeenDie:
    """A die the camera read: its box in pixels of the original image (x, y, w, h) round the
    die as seen (its top face from straight above, with the sides it shows from an angle), the
    pips on top (1–6, never a side face's), its body colour, and how sure the reader is (0–1:
    the detector's score times the pip reader's). Not in the JSON, for ``camera_game``:
    ``lightness`` is its body's CIELAB L (0–100) once the frame's exposure is corrected, what
    tells a roll's black, grey and white dice apart when two of those lie in it;
    ``found_score`` the detector's score alone and ``pips_margin`` how far the pip reader's
    answer led its next likeliest (0–1), what says the reader is unsure of a die; ``tint`` its
    body's CIELAB a and b once the frame's light is corrected, which way its colour leans and how
    far, what tells a player's dice read pale from the neutral dice rolled with them. Each None
    when not known. In the JSON, ``sure`` says whether the camera would record the die without
    asking a player (``sure.is_sure``)."""

    box: tuple[int, int, int, int]
    pips: int
    colour: str
    score: float
    lightness: float | None = None
    found_score: float | None = None
    pips_margin: float | None = None
    tint: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.pips <= 6:
            raise ValueError(f"pips must be 1–6, got {self.pips}")
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"score must be within 0–1, got {self.score}")

    @property
    def centre(self) -> tuple[float, float]:
        return centre(self.box)

    def to_json(self) -> dict:
        return {
            "box": list(self.box),
            "pips": self.pips,
            "colour": self.colour,
            "score": round(self.score, 3),
            "sure": is_sure(self),
        }


def in_reading_order(dice: Iterable[SeenDie]) -> list[SeenDie]:
    """Dice as a player reads them off the table: in rows 40 px high, top to bottom, each row
    left to right."""
    return sorted(dice, key=lambda d: (round(d.centre[1] / 40), d.centre[0]))

"""Body and pip colours of the dice the renderer draws (BGR, before lighting)."""

#: name -> (body BGR, pip BGR); the game's colours plus the others the reader must know
BODY_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "red": ((40, 35, 200), (245, 245, 245)),
    "green": ((70, 150, 40), (245, 245, 245)),
    "blue": ((190, 90, 25), (245, 245, 245)),
    "black": ((35, 32, 30), (240, 240, 240)),
    "white": ((238, 240, 240), (30, 30, 30)),
    "yellow": ((40, 200, 235), (30, 30, 30)),
    "grey": ((135, 135, 135), (245, 245, 245)),
    "violet": ((150, 50, 110), (245, 245, 245)),
}

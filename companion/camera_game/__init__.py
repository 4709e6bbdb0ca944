"""The camera-to-game glue: what the camera saw becomes the live game's rolls and placements.
It depends on the camera, the vision reader and the game service; none of them depend on it."""

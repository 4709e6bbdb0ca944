"""The camera-to-game glue: what the camera saw becomes the live game's rolls and placements,
and the camera's session (its health, the roll waiting for a player) sits beside the game. It
depends on the camera, the vision reader and the game service; none of them depend on it (the
web adapter shows and commands the session)."""

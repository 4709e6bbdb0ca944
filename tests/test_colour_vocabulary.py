"""The game's colours are named once, in the rules core: the reader's palette, the roll naming,
request parsing and the pages all speak those ids."""

import json
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from companion.camera_game import roll_colours
from companion.rules import EDITIONS, GameConfig
from companion.rules.colours import (
    COLOURS,
    DEFAULT_COLOURS,
    OTHER_NAMES,
    PLAYER_COLOURS,
    WITHOUT_HUE,
    canonical,
)
from companion.vision import annotate, colour
from companion.web.colours import SWATCHES
from companion.web.requests import KNOWN_COLOURS

STATIC = Path(__file__).resolve().parents[1] / "companion" / "web" / "static"


def test_request_parsing_starts_without_the_vision_stack():
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, companion.web.requests; "
            "print([m for m in ('cv2', 'numpy', 'onnxruntime') if m in sys.modules])",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"


def test_the_readers_palette_names_only_the_games_colours():
    assert set(colour.PALETTE) <= set(PLAYER_COLOURS)
    assert set(colour.HUES) | set(WITHOUT_HUE) == set(colour.PALETTE)
    assert set(colour.LEAN_HUES) <= set(PLAYER_COLOURS)
    assert set(annotate.INK) == set(colour.PALETTE)
    # a colour the palette cannot name is one the roller's hand names from what it is read as
    unnamed = set(PLAYER_COLOURS) - set(colour.PALETTE)
    mistaken = {name for names in roll_colours.MISTAKEN_FOR.values() for name in names}
    assert unnamed <= mistaken


def test_the_roll_naming_speaks_the_games_colours():
    assert roll_colours.NEUTRALS == WITHOUT_HUE
    tables = (roll_colours.MISTAKEN_FOR, roll_colours.CAST_NEIGHBOURS)
    named = {name for table in tables for read, names in table.items() for name in (read, *names)}
    assert named <= set(COLOURS)
    assert set(roll_colours.DARKER_THAN_WHITE) <= set(PLAYER_COLOURS)


def test_the_neutral_dice_and_the_default_seats_are_game_colours():
    assert {rules.default_neutral_colour for rules in EDITIONS.values()} <= set(WITHOUT_HUE)
    assert GameConfig.for_players(5).colours == DEFAULT_COLOURS
    assert set(DEFAULT_COLOURS) <= set(PLAYER_COLOURS)


def test_other_names_lead_to_game_colours():
    assert set(OTHER_NAMES.values()) <= set(COLOURS)
    assert not set(OTHER_NAMES) & set(COLOURS)
    assert canonical(" Gray ") == "grey" and canonical("ROUGE") == "red" and canonical("lilac") == "lilac"


def test_requests_know_every_colour_and_its_other_names():
    assert set(KNOWN_COLOURS) == set(COLOURS) | set(OTHER_NAMES)


def test_every_colour_is_drawn_and_translated():
    assert set(SWATCHES) == set(COLOURS)
    strings = (STATIC / "i18n.js").read_text()
    for language in ("en", "es", "fr"):
        table = strings[strings.index(f"  {language}: {{") :]
        table = table[: table.index("\n  },")]
        assert {key for key in re.findall(r'"colour\.([a-z]+)"', table)} == set(COLOURS), language


def test_the_pages_get_the_colours_from_the_server(client):
    for path in ("/", "/history", "/setup"):
        page = client.get(path).get_data(as_text=True)
        found = re.search(r'<script id="colours" type="application/json">(.*?)</script>', page)
        assert found, path
        given = json.loads(unescape(found.group(1)))
        assert given["choices"] == list(PLAYER_COLOURS) and given["defaults"] == list(DEFAULT_COLOURS)
        assert {given["swatches"][c] for c in ("grey", "gray")} == {SWATCHES["grey"]}


@pytest.mark.parametrize("script", sorted(p.name for p in STATIC.glob("*.js") if p.name != "i18n.js"))
def test_no_page_script_keeps_a_list_of_colours(script):
    text = (STATIC / script).read_text()
    quoted = {name for name in re.findall(r'["\'`]([a-z]+)["\'`]', text) if canonical(name) in COLOURS}
    # one colour may be drawn as such (a casino's number on a white die face), never a list
    assert len(quoted) <= 1, f"{script} names the colours {sorted(quoted)}: take them from COLOURS"

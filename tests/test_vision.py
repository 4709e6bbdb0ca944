"""The dice reader with the shipped model: real and rendered fixtures, the `read` contract,
bad files, and calibration."""

import json
import struct
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision import Calibration, CalibrationError, DiceReader, ModelError
from companion.vision.boxes import centres_inside
from companion.vision.picture_file import jpeg_cut_short, kind_of
from companion.vision.quality import TOO_DARK
from tests.pictures import close_die, greyed, paled, rendered

FIXTURES = Path(__file__).parent / "fixtures" / "real"


@pytest.fixture(scope="module")
def reader():
    return DiceReader()


# The shipped models are below target on oblique phone shots and some table-dice photos
# (docs/reader.md); the fixtures they misread stay strict expected failures, so the day a better
# model reads them the suite says so and the mark comes off.
OBLIQUE = "the reader misreads this oblique phone photo"
MISREAD_NOW = {
    "roboflow-dice-dice_297_jpg.rf.eb522c49edcca10c39d48353.jpg": OBLIQUE,
    # a red die at an angle: the side face's pips are counted with the single one on top
    "roboflow-dice-dice_178_jpg.rf.813e5d42f8b954b95e22ffd3.jpg": OBLIQUE,
    "table-dice-Image_121.jpg": "a cream die on pale wood is not found; a dark violet one reads grey",
}
#: the dice colours a game has (the reader's palette): a labelled die of one of them must read so
GAME_COLOURS = {"red", "green", "blue", "black", "white", "yellow", "grey", "violet"}
COLOURS = json.loads((FIXTURES / "colours.json").read_text())


def labelled_pips(image: Path) -> Counter:
    """The pips of the dice labelled in a YOLO label file beside ``image`` (class = pips − 1)."""
    label = image.parent.parent / "labels" / f"{image.stem}.txt"
    return Counter(int(line.split()[0]) + 1 for line in label.read_text().splitlines() if line.strip())


def fixture_params():
    for image in sorted((FIXTURES / "images").iterdir()):
        marks = (
            [pytest.mark.xfail(strict=True, reason=MISREAD_NOW[image.name])]
            if image.name in MISREAD_NOW
            else []
        )
        yield pytest.param(image, marks=marks, id=image.stem[:30])


@pytest.mark.parametrize("image_path", list(fixture_params()))
def test_real_photos_read_right(reader, image_path):
    image = cv2.imread(str(image_path))
    dice = reader.read(image)
    assert Counter(d.pips for d in dice) == labelled_pips(image_path)
    colours = COLOURS.get(image_path.stem)
    if colours is None:
        return  # no die's colour named by hand in this photo
    height, width = image.shape[:2]
    label = image_path.parent.parent / "labels" / f"{image_path.stem}.txt"
    for line, colour in zip(label.read_text().split("\n"), colours, strict=False):
        _, cx, cy, w, h = map(float, line.split())
        box = ((cx - w / 2) * width, (cy - h / 2) * height, w * width, h * height)
        read = [d.colour for d in dice if centres_inside(d.box, box)]
        if colour in GAME_COLOURS:
            assert read == [colour], f"the {colour} die at {cx:.2f}, {cy:.2f} read {read}"


@pytest.mark.parametrize("light", [None, "warm", "cold"])
def test_rendered_table_pips_and_colours(reader, light):
    wanted = [("red", 1), ("green", 2), ("blue", 3), ("black", 4), ("white", 5), ("yellow", 6), ("violet", 2)]
    dice = reader.read(rendered(wanted, seed=3, light=light))
    assert Counter((d.colour, d.pips) for d in dice) == Counter(wanted)
    for die in dice:
        x, y, w, h = die.box
        assert 40 <= w <= 90 and 40 <= h <= 90 and 0 < die.score <= 1


@pytest.mark.parametrize("dimmed", [0.4, 0.25])
def test_a_dim_picture_reads_the_same_colours(reader, dimmed):
    # a webcam in a dim room: every value scaled down, the white dice's pips at 60–100 of 255
    wanted = [("white", 5), ("white", 2), ("red", 3), ("black", 4), ("green", 6), ("blue", 1)]
    dim = np.clip(rendered(wanted, seed=5).astype(np.float32) * dimmed + 0.5, 0, 255).astype(np.uint8)
    dice = reader.read(dim)
    assert Counter((d.colour, d.pips) for d in dice) == Counter(wanted)


def test_read_says_when_the_dice_are_too_dark_for_their_colours(tmp_path, capsys):
    table = rendered([("white", 5), ("red", 3), ("blue", 1)], seed=5).astype(np.float32)
    for dimmed in (0.4, 0.12):
        picture = np.clip(table * dimmed + 0.5, 0, 255).astype(np.uint8)
        cv2.imwrite(str(tmp_path / f"dim{dimmed}.png"), picture)
    assert main(["read", str(tmp_path / "dim0.4.png"), str(tmp_path / "dim0.12.png"), "--json"]) == 0
    dim, darker = json.loads(capsys.readouterr().out)
    assert len(dim["dice"]) == 3 and "warning" not in dim  # lifted: its colours are told
    assert len(darker["dice"]) == 3 and darker["warning"] == TOO_DARK


def test_white_dice_in_a_dim_webcam_picture_are_white(reader):
    # real webcam shots scaled down to 0.4: their white dice read grey when the exposure was
    # raised at most ×1.6
    for path in sorted((FIXTURES / "images").glob("webcam-white-dice-*.jpg")):
        dim = np.clip(cv2.imread(str(path)).astype(np.float32) * 0.4 + 0.5, 0, 255).astype(np.uint8)
        dice = reader.read(dim)
        assert dice and {d.colour for d in dice} == {"white"}, path.name


def test_an_empty_table_has_no_dice(reader):
    assert reader.read(rendered([])) == []


def test_read_json_contract(tmp_path, capsys):
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), rendered([("red", 4), ("blue", 6)]))
    assert main(["read", str(image), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert result["image"] == str(image) and isinstance(result["ms"], float)
    assert sorted((d["pips"], d["colour"]) for d in result["dice"]) == [(4, "red"), (6, "blue")]
    for die in result["dice"]:
        assert set(die) == {"box", "pips", "colour", "score", "sure"}
        assert isinstance(die["sure"], bool)
        assert len(die["box"]) == 4 and all(isinstance(v, int) for v in die["box"])


def test_bad_files_get_an_error_entry_and_the_rest_are_read(tmp_path, capsys):
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), rendered([("green", 3)]))
    text = tmp_path / "notes.txt"
    text.write_text("not a picture")
    assert main(["read", str(text), str(good), str(tmp_path / "missing.jpg"), "--json"]) != 0
    out = json.loads(capsys.readouterr().out)
    assert "not a picture" in out[0]["error"]
    assert [d["pips"] for d in out[1]["dice"]] == [3]
    assert "no such file" in out[2]["error"]
    assert main(["read", str(tmp_path / "*.jpeg"), "--json"]) != 0
    assert json.loads(capsys.readouterr().out)[0]["error"] == f"no file matches {tmp_path / '*.jpeg'}"
    assert main(["read", "https://example.com/dice.jpg", "--json"]) != 0
    assert json.loads(capsys.readouterr().out)[0]["error"].startswith(
        "https://example.com/dice.jpg is a web address"
    )


def test_a_picture_too_small_to_show_a_die_is_an_error_entry_not_a_crash(tmp_path, capsys):
    tiny, good = tmp_path / "thumb.png", tmp_path / "good.png"
    cv2.imwrite(str(tiny), np.zeros((10, 12, 3), np.uint8))
    cv2.imwrite(str(good), rendered([("green", 3)]))
    assert main(["read", str(tiny), str(good), "--json"]) != 0
    out = json.loads(capsys.readouterr().out)
    assert "12×10 pixels" in out[0]["error"]
    assert [d["pips"] for d in out[1]["dice"]] == [3]


@pytest.mark.parametrize(
    ("fill", "words"),
    [(3, "almost black: is the lens covered"), (252, "almost white: the camera is dazzled")],
)
def test_a_black_or_dazzled_picture_says_why_it_shows_no_dice(tmp_path, capsys, fill, words):
    picture = tmp_path / "frame.png"
    cv2.imwrite(str(picture), np.full((480, 640, 3), fill, np.uint8))
    assert main(["read", str(picture), "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["dice"] == [] and words in entry["warning"]
    assert main(["read", str(picture)]) == 0
    assert words in capsys.readouterr().out


def test_a_dim_photo_with_dice_gets_no_lighting_warning(tmp_path, capsys):
    dim = tmp_path / "dim.png"
    cv2.imwrite(str(dim), (rendered([("red", 5), ("white", 2)]) * 0.45).astype(np.uint8))
    assert main(["read", str(dim), "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert sorted(d["pips"] for d in entry["dice"]) == [2, 5] and "warning" not in entry


#: an iPhone-style HEIC photo of ``rendered([("red", 4), ("blue", 6), ("green", 2)])``: its pixels
#: stored turned a quarter (540 wide, 960 high) with a rotation property saying how to show them
HEIC_PHOTO = Path(__file__).parent / "fixtures" / "heic" / "IMG_0003.HEIC"


def test_a_heic_photo_is_read_the_way_up_it_is_shown(capsys):
    assert main(["read", str(HEIC_PHOTO), "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    dice = sorted(entry["dice"], key=lambda d: d["box"][0])
    assert [(d["pips"], d["colour"]) for d in dice] == [(4, "red"), (6, "blue"), (2, "green")]
    # the dice were drawn at x = 140, 290, 440 and y = 150 of the 960×540 picture as shown
    for die, x in zip(dice, (140, 290, 440), strict=True):
        bx, by, bw, bh = die["box"]
        assert abs(bx + bw / 2 - x) <= 4 and abs(by + bh / 2 - 150) <= 4


def test_a_heic_photo_cut_short_is_an_error_and_the_others_are_read(tmp_path, capsys):
    cut = tmp_path / "IMG_0004.HEIC"
    cut.write_bytes(HEIC_PHOTO.read_bytes()[:20_000])
    plain = tmp_path / "plain.png"
    cv2.imwrite(str(plain), rendered([("red", 5)]))
    assert main(["read", str(cut), str(plain), "--json"]) != 0
    broken, read = json.loads(capsys.readouterr().out)
    assert "HEIC" in broken["error"] and "cut short or damaged" in broken["error"]
    assert [(d["pips"], d["colour"]) for d in read["dice"]] == [(5, "red")]


def test_a_heic_photo_without_its_decoder_says_what_to_do(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pi_heif", None)  # as if pi-heif were not installed
    assert main(["read", str(HEIC_PHOTO), "--json"]) != 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert "pip install pi-heif" in entry["error"] and "save it as JPEG" in entry["error"]


def test_calibration_learns_from_a_heic_photo(tmp_path, capsys):
    out = tmp_path / "table.json"
    assert main(["calibrate", "--photo", f"mixed={HEIC_PHOTO}", "--out", str(out)]) == 0
    assert "learned from 3 dice" in capsys.readouterr().out
    assert "mixed" in Calibration.load(out).colours


def with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF block holding only an orientation tag, as a phone writes it."""
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)  # tag, SHORT, count 1, value
    exif = b"Exif\x00\x00MM\x00\x2a" + struct.pack(">IH", 8, 1) + entry + struct.pack(">I", 0)
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + jpeg[2:]


def test_a_phone_photo_is_read_the_way_up_it_is_shown(tmp_path, capsys):
    """A phone held upright saves the sensor's pixels turned and says so in EXIF (orientation 6:
    turn clockwise to show); boxes come in the picture as shown."""
    upright = rendered([("red", 4), ("blue", 6), ("green", 2)])
    stored = cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE)
    photo = tmp_path / "IMG_0002.jpg"
    photo.write_bytes(
        with_exif_orientation(cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes(), 6)
    )
    plain = tmp_path / "upright.png"
    cv2.imwrite(str(plain), upright)
    assert main(["read", str(photo), str(plain), "--json"]) == 0
    turned, shown = json.loads(capsys.readouterr().out)

    def centres(entry):
        return sorted(
            (d["pips"], d["box"][0] + d["box"][2] / 2, d["box"][1] + d["box"][3] / 2) for d in entry["dice"]
        )

    assert [c[0] for c in centres(turned)] == [2, 4, 6]
    for (_, x, y), (_, ux, uy) in zip(centres(turned), centres(shown), strict=True):
        assert abs(x - ux) <= 4 and abs(y - uy) <= 4


def test_missing_model_is_a_clear_error(tmp_path, capsys):
    with pytest.raises(ModelError, match="no dice model"):
        DiceReader(tmp_path / "nothing.onnx")
    assert main(["read", "x.png", "--model", str(tmp_path / "nothing.onnx")]) != 0
    assert "no dice model" in capsys.readouterr().err


def test_find_gives_the_dice_read_gives_before_their_colours_are_named():
    """Calibration learns colours from ``find``'s boxes: the very dice, on the very boxes, whose
    bodies ``read`` names in play; ``find`` leaves their colours unnamed."""
    reader = DiceReader()
    frame = rendered([("red", 2), ("blue", 5), ("white", 6), ("black", 1)], seed=4)
    found, read = reader.find(frame), reader.read(frame)
    assert len(found) == 4 and {f.colour for f in found} == {"other"}
    assert sorted((f.box, f.pips, f.score) for f in found) == sorted((d.box, d.pips, d.score) for d in read)
    assert sorted(d.colour for d in read) == ["black", "blue", "red", "white"]


def test_calibration_round_trip_and_use(tmp_path, capsys):
    # a table whose "red" dice look orange-ish and whose "blue" dice are dark teal
    photos = {}
    for colour, seed in (("red", 5), ("blue", 6)):
        path = tmp_path / f"{colour}.png"
        cv2.imwrite(str(path), rendered([(colour, p) for p in (1, 2, 3, 4, 5, 6)], seed=seed))
        photos[colour] = path
    out = tmp_path / "table.json"
    args = [
        "calibrate",
        "--photo",
        f"red={photos['red']}",
        "--photo",
        f"blue={photos['blue']}",
        "--table",
        "0,0,960,540",
        "--zone",
        "tray=100,100,500,300",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    loaded = Calibration.load(out)
    assert set(loaded.colours) == {"red", "blue"} and loaded.colours["red"].dice == 6
    assert loaded.table == (0, 0, 960, 540) and loaded.zones["tray"] == (100, 100, 500, 300)
    again = tmp_path / "again.json"
    loaded.save(again)
    assert Calibration.load(again).to_json() == loaded.to_json()
    calibrated = DiceReader(calibration=loaded)
    dice = calibrated.read(rendered([("red", 2), ("blue", 5)], seed=9))
    assert sorted((d.colour, d.pips) for d in dice) == [("blue", 5), ("red", 2)]


def test_calibration_names_colours_as_the_reader_does_and_refuses_typos(tmp_path, capsys):
    red, blue = tmp_path / "red.png", tmp_path / "blue.png"
    cv2.imwrite(str(red), rendered([("red", p) for p in (1, 2, 3)], seed=5))
    cv2.imwrite(str(blue), rendered([("blue", p) for p in (4, 5)], seed=6))
    out = tmp_path / "table.json"

    def calibrate(*options: str) -> int:
        return main(["calibrate", *options, "--out", str(out)])

    # a typo is refused before any photo is read (the first photo here does not even exist)
    assert calibrate("--photo", f"red={tmp_path / 'missing.png'}", "--photo", f"blu={blue}") != 0
    assert "no colour 'blu' — did you mean 'blue'?" in capsys.readouterr().err
    assert calibrate("--photo", f"red={red}", "--zone", "try=0,0,10,10") != 0
    assert "did you mean 'tray'?" in capsys.readouterr().err and not out.exists()
    # the rule texts' languages and American spelling name the reader's colours ("blanc" is no typo)
    assert calibrate("--photo", f"Rouge={red}", "--photo", f"bleu={blue}", "--zone", "Slot=0,0,10,10") == 0
    assert "learned as red, the reader's name for rouge" in capsys.readouterr().out
    loaded = Calibration.load(out)
    assert set(loaded.colours) == {"red", "blue"} and set(loaded.zones) == {"slot"}
    # two photos of one colour are learned from together; a colour off the palette is kept as given
    assert calibrate("--photo", f"red={red}", "--photo", f"rojo={red}", "--photo", f"orange={blue}") == 0
    printed = capsys.readouterr().out
    assert "red: learned from 6 dice" in printed and "orange is not one of the reader's colours" in printed
    loaded = Calibration.load(out)
    assert loaded.colours["red"].dice == 6 and set(loaded.colours) == {"red", "orange"}


def test_dice_outside_the_calibrated_table_are_ignored():
    image = rendered([("red", 2), ("blue", 5)])  # red at x≈140, blue at x≈290
    reader = DiceReader(calibration=Calibration(table=(220, 0, 740, 540)))
    assert [d.colour for d in reader.read(image)] == ["blue"]


@pytest.mark.parametrize(
    "content, message",
    [
        ("{", "is not JSON"),
        ('{"version": 9}', "unknown calibration version"),
        ('{"version": 1, "table": [0, 0, -5, 10]}', "positive width"),
        ('{"version": 1, "colours": {"red": {"lab": "x"}}}', "not a valid calibration"),
        # a hand-edited file's typo is refused, not passed over (the camera would lose its zones)
        ('{"version": 1, "zone": {"tray": [0, 0, 10, 10]}}', "has no field 'zone' — did you mean 'zones'"),
        (
            '{"version": 1, "colours": {"red": {"lab": [40, 50, 30], "spread": [5, 5, 5], '
            '"darkpips": false}}}',
            "colour red has no field 'darkpips' — did you mean 'dark_pips'",
        ),
    ],
)
def test_bad_calibration_files_say_what_is_wrong(tmp_path, content, message):
    path = tmp_path / "c.json"
    path.write_text(content)
    with pytest.raises(CalibrationError, match=message):
        Calibration.load(path)


@pytest.fixture(scope="module")
def single_dice() -> list[tuple[int, str, np.ndarray]]:
    """Four top-down 960×540 frames, one die in the middle of each (pips, colour, frame)."""
    # look 6 drew the black die's body dark violet (BGR 42, 14, 27; chroma 18.6 against 0–13 for
    # 18 other looks), on the reader's black/violet line: look 16 is a plainly black die
    chosen = [(1, "red", 1), (3, "white", 3), (5, "blue", 5), (6, "black", 16)]
    return [(pips, colour, close_die(pips, colour, look)) for pips, colour, look in chosen]


@pytest.mark.parametrize("zoom", [1.0, 1.7, 2.5, 3.3])
def test_a_die_close_to_the_camera_is_one_die(reader, single_dice, zoom):
    # a phone held over a single die: zoomed in, the die fills up to all of the frame's height
    for pips, colour, frame in single_dice:
        h, w = frame.shape[:2]
        cw, ch = round(w / zoom), round(h / zoom)
        part = frame[(h - ch) // 2 : (h + ch) // 2, (w - cw) // 2 : (w + cw) // 2]
        image = cv2.resize(part, (w, h), interpolation=cv2.INTER_CUBIC)
        dice = reader.read(image)
        assert [(d.pips, d.colour) for d in dice] == [(pips, colour)], f"zoom {zoom}: {colour} {pips}"
        assert abs(dice[0].centre[0] - w / 2) < 40 * zoom and abs(dice[0].centre[1] - h / 2) < 40 * zoom


def test_a_phone_sized_photo_reads_like_its_small_copy(reader):
    wanted = [("red", 1), ("green", 2), ("blue", 3), ("white", 5), ("yellow", 6)]
    small = rendered(wanted, seed=5)
    large = cv2.resize(small, (small.shape[1] * 3, small.shape[0] * 3), interpolation=cv2.INTER_CUBIC)
    read_small, read_large = reader.read(small), reader.read(large)
    assert Counter((d.colour, d.pips) for d in read_large) == Counter(wanted)
    for a, b in zip(read_small, read_large, strict=True):
        assert (a.pips, a.colour) == (b.pips, b.colour)
        assert all(abs(3 * u - v) <= 12 for u, v in zip(a.box, b.box, strict=True)), (a.box, b.box)


# Picture files cut short, or of a kind OpenCV cannot read: the player is told which.


@pytest.fixture(scope="module")
def seven_dice_jpeg() -> bytes:
    """A photo of seven dice in two rows (five above, two below), as a JPEG file's bytes."""
    colours = ("red", "blue", "green", "white", "black", "yellow", "violet")
    return cv2.imencode(".jpg", rendered([(c, 1 + i % 6) for i, c in enumerate(colours)]))[1].tobytes()


def with_thumbnail(jpeg: bytes, thumbnail: bytes) -> bytes:
    """The JPEG with an APP1 segment holding a small JPEG preview, as cameras write one into EXIF."""
    payload = b"Exif\x00\x00" + thumbnail
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def test_a_whole_jpeg_is_not_cut_short_even_with_bytes_after_its_end(seven_dice_jpeg):
    assert not jpeg_cut_short(seven_dice_jpeg)
    assert not jpeg_cut_short(seven_dice_jpeg + b"\x00" * 64 + b"SEFT trailer a phone appends")


@pytest.mark.parametrize("share", [0.05, 0.3, 0.6, 0.9, 0.99])
def test_a_jpeg_cut_anywhere_is_cut_short(seven_dice_jpeg, share):
    assert jpeg_cut_short(seven_dice_jpeg[: int(len(seven_dice_jpeg) * share)])


def test_the_end_of_a_preview_inside_the_header_is_not_the_end_of_the_picture(seven_dice_jpeg):
    small = cv2.resize(cv2.imdecode(np.frombuffer(seven_dice_jpeg, np.uint8), cv2.IMREAD_COLOR), (96, 54))
    photo = with_thumbnail(seven_dice_jpeg, cv2.imencode(".jpg", small)[1].tobytes())
    assert not jpeg_cut_short(photo)
    # cut inside the photo itself: the preview's end marker, in the header, is no end of it
    assert jpeg_cut_short(photo[: len(photo) - len(seven_dice_jpeg) // 2])


def test_kinds_by_their_first_bytes():
    assert kind_of(b"\xff\xd8\xff\xe0") == "JPEG"
    assert kind_of(b"\x89PNG\r\n\x1a\n....") == "PNG"
    assert kind_of(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "WebP"
    assert kind_of(b"\x00\x00\x00\x18ftypheic") == "HEIC"
    assert kind_of(b"\x00\x00\x00\x1cftypisom\x00\x00\x02\x00") == "video"
    assert kind_of(b"\x00\x00\x00\x14ftypqt  ") == "video"
    assert kind_of(b"\x00\x00\x00\x1cftypavif") == "AVIF"
    assert kind_of(b"%PDF-1.7") is None


def test_a_video_handed_over_as_a_picture_points_to_companion_watch(capsys):
    video = Path(__file__).parents[1] / "samples" / "classic-two-players" / "recording.mp4"
    assert main(["read", str(video), "--json"]) != 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["error"] == (
        f"{video} is a video, not a picture: companion watch --source {video} reads the rolls in it"
    )


def test_a_jpeg_cut_short_is_read_as_far_as_it_goes_with_a_warning(tmp_path, capsys, seven_dice_jpeg):
    whole, cut = tmp_path / "whole.jpg", tmp_path / "cut.jpg"
    whole.write_bytes(seven_dice_jpeg)
    cut.write_bytes(seven_dice_jpeg[: int(len(seven_dice_jpeg) * 0.5)])
    assert main(["read", str(whole), str(cut), "--json"]) == 0
    read_whole, read_cut = json.loads(capsys.readouterr().out)
    assert "warning" not in read_whole and len(read_whole["dice"]) == 7
    assert "cut short" in read_cut["warning"]
    assert 0 < len(read_cut["dice"]) < 7  # the top row is there, the bottom row is lost


def test_a_png_cut_short_and_an_empty_file_say_so(tmp_path, capsys):
    png = cv2.imencode(".png", rendered([("red", 4)]))[1].tobytes()
    cut, empty = tmp_path / "cut.png", tmp_path / "empty.jpg"
    cut.write_bytes(png[: len(png) // 2])
    empty.write_bytes(b"")
    assert main(["read", str(cut), str(empty), "--json"]) != 0
    read_cut, read_empty = json.loads(capsys.readouterr().out)
    assert "PNG file" in read_cut["error"] and "cut short" in read_cut["error"]
    assert "empty" in read_empty["error"]


def test_calibration_refuses_a_photo_cut_short(tmp_path, capsys, seven_dice_jpeg):
    cut = tmp_path / "red.jpg"
    cut.write_bytes(seven_dice_jpeg[: int(len(seven_dice_jpeg) * 0.7)])
    assert main(["calibrate", "--photo", f"red={cut}", "--out", str(tmp_path / "table.json")]) != 0
    assert "copy the photo again" in capsys.readouterr().err
    assert not (tmp_path / "table.json").exists()


def test_a_picture_without_colour_names_no_colours_but_reads_the_pips(tmp_path, capsys, reader):
    table = rendered([("red", 4), ("white", 2), ("black", 6)])
    grey = cv2.cvtColor(cv2.cvtColor(table, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert sorted(d.colour for d in reader.read(table)) == ["black", "red", "white"]
    assert [(d.pips, d.colour) for d in sorted(reader.read(grey), key=lambda d: d.pips)] == [
        (2, "other"),
        (4, "other"),
        (6, "other"),
    ]
    photo, coloured = tmp_path / "night.jpg", tmp_path / "day.jpg"
    cv2.imwrite(str(photo), cv2.cvtColor(table, cv2.COLOR_BGR2GRAY))  # saved as a one-channel JPEG
    cv2.imwrite(str(coloured), table)
    assert main(["read", str(photo), str(coloured), "--json"]) == 0
    night, day = json.loads(capsys.readouterr().out)
    assert "no colour" in night["warning"] and "warning" not in day


def test_a_folder_of_photos_is_read_picture_by_picture(tmp_path, capsys):
    photos = tmp_path / "from the phone"
    photos.mkdir()
    cv2.imwrite(str(photos / "b.PNG"), rendered([("green", 3)]))
    cv2.imwrite(str(photos / "a.png"), rendered([("red", 5)], seed=2))
    (photos / "notes.txt").write_text("round 2")
    (photos / ".thumbnail.png").write_bytes(b"")
    (photos / "IMG_0001.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic" + bytes(16))  # damaged
    (photos / "older").mkdir()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["read", str(photos), str(empty), "--json"]) != 0
    out = json.loads(capsys.readouterr().out)
    assert [Path(r["image"]).name for r in out] == ["IMG_0001.HEIC", "a.png", "b.PNG", "empty"]
    assert "cut short or damaged" in out[0]["error"]
    assert [(d["pips"], d["colour"]) for d in out[1]["dice"]] == [(5, "red")]
    assert [(d["pips"], d["colour"]) for d in out[2]["dice"]] == [(3, "green")]
    assert "no pictures in it" in out[3]["error"] and "subfolders" not in out[3]["error"]
    (empty / "frames").mkdir()
    assert main(["read", str(empty), "--json"]) != 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert "its subfolders are not read: name them (frames)" in entry["error"]


def test_read_annotate_draws_each_picture_beside_never_over_it(tmp_path, capsys):
    photos, elsewhere = tmp_path / "photos", tmp_path / "elsewhere"
    photos.mkdir()
    elsewhere.mkdir()
    cv2.imwrite(str(photos / "a.png"), rendered([("red", 5), ("blue", 2)]))
    earlier = cv2.imencode(".jpg", rendered([("green", 3)], seed=2))[1].tobytes()
    (photos / "a.read.jpg").write_bytes(earlier)  # a picture that has the name a.png's drawing would take
    cv2.imwrite(str(elsewhere / "a.png"), rendered([("yellow", 6)], seed=3))
    assert main(["read", str(photos), str(elsewhere / "a.png"), "--annotate", str(photos), "--json"]) == 0
    out = {Path(r["image"]).relative_to(tmp_path).as_posix(): r for r in json.loads(capsys.readouterr().out)}
    assert {name: Path(r["annotated"]).name for name, r in out.items()} == {
        "photos/a.png": "a-2.read.jpg",
        "photos/a.read.jpg": "a.read.read.jpg",
        "elsewhere/a.png": "a-3.read.jpg",
    }
    assert (photos / "a.read.jpg").read_bytes() == earlier
    drawn = cv2.imread(out["photos/a.png"]["annotated"])
    plain = cv2.imread(str(photos / "a.png"))
    assert drawn.shape == plain.shape
    for die in out["photos/a.png"]["dice"]:  # each die's box is drawn round it
        x, y, w, h = die["box"]
        edge = drawn[y + 4 : y + h - 4, x].astype(int) - plain[y + 4 : y + h - 4, x]
        inside = drawn[y + 4 : y + h - 4, x + w // 2].astype(int) - plain[y + 4 : y + h - 4, x + w // 2]
        assert edge[:, 1].mean() > 40 > abs(edge[:, 0]).mean()  # the box's green line
        assert abs(inside).mean() < 10  # the die itself is left as it was
    assert main(["read", str(photos / "a.png"), "--annotate", str(elsewhere)]) == 0
    assert f"drawn in {elsewhere / 'a.read.jpg'}" in capsys.readouterr().out


def test_read_annotate_boxes_in_red_the_dice_a_game_would_ask_about(tmp_path):
    from companion.commands.read import write_annotated
    from companion.vision import SeenDie

    image = np.full((120, 200, 3), 128, np.uint8)
    sure = SeenDie((20, 40, 40, 40), 3, "red", 0.8, found_score=0.9, pips_margin=0.9)
    hesitant = SeenDie((120, 40, 40, 40), 5, "red", 0.5, found_score=0.9, pips_margin=0.2)
    written = write_annotated(tmp_path / "roll.read.jpg", image, [sure, hesitant])
    drawn = cv2.imread(str(written)).astype(int)
    left_edges = {x: drawn[50:75, x].mean(axis=0) for x in (20, 120)}  # (B, G, R) down each box's left side
    assert left_edges[20][1] > 150 > left_edges[20][2], "the sure die's box is green"
    assert left_edges[120][2] > 150 > left_edges[120][1], "the hesitant die's box is red"


def test_the_readable_table_tallies_the_roll_by_colour(tmp_path, capsys):
    picture = tmp_path / "roll.png"
    cv2.imwrite(str(picture), rendered([("red", 5), ("blue", 4), ("red", 2)]))
    assert main(["read", str(picture)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{picture}: 3 dice in ")
    assert "  by colour: red 2 5 · blue 4" in lines


def test_the_readable_table_says_one_die(tmp_path, capsys):
    picture = tmp_path / "roll.png"
    cv2.imwrite(str(picture), rendered([("green", 6)]))
    assert main(["read", str(picture)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{picture}: 1 die in ")
    assert not any("by colour" in line for line in lines)


def test_read_annotate_names_the_file_for_one_picture(tmp_path, capsys):
    picture, out = tmp_path / "a.png", tmp_path / "drawn" / "roll.png"
    cv2.imwrite(str(picture), rendered([("red", 5), ("blue", 2)]))
    assert main(["read", str(picture), "--annotate", str(out), "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["annotated"] == str(out)
    assert cv2.imread(str(out)).shape == cv2.imread(str(picture)).shape
    assert main(["read", str(picture), str(picture), "--annotate", str(tmp_path / "b.png")]) != 0
    assert "names one picture, but 2 pictures are read: name a folder" in capsys.readouterr().err
    assert not (tmp_path / "b.png").exists()


def test_read_annotate_to_a_file_or_an_unwritable_place_says_so(tmp_path, capsys, monkeypatch):
    picture = tmp_path / "a.png"
    cv2.imwrite(str(picture), rendered([("red", 5)]))
    before = picture.read_bytes()
    assert main(["read", str(picture), "--annotate", str(picture)]) != 0
    assert "is the picture read: name another file" in capsys.readouterr().err
    assert picture.read_bytes() == before
    (tmp_path / "notes").write_text("a file")
    assert main(["read", str(picture), "--annotate", str(tmp_path / "notes")]) != 0
    assert "that is a file, not a folder" in capsys.readouterr().err
    monkeypatch.setattr(cv2, "imwrite", lambda *args: False)  # a full disk
    assert main(["read", str(picture), "--annotate", str(tmp_path / "out"), "--json"]) != 0
    captured = capsys.readouterr()
    (entry,) = json.loads(captured.out)
    assert [d["pips"] for d in entry["dice"]] == [5] and "could not be written" in entry["warning"]
    assert "1 annotated pictures could not be written" in captured.err


def test_calibration_given_a_folder_asks_for_one_picture(tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "red.png"), rendered([("red", 4)]))
    assert main(["calibrate", "--out", str(tmp_path / "c.json"), "--photo", f"red={photos}"]) != 0
    assert "name one picture in it" in capsys.readouterr().err


def test_each_die_carries_its_body_lightness_white_over_grey_over_black(reader):
    """The bridge tells a roll's grey dice from its white (or black) ones by which is darker:
    on one table the steps between them are wider than the gap it asks for."""
    from companion.camera_game.roll_colours import RANK_GAP

    dice = reader.read(rendered([("white", 2), ("grey", 5), ("black", 3)]))
    lightness = {d.pips: d.lightness for d in dice}
    assert sorted(lightness) == [2, 3, 5]
    assert lightness[2] - lightness[5] >= RANK_GAP and lightness[5] - lightness[3] >= RANK_GAP


def test_each_die_carries_its_tint_and_a_pale_pictures_green_dice_still_lean_to_green(reader):
    """The bridge tells a player's dice read pale from the neutral dice rolled with them by how
    far each leans to the player's colour: with the picture's saturation halved (a dim room) the
    green dice lean to green by more than the gap it asks for beyond the grey die."""
    from companion.camera_game.roll_colours import LEAN_GAP
    from companion.vision.colour import lean_to

    picture = rendered([("green", 2), ("green", 4), ("grey", 5), ("green", 6)], seed=3)
    for image in (picture, paled(picture, 0.5)):
        dice = reader.read(image)
        assert sorted(d.pips for d in dice) == [2, 4, 5, 6]
        lean = {d.pips: lean_to(d.tint, "green") for d in dice}
        assert min(lean[2], lean[4], lean[6]) - lean[5] >= LEAN_GAP, lean


def test_a_pale_picture_of_a_roll_with_a_neutral_die_is_named_by_the_hand_and_the_lean(reader):
    """Read from the picture to the game's names: at saturation x0.5 and x0.3 the reader names
    green dice grey, and the camera bridge names them green again and the neutral die grey."""
    from companion.camera_game.roll_colours import to_rules_dice

    picture = rendered([("green", 2), ("green", 4), ("grey", 5), ("green", 6)], seed=3)
    hand = {("green", False): 3, ("grey", False): 1}
    for saturation in (0.5, 0.3):
        dice = reader.read(paled(picture, saturation))
        assert "grey" in [d.colour for d in dice if d.pips != 5], "the reader names a pale green die grey"
        named = {d.pips: d.colour for d in to_rules_dice(tuple(dice), hand)}
        assert named == {2: "green", 4: "green", 5: "grey", 6: "green"}


@pytest.mark.parametrize("player", ["red", "blue"])
def test_a_roll_with_white_neutral_dice_in_a_picture_without_colour_is_named_by_lightness(reader, player):
    """A black-and-white camera, or a webcam in a room so dim that a tenth of the colour is left:
    the reader names no die (or names them grey, black and white), and the camera bridge names
    the player's dice by their being darker than the white neutral dice."""
    from companion.camera_game.roll_colours import to_rules_dice

    picture = rendered([(player, 2), (player, 4), ("white", 5), (player, 6), ("white", 1)], seed=3)
    hand = {(player, False): 3, ("white", False): 2}
    for image in (greyed(picture), paled(picture, 0.1)):
        dice = reader.read(image)
        assert player not in {d.colour for d in dice}, "the reader cannot tell the player's colour"
        named = {d.pips: d.colour for d in to_rules_dice(tuple(dice), hand)}
        assert named == {2: player, 4: player, 5: "white", 6: player, 1: "white"}


def test_each_die_carries_its_found_score_and_pips_margin(reader):
    """What the bridge asks a player about: the detector's score and how far the pip reader's
    answer led its next, each within 0–1, and their parts behind the die's score."""
    dice = reader.read(rendered([("red", 2), ("blue", 5), ("white", 6)], seed=4))
    assert len(dice) == 3
    for die in dice:
        assert die.found_score is not None and die.pips_margin is not None
        assert 0.0 <= die.pips_margin <= 1.0
        # the score is the found score times the pip confidence, which is at least the margin
        assert die.pips_margin * die.found_score - 1e-6 <= die.score <= die.found_score + 1e-6


def test_a_pip_reading_s_margin_is_its_lead_over_the_next_answer(reader, monkeypatch):
    rows = np.array([[0.05, 0.1, 0.15, 0.6, 0.05, 0.03, 0.02], [0.4, 0.35, 0.1, 0.05, 0.04, 0.03, 0.03]])
    monkeypatch.setattr(reader.pip_reader, "probabilities", lambda crops: rows)
    frame = rendered([("red", 3)])
    first, second = reader.pip_reader.read(frame, [(10, 10, 40, 40), (60, 60, 40, 40)])
    assert (first.pips, first.confidence, first.margin) == (3, 0.6, pytest.approx(0.45))
    assert (second.pips, second.margin) == (None, pytest.approx(0.05))

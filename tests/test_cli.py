"""The command line's exact input and output contracts."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

EXAMPLE = {
    "neutral": "white",
    "casinos": [
        {
            "casino": "4",
            "banknotes": [10000, 80000, 30000],
            "dice": [{"colour": "red", "pips": 4}, {"colour": "blue", "pips": 4, "big": True}],
        }
    ],
}


def run_score(tmp_path, capsys, document) -> tuple[int, str, str]:
    path = tmp_path / "round.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    code = main(["score", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_the_issue_example(tmp_path, capsys):
    code, out, err = run_score(tmp_path, capsys, EXAMPLE)
    assert code == 0 and err == ""
    # The Biggy counts two dice: blue has the most, red is second, nobody cancels.
    assert json.loads(out) == {
        "casinos": [
            {
                "casino": "4",
                "banknotes": [80000, 30000, 10000],
                "cancelled": [],
                "payouts": [{"colour": "blue", "banknote": 80000}, {"colour": "red", "banknote": 30000}],
                "unclaimed": [10000],
            }
        ],
        "totals": {"blue": 80000, "red": 30000},
    }


def test_score_with_ties_neutral_and_slot(tmp_path, capsys):
    document = {
        "neutral": "white",
        "casinos": [
            {
                "casino": "2",
                "banknotes": [20000, 60000],
                "dice": [
                    {"colour": "red", "pips": 2},
                    {"colour": "white", "pips": 2},
                    {"colour": "blue", "pips": 2},
                    {"colour": "blue", "pips": 2},
                ],
            },
            {
                "casino": "slot",
                "banknotes": [50000, 10000],
                "dice": [
                    {"colour": "white", "pips": 6},
                    {"colour": "green", "pips": 3},
                    {"colour": "green", "pips": 3},
                ],
            },
        ],
    }
    code, out, _ = run_score(tmp_path, capsys, document)
    result = json.loads(out)
    two, slot = result["casinos"]
    assert two["cancelled"] == ["red", "white"]
    assert two["payouts"] == [{"colour": "blue", "banknote": 60000}]
    assert two["unclaimed"] == [20000]
    assert slot["payouts"] == [{"colour": "green", "banknote": 50000}, {"colour": "white", "banknote": 10000}]
    assert result["totals"] == {"blue": 60000, "green": 50000}  # neutral excluded


@pytest.mark.parametrize(
    "document, message",
    [
        ("{not json", "not valid JSON"),
        (
            {"casinos": [{"casino": "4", "banknotes": [10000], "dice": [{"colour": "red", "pips": 7}]}]},
            "pips must be a whole number from 1 to 6, got 7",
        ),
        (
            {"casinos": [{"casino": "4", "banknotes": [10000], "dice": [{"colour": "red", "pips": 3}]}]},
            "a die showing 3 cannot be on casino 4",
        ),
        ({"casinos": [{"casino": "9", "banknotes": [10000], "dice": []}]}, "unknown casino '9'"),
        ({"casinos": [{"casino": "1", "banknotes": [-5], "dice": []}]}, "positive whole number, got -5"),
        ({"casinos": [{"casino": "1", "banknotes": [1000.5], "dice": []}]}, "positive whole number"),
        ({"casinos": [{"casino": "1", "banknotes": ["10000"], "dice": []}]}, "positive whole number"),
        ({"casinos": "nope"}, '"casinos" list'),
        # a mistyped field is refused, not passed over (a casino without its notes would pay nothing)
        (
            {"nuetral": "white", "casinos": [{"casino": "4", "banknotes": [10000], "dice": []}]},
            "the input has no field 'nuetral' — did you mean 'neutral'?",
        ),
        (
            {"casinos": [{"casino": "4", "banknote": [10000], "dice": [{"colour": "red", "pips": 4}]}]},
            "casino entry 1 has no field 'banknote' — did you mean 'banknotes'?",
        ),
        (
            {"casinos": [{"casino": "4", "banknotes": [10000], "dice": [{"colour": "red", "pip": 4}]}]},
            "casino 4, die 1 has no field 'pip' — did you mean 'pips'?",
        ),
    ],
)
def test_score_bad_input_is_one_line_on_stderr(tmp_path, capsys, document, message):
    code, out, err = run_score(tmp_path, capsys, document)
    assert code != 0 and out == ""
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_score_reads_stdin_through_the_installed_command():
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "score", "-"],
        input=json.dumps(EXAMPLE),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["totals"] == {"blue": 80000, "red": 30000}


def test_score_missing_file(capsys):
    assert main(["score", "/no/such/file.json"]) != 0
    assert "cannot read /no/such/file.json" in capsys.readouterr().err


def test_simulate_json_shape_and_determinism(capsys):
    args = ["simulate", "--edition", "classic", "--players", "5", "--seed", "7", "--games", "3", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["games"] == 3
    assert [r["seed"] for r in first["results"]] == [7, 8, 9]
    game = first["results"][0]
    assert len(game["rounds"]) == 4
    assert all(len(r["casinos"]) == 6 for r in game["rounds"])
    casino = game["rounds"][0]["casinos"][0]
    assert set(casino) == {"casino", "banknotes", "cancelled", "payouts", "unclaimed"}
    assert [set(s) for s in game["standings"]] == [{"colour", "money", "banknotes"}] * 5
    won = {s["colour"]: s["money"] for s in game["standings"]}
    paid: dict[str, int] = {}
    for round_ in game["rounds"]:
        for c in round_["casinos"]:
            for p in c["payouts"]:
                paid[p["colour"]] = paid.get(p["colour"], 0) + p["banknote"]
    assert {c: m for c, m in won.items() if m} == paid
    assert game["winners"][0] == game["standings"][0]["colour"]


def test_simulate_biggy_slot_neutral(capsys):
    assert (
        main(
            [
                "simulate",
                "--edition",
                "biggy",
                "--players",
                "3",
                "--neutral",
                "--slot",
                "--seed",
                "1",
                "--json",
            ]
        )
        == 0
    )
    game = json.loads(capsys.readouterr().out)["results"][0]
    assert len(game["rounds"]) == 3
    assert [c["casino"] for c in game["rounds"][0]["casinos"]][-1] == "slot"
    assert all(len(c["banknotes"]) == 2 for c in game["rounds"][0]["casinos"])


def test_simulate_refuses_impossible_setups(capsys):
    assert main(["simulate", "--players", "5", "--neutral", "--json"]) != 0
    assert "2 to 4 players" in capsys.readouterr().err
    assert main(["simulate", "--slot"]) != 0
    assert "biggy" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, hint",
    [
        (["raed", "table.jpg"], "did you mean 'read'?"),
        (["simulate", "--edition", "clasic"], "did you mean 'classic'?"),
        (["read", "table.jpg", "--jsn"], "did you mean --json?"),
        (["simulate", "--sed", "3", "--jsonn"], "did you mean --seed for --sed, --json for --jsonn?"),
    ],
)
def test_a_typo_is_answered_with_the_nearest_word(capsys, argv, hint):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip().endswith(hint)


def test_nothing_close_gets_no_guess(capsys):
    with pytest.raises(SystemExit):
        main(["zzzz"])
    assert "did you mean" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        # no worker thread: the server would take requests and never answer them
        (
            ["serve", "--threads", "0"],
            "argument --threads: 0 is out of range: give a whole number at least 1",
        ),
        (
            ["serve", "--port", "70000"],
            "argument --port: 70000 is out of range: give a whole number from 1 to 65535",
        ),
        # a score above 1 kept only the low-score candidates the pip reader was surest of; below 0,
        # every speck was a die
        (
            ["read", "t.jpg", "--threshold", "2"],
            "argument --threshold: 2 is out of range: give a score above 0",
        ),
        (["read", "t.jpg", "--threshold", "-1"], "argument --threshold: -1 is out of range"),
        (["read", "t.jpg", "--threshold", "0,5"], "argument --threshold: '0,5' is not a number"),
        (
            ["calibrate", "--photo", "red=t.jpg", "--threads", "two"],
            "argument --threads: 'two' is not a whole number",
        ),
    ],
)
def test_numbers_out_of_their_range_are_refused_before_anything_starts(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_read_whole_frame_runs_full_scale_over_the_whole_picture(capsys, monkeypatch):
    """`--whole-frame` makes the reader's full scale (640 px) cover the whole picture (the default covers
    only the regions round what half scale found); the dice read are reported as usual."""
    from pathlib import Path

    from companion.commands import read

    built = []
    real = read.reader_for

    def spy(args):
        built.append(real(args))
        return built[-1]

    monkeypatch.setattr(read, "reader_for", spy)
    picture = next((Path(__file__).parent / "fixtures" / "real" / "images").glob("webcam*"))
    for flags, focus in (([], 0.6), (["--whole-frame"], None)):
        assert main(["read", str(picture), "--json", *flags]) == 0
        assert built[-1].detector.focus_most == focus
        (entry,) = json.loads(capsys.readouterr().out)
        assert entry["dice"] and all(1 <= d["pips"] <= 6 for d in entry["dice"])


@pytest.mark.parametrize("port", [5060, 6000, 6667, 10080])
def test_serve_warns_of_a_port_browsers_refuse(port):
    from companion.commands.serve import refused_port_warning

    warning = refused_port_warning(port)
    assert warning is not None and f"port {port}" in warning and "--port" in warning


@pytest.mark.parametrize("port", [5000, 8000, 8080, 5001])
def test_serve_says_nothing_of_a_port_browsers_open(port):
    from companion.commands.serve import refused_port_warning

    assert refused_port_warning(port) is None


def test_a_damaged_video_or_picture_is_said_in_one_line_without_the_decoders_own(tmp_path):
    """FFmpeg's "moov atom not found" and libjpeg's "Premature end of JPEG file" go to the
    process's standard error from C; the command says what is wrong in one line of its own."""
    fixtures = Path(__file__).parent / "fixtures"
    video = tmp_path / "cut.mp4"
    video.write_bytes((fixtures / "hand-over-dice" / "recording.mp4").read_bytes()[:5000])
    picture = tmp_path / "cut.jpg"
    picture.write_bytes(sorted((fixtures / "real").rglob("*.jpg"))[0].read_bytes()[:6000])
    watched = subprocess.run(
        [sys.executable, "-m", "companion", "watch", "--source", str(video)], capture_output=True, text=True
    )
    assert watched.returncode == 2
    assert watched.stderr.splitlines() == [f"companion watch: cannot open {video} as video or stream"]
    read = subprocess.run(
        [sys.executable, "-m", "companion", "read", str(picture)], capture_output=True, text=True
    )
    assert "JPEG" not in read.stderr and "cut short" in read.stdout + read.stderr

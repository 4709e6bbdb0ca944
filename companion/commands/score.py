"""`companion score FILE|-`: score one round's casinos from JSON."""

import argparse
import json
import sys
from typing import Any

from ..report import casino_result_json, totals_json
from ..rules import NUMBERED_CASINOS, SLOT, CasinoResult, Die, score_casino
from ..rules.banknotes import check_banknote
from ..rules.dice import die_of
from ..rules.events import DIE_FIELDS
from ..words import unknown_field
from . import CommandError

CASINO_NAMES = NUMBERED_CASINOS + (SLOT,)
#: the fields of the input and of each casino (a mistyped one is refused, not passed over)
ROUND_FIELDS, CASINO_FIELDS = ("neutral", "casinos"), ("casino", "banknotes", "dice")


def check_fields(data: dict[str, Any], fields: tuple[str, ...], what: str) -> None:
    """CommandError naming the first field of ``data`` that ``what`` does not take."""
    if (problem := unknown_field(data, fields, what)) is not None:
        raise CommandError(problem)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("score", help="score one round's casinos from a JSON file")
    parser.add_argument("file", help="JSON file with the casinos, or - for standard input")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    text = _read_text(args.file)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise CommandError(f"{args.file} is not valid JSON ({err.msg} at line {err.lineno})") from None
    neutral, casinos = parse_round(data)
    results = [score_casino(name, notes, dice) for name, notes, dice in casinos]
    json.dump(score_json(results, neutral), sys.stdout)
    sys.stdout.write("\n")
    return 0


def score_json(results: list[CasinoResult], neutral: str | None) -> dict[str, Any]:
    return {
        "casinos": [casino_result_json(r) for r in results],
        "totals": totals_json(results, neutral),
    }


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as err:
        raise CommandError(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not a UTF-8 text file") from None


def parse_round(data: Any) -> tuple[str | None, list[tuple[str, list[int], list[Die]]]]:
    """Validate the input document; CommandError names the casino and value at fault."""
    if not isinstance(data, dict) or not isinstance(data.get("casinos"), list):
        raise CommandError('the input must be an object with a "casinos" list')
    check_fields(data, ROUND_FIELDS, "the input")
    neutral = data.get("neutral")
    if neutral is not None and (not isinstance(neutral, str) or not neutral.strip()):
        raise CommandError(f'"neutral" must be a colour name, got {neutral!r}')
    seen: set[str] = set()
    casinos = []
    for index, raw in enumerate(data["casinos"], start=1):
        name, notes, dice = _parse_casino(index, raw)
        if name in seen:
            raise CommandError(f"casino {name} is listed twice")
        seen.add(name)
        casinos.append((name, notes, dice))
    return neutral, casinos


def _parse_casino(index: int, raw: Any) -> tuple[str, list[int], list[Die]]:
    if not isinstance(raw, dict):
        raise CommandError(f"casino entry {index} must be an object")
    check_fields(raw, CASINO_FIELDS, f"casino entry {index}")
    name = _casino_name(raw.get("casino"))
    notes = raw.get("banknotes", [])
    if not isinstance(notes, list):
        raise CommandError(f"casino {name}: banknotes must be a list")
    try:
        notes = [check_banknote(n) for n in notes]
    except ValueError as err:
        raise CommandError(f"casino {name}: {err}") from None
    raw_dice = raw.get("dice", [])
    if not isinstance(raw_dice, list):
        raise CommandError(f"casino {name}: dice must be a list")
    dice = [_parse_die(name, number, d) for number, d in enumerate(raw_dice, start=1)]
    return name, notes, dice


def _casino_name(raw: Any) -> str:
    name = str(raw) if isinstance(raw, int) and not isinstance(raw, bool) else raw
    if name not in CASINO_NAMES:
        raise CommandError(f'unknown casino {raw!r}; casinos are "1" to "6" and "slot"')
    return name


def _parse_die(casino: str, number: int, raw: Any) -> Die:
    if not isinstance(raw, dict):
        raise CommandError(f"casino {casino}, die {number}: must be an object with colour and pips")
    check_fields(raw, DIE_FIELDS, f"casino {casino}, die {number}")
    try:
        die = die_of(raw.get("colour"), raw.get("pips"), raw.get("big", False))
    except ValueError as err:
        raise CommandError(f"casino {casino}, die {number}: {err}") from None
    if casino != SLOT and die.pips != int(casino):
        raise CommandError(
            f"casino {casino}, die {number}: a die showing {die.pips} cannot be on casino {casino}"
        )
    return die

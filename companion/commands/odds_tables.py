"""The advice and the review as text tables for people (``advise`` and ``review`` without ``--json``)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ..words import counted

#: the costliest moves a review lists
COSTLIEST = 5


def dollars(amount: float, sign: bool = False) -> str:
    text = f"${abs(round(amount)):,}"
    if amount < 0:
        return "−" + text
    return ("+" if sign and amount > 0 else "") + text


def error(amount: float) -> str:
    """A standard error to two figures, as the page shows it: $1,538 → $1,500."""
    if amount <= 0:
        return "$0"
    return dollars(float(f"{amount:.2g}"))


def percent(chance: float) -> str:
    return f"{chance * 100:.1f}%"


def choice_name(value: int, casino: str) -> str:
    return f"the {value}s on the slot" if casino == "slot" else f"the {value}s on casino {casino}"


def columns(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows under a header, each column as wide as its widest cell (text left, figures right)."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        cells = [
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    return [line(header)] + [line(row) for row in rows]


def advice_table(answer: dict, player_name: str) -> str:
    """Each choice, best first: its chance to win, the money by the round's end and the margin
    over the strongest rival, with their errors; choices about the same as the best marked."""
    rows = []
    for i, choice in enumerate(answer["choices"]):
        verdict = "best" if i == 0 else "about the same" if choice["about_the_same"] else ""
        rows.append(
            (
                choice_name(choice["value"], choice["casino"]),
                f"{percent(choice['chance'])} ± {percent(choice['chance_stderr'])}",
                f"{dollars(choice['money'])} ± {error(choice['stderr'])}",
                f"{dollars(choice['margin'], sign=True)} ± {error(choice['margin_stderr'])}",
                verdict,
            )
        )
    header = ("choice", "chance to win", "money by the round's end", "margin over the strongest rival", "")
    lines = [f"{player_name} to place. {len(rows)} choices, best first:", "", *columns(header, rows)]
    note = (
        f"{answer['rollouts']:,} plays of the rest of the round a choice, on the same dice for every "
        f"choice; the players then place by the {answer['policy']}. ± is one standard error."
    )
    lines += ["", *textwrap.wrap(note, 100)]
    return "\n".join(lines)


def review_table(answer: dict) -> str:
    """The chances to win after each round and the costliest moves of a review."""
    names = answer["players"]
    colours = list(names)
    ended = len(answer["rounds"])
    if not ended:
        return f"Review of game {answer['game']}: no round has ended yet; a review covers the ended rounds."
    lines = [
        f"Review of game {answer['game']}: {len(answer['moves'])} moves with a choice "
        f"in {counted(ended, 'ended round')}."
    ]
    if answer["rounds"]:
        lines += ["", "Chances to win after each round:"]
        rows = [
            (f"round {r['round']}", *(percent(r["chances"].get(c, 0.0)) for c in colours))
            for r in answer["rounds"]
        ]
        lines += columns(("", *(names[c] for c in colours)), rows)
    costly = sorted(
        (m for m in answer["moves"] if not m["about_the_same"] and (m["chance_given_up"] or m["given_up"])),
        key=lambda m: (-m["chance_given_up"], -m["given_up"]),
    )
    lines += ["", "The costliest moves:" if costly else "No move gave up anything beyond its error."]
    rows = []
    for move in costly[:COSTLIEST]:
        chosen, best = move["chosen"].split(":"), move["best"].split(":")
        rows.append(
            (
                f"round {move['round']}",
                names.get(move["player"], move["player"]),
                " ".join(str(v) for v in move["rolled"]),
                choice_name(int(chosen[0]), chosen[1]),
                choice_name(int(best[0]), best[1]),
                f"{percent(move['chance_given_up'])} to win",
                dollars(move["given_up"]),
            )
        )
    if rows:
        header = ("", "player", "rolled", "placed", "best", "gave up", "money")
        lines += columns(header, rows)
    same = sum(1 for m in answer["moves"] if m["chosen"] != m["best"] and m["about_the_same"])
    if same:
        lines += [
            "",
            f"{same} moves placed other than the best but about the same as it: they gave up nothing.",
        ]
    lines += ["", "--json gives every move with its figures."]
    return "\n".join(lines)

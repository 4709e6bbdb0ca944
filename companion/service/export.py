"""Exports of a game: JSON (everything) and CSV (one row per payout or leftover note)."""

import csv
import io
import json
from typing import Any

from ..report import casino_result_json, standings_json
from ..rules import event_to_dict
from ..storage import GameRecord
from .live_game import LiveGame
from .stored_log import Damage


def export_json(live: LiveGame) -> dict[str, Any]:
    state = live.state
    return {
        "id": live.record.id,
        "created": live.record.created,
        "seed": live.record.seed,
        "config": state.config.to_dict(),
        "rounds": [
            {
                "round": r.number,
                "casinos": [casino_result_json(c) for c in r.casinos],
                "to_deck": list(r.to_deck),
                "discarded": list(r.discarded),
            }
            for r in state.rounds
        ],
        "standings": standings_json(state),
        "winners": state.winners() if state.is_over else [],
        "finished": state.is_over,
        "events": [event_to_dict(e) for e in live.events],
    }


def export_stored(record: GameRecord, rows: list[tuple[int, str]], damage: Damage | None) -> dict[str, Any]:
    """A game whose events no longer replay, as stored: each event parsed where it is JSON,
    else its text, and where the replay stops (``damaged``)."""
    return {
        "id": record.id,
        "created": record.created,
        "seed": record.seed,
        "title": record.title,
        "damaged": damage.as_json() if damage else None,
        "events": [{"event": seq, **stored_event(text)} for seq, text in rows],
    }


def stored_event(text: str) -> dict[str, Any]:
    try:
        return {"payload": json.loads(text)}
    except ValueError:
        return {"text": text}


CSV_COLUMNS = ["section", "round", "casino", "colour", "banknote", "what"]


def export_csv(live: LiveGame) -> str:
    """Rounds, casinos, payouts and standings as rows a spreadsheet can read."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    names = {p.colour: p.name for p in live.state.config.players}
    for result in live.state.rounds:
        for casino in result.casinos:
            for payout in casino.payouts:
                writer.writerow(
                    [
                        "payout",
                        result.number,
                        casino.casino,
                        payout.colour,
                        payout.banknote,
                        names.get(payout.colour, "neutral"),
                    ]
                )
            for colour in casino.cancelled:
                writer.writerow(["cancelled", result.number, casino.casino, colour, "", "tie"])
            for note in casino.unclaimed:
                writer.writerow(
                    ["unclaimed", result.number, casino.casino, "", note, live.state.config.unclaimed]
                )
    for place, standing in enumerate(live.state.standings(), start=1):
        writer.writerow(
            [
                "standing",
                place,
                "",
                standing.colour,
                standing.money,
                f"{names[standing.colour]}, {standing.banknotes} banknotes",
            ]
        )
    return out.getvalue()

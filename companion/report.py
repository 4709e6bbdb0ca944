"""JSON shapes of results, shared by the command line, the web API and exports."""

from typing import TypedDict

from .rules import CasinoResult, GameState


class PayoutJson(TypedDict):
    colour: str
    banknote: int


class ScoredCasinoJson(TypedDict):
    casino: str
    banknotes: list[int]
    cancelled: list[str]
    payouts: list[PayoutJson]
    unclaimed: list[int]


class StandingJson(TypedDict):
    colour: str
    money: int
    banknotes: int


def casino_result_json(result: CasinoResult) -> ScoredCasinoJson:
    """A scored casino exactly as `companion score` prints it."""
    return {
        "casino": result.casino,
        "banknotes": list(result.banknotes),
        "cancelled": list(result.cancelled),
        "payouts": [{"colour": p.colour, "banknote": p.banknote} for p in result.payouts],
        "unclaimed": list(result.unclaimed),
    }


def totals_json(results: list[CasinoResult], neutral: str | None) -> dict[str, int]:
    """Money won per player colour over these casinos (neutral winnings left out)."""
    totals: dict[str, int] = {}
    for result in results:
        for payout in result.payouts:
            if payout.colour != neutral:
                totals[payout.colour] = totals.get(payout.colour, 0) + payout.banknote
    return totals


def standings_json(state: GameState) -> list[StandingJson]:
    return [{"colour": s.colour, "money": s.money, "banknotes": s.banknotes} for s in state.standings()]

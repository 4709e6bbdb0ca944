"""Many rollouts of the rest of a round at once: the ``Position`` in counts as numpy arrays, one
row per rollout, every row taking its turn in the same step (the greedy policy, ties broken at
random, scored with the rules' ranking: a Biggy counts two, the slot ranks by count, then pip
sum, then highest die, and equal keys cancel)."""

from __future__ import annotations

import numpy as np

from ..rules.editions import NUMBERED_CASINOS, SLOT
from .position import Position

SIXTH = np.full(6, 1 / 6)


def finish_many(
    position: Position, player: str, rollouts: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Play the rest of the round ``rollouts`` times from ``position``. Returns, for ``player``,
    the money each rollout gives them (``rollouts``,) and the note they take on each casino
    (``rollouts``, casinos), 0 for none, casinos in ``position.notes`` order."""
    names = list(position.notes)
    seats = len(position.colours)
    colours = list(position.colours) + ([position.neutral] if position.neutral else [])
    neutral_index = len(colours) - 1 if position.neutral else -1
    count = np.zeros((rollouts, len(names), len(colours)), np.int32)
    pips = np.zeros_like(count)
    high = np.zeros_like(count)
    for c, name in enumerate(names):
        for colour, (n, pip_sum, highest) in position.tallies[name].items():
            k = colours.index(colour)
            count[:, c, k], pips[:, c, k], high[:, c, k] = n, pip_sum, highest
    hands = np.tile(np.array(position.hands, np.int32), (rollouts, 1, 1))
    seat = np.full(rollouts, position.seat, np.int32)
    slot = names.index(SLOT) if SLOT in names else -1
    slot_taken = np.zeros((rollouts, 6), bool)
    for value in position.slot_values:
        slot_taken[:, value - 1] = True
    numbered = np.array([names.index(NUMBERED_CASINOS[v]) for v in range(6)])
    top = np.array([position.notes[name][0] if position.notes[name] else 0 for name in names], np.int64)
    rows = np.arange(rollouts)

    while (active := seat >= 0).any():
        r, s = rows[active], seat[active]
        held = hands[r, s]  # (n, 3): own, Biggy, neutral
        own, big, neutral = (rng.multinomial(held[:, kind], SIXTH) for kind in range(3))
        placing = own + 2 * big + neutral  # (n, 6) dice a value would place, a Biggy two
        mine_numbered = count[r[:, None], numbered[None, :], s[:, None]]
        scores = top[numbered][None, :] + 10_000 * placing - 5_000 * mine_numbered
        scores = np.where(placing > 0, scores, -(10**12)).astype(np.float64)
        if slot >= 0:
            mine_slot = count[r, slot, s][:, None]
            on_slot = top[slot] + 10_000 * placing - 5_000 * mine_slot
            open_slot = (placing > 0) & ~slot_taken[r]
            scores = np.concatenate([scores, np.where(open_slot, on_slot, -(10**12))], axis=1)
        choice = np.argmax(scores + rng.random(scores.shape), axis=1)  # scores differ by $5,000 steps
        value = choice % 6
        casino = np.where(choice >= 6, slot, numbered[value])
        take = np.arange(len(r))
        own_v, big_v, neutral_v = own[take, value], big[take, value], neutral[take, value]
        pip = value + 1
        player_dice = own_v + 2 * big_v
        add(count, pips, high, r, casino, s, player_dice, pip)
        if neutral_index >= 0:
            add(count, pips, high, r, casino, np.full_like(s, neutral_index), neutral_v, pip)
        hands[r, s, 0] -= own_v
        hands[r, s, 1] -= big_v
        hands[r, s, 2] -= neutral_v
        if slot >= 0:
            on = choice >= 6
            slot_taken[r[on], value[on]] = True
        seat[active] = next_seat(hands[r], s, seats)

    return payouts(count, pips, high, names, position.notes, colours.index(player), slot)


def add(count, pips, high, r, casino, colour, dice, pip) -> None:
    """``dice`` more (a Biggy counted two) showing ``pip`` for ``colour`` on ``casino`` in rows ``r``."""
    some = dice > 0
    r, casino, colour, dice, pip = r[some], casino[some], colour[some], dice[some], pip[some]
    count[r, casino, colour] += dice
    pips[r, casino, colour] += dice * pip
    high[r, casino, colour] = np.maximum(high[r, casino, colour], pip)


def next_seat(hands: np.ndarray, seat: np.ndarray, seats: int) -> np.ndarray:
    """The next seat clockwise whose player holds dice, or -1 when nobody does (the round ends)."""
    following = np.full_like(seat, -1)
    for step in range(seats, 0, -1):  # the nearest last, so it wins
        candidate = (seat + step) % seats
        holds = hands[np.arange(len(seat)), candidate].sum(axis=1) > 0
        following = np.where(holds, candidate, following)
    return following


def payouts(count, pips, high, names, notes, player, slot) -> tuple[np.ndarray, np.ndarray]:
    """The note the ``player`` (a colour's index) takes on each casino in each rollout, and their sum."""
    taken = np.zeros(count.shape[:2], np.int64)
    for c, name in enumerate(names):
        if not notes[name]:
            continue
        key = count[:, c].astype(np.int64)
        if c == slot:
            key = key * 10_000 + pips[:, c] * 10 + high[:, c]
        present = count[:, c] > 0
        same = (key[:, :, None] == key[:, None, :]) & present[:, :, None] & present[:, None, :]
        tied = same.sum(axis=2) > 1
        winner = present & ~tied
        better = ((key[:, None, :] > key[:, :, None]) & winner[:, None, :]).sum(axis=2)  # winners above
        rank = better[:, player]
        paid = winner[:, player] & (rank < len(notes[name]))
        taken[:, c] = np.where(paid, np.array(notes[name] + (0,))[np.minimum(rank, len(notes[name]))], 0)
    return taken.sum(axis=1), taken

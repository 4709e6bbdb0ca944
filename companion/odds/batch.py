"""Many rollouts of the rest of a round at once: ``Position``s in counts as numpy arrays, one row
per rollout, every row taking its turn in the same step, scored with the rules' ranking (a Biggy
counts two, the slot ranks by count, then pip sum, then highest die, and equal keys cancel).

Two policies play the rollouts:

- ``greedy``: the casino's top note, plus $10,000 a die placed, less $5,000 a die the player has
  there already (``rules.policy`` in arrays);
- ``margin``: the placement that leaves the player's money minus their strongest rival's highest,
  were the round scored now (money from earlier rounds counted), ties broken by the greedy score.

Rollouts draw their dice in advance (``CommonDice``): the k-th turn of a seat in rollout i shows
the same faces whatever was placed before, so choices played out on the same dice differ only by
what the choice changes (common random numbers)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..rules.editions import NUMBERED_CASINOS, SLOT
from .position import Position, Roll

#: the rollouts' policies, as the page and the JSON name them
POLICIES = {
    "greedy": (
        "greedy: each player places where the casino's top note plus $10,000 a die placed, "
        "less $5,000 a die they have there already, is highest"
    ),
    "margin": (
        "one-step margin: each player places where their money minus their strongest rival's "
        "would be highest were the round scored now (ties: the greedy choice)"
    ),
}
#: a score no legal placement reaches
NO_MOVE = -1e15
#: the kinds of dice a hand holds: own, Biggy, neutral
KINDS = 3
FACES = np.arange(6)


@dataclass(frozen=True)
class CommonDice:
    """The dice every seat rolls on each of its turns in each rollout, per kind of die, and the
    random numbers that break ties: shared by every choice played out from the same roll. A hand
    of h dice shows the first h of the turn's faces: ``shown[kind][rollout, seat, turn, h]``
    counts them by value."""

    shown: tuple[np.ndarray, np.ndarray, np.ndarray]  # per kind: (rollouts, seats, turns, dice + 1, 6)
    noise: np.ndarray  # (rollouts, seats, turns, 12)

    @classmethod
    def draw(cls, rng: np.random.Generator, rollouts: int, positions: Sequence[Position]) -> CommonDice:
        """Dice for ``rollouts`` rows, enough for every turn any of ``positions`` can still take."""
        seats = len(positions[0].colours)
        most = [max(hand[kind] for p in positions for hand in p.hands) for kind in range(KINDS)]
        turns = max(1, max(sum(hand) for p in positions for hand in p.hands))
        shown = []
        for n in most:
            faces = rng.integers(0, 6, size=(rollouts, seats, turns, n), dtype=np.int8)
            counts = np.zeros((rollouts, seats, turns, n + 1, 6), np.int8)
            np.cumsum(faces[..., None] == FACES, axis=3, out=counts[:, :, :, 1:])
            shown.append(counts)
        return cls(tuple(shown), rng.random((rollouts, seats, turns, 12)))  # type: ignore[arg-type]

    @property
    def rollouts(self) -> int:
        return self.noise.shape[0]


@dataclass(frozen=True)
class Scored:
    """Casinos scored for a step's open placements: ``money[pair[row, target]]`` is what each
    colour takes on the target's casino with the row's dice placed there."""

    pair: np.ndarray  # (n, targets)
    money: np.ndarray  # (placements, colours)


@dataclass(frozen=True)
class RoundEnds:
    """Each rollout's round as it ended. ``paid``: (rows, casinos, colours) the note each colour
    took on each casino, 0 for none; casinos in ``position.notes`` order, colours the seats' then
    the neutral colour (if any). Row ``p * rollouts + i`` is rollout i of position p."""

    paid: np.ndarray
    colours: list[str]
    rollouts: int

    def money(self, colour: str) -> np.ndarray:
        """What ``colour`` took this round in each row."""
        return self.paid[:, :, self.colours.index(colour)].sum(axis=1)

    def notes_taken(self) -> np.ndarray:
        """(rows, colours): how many notes each colour took this round."""
        return (self.paid > 0).sum(axis=1)

    def of(self, index: int) -> slice:
        """The rows of the ``index``-th position."""
        return slice(index * self.rollouts, (index + 1) * self.rollouts)


def ranking_key(
    count: np.ndarray, pips: np.ndarray | None = None, high: np.ndarray | None = None
) -> np.ndarray:
    """``scoring.rank``'s order as one number per colour: the dice count, then (pass them on the
    slot only) the pip sum and the highest die. A pip sum stays far below 999 (all of a colour's
    dice showing six: under 100), so the count always weighs more."""
    key = count * 10_000
    if pips is not None and high is not None:
        key += pips * 10 + high
    return key


class Rollouts:
    """The rows' rounds in arrays, stepped turn by turn."""

    def __init__(
        self,
        positions: Sequence[Position],
        rollouts: int,
        standings: Sequence[Mapping[str, int]] | None = None,
    ) -> None:
        first = positions[0]
        self.names = list(first.notes)
        self.seats = len(first.colours)
        self.colours = list(first.colours) + ([first.neutral] if first.neutral else [])
        self.neutral = len(self.colours) - 1 if first.neutral else -1
        casinos, colours = len(self.names), len(self.colours)
        most_notes = max(len(notes) for p in positions for notes in p.notes.values())
        per = len(positions)
        count = np.zeros((per, casinos, colours), np.int32)
        pips, high = np.zeros_like(count), np.zeros_like(count)
        notes = np.zeros((per, casinos, most_notes + 1), np.int32)  # padded with 0: no note
        slot_taken = np.zeros((per, 6), bool)
        standing = np.zeros((per, colours), np.int32)  # dollars: a game's stay far below 2**31
        for p, position in enumerate(positions):
            for c, name in enumerate(self.names):
                notes[p, c, : len(position.notes[name])] = position.notes[name]
                for colour, (n, pip_sum, highest) in position.tallies[name].items():
                    k = self.colours.index(colour)
                    count[p, c, k], pips[p, c, k], high[p, c, k] = n, pip_sum, highest
            for value in position.slot_values:
                slot_taken[p, value - 1] = True
            if standings is not None:
                for colour, money in standings[p].items():
                    standing[p, self.colours.index(colour)] = money

        def rows(array: np.ndarray) -> np.ndarray:
            return np.repeat(array, rollouts, axis=0)

        self.count, self.pips, self.high = rows(count), rows(pips), rows(high)
        self.notes, self.slot_taken, self.standing = rows(notes), rows(slot_taken), rows(standing)
        self.hands = rows(np.array([p.hands for p in positions], np.int32))
        self.seat = rows(np.array([p.seat for p in positions], np.int32))
        self.turn = np.zeros((len(self.seat), self.seats), np.int32)
        self.slot = self.names.index(SLOT) if SLOT in self.names else -1
        numbered = [self.names.index(NUMBERED_CASINOS[v]) for v in range(6)]
        # a target: a value on its numbered casino (0-5), then a value on the slot (6-11)
        self.target_casino = np.array(numbered + ([self.slot] * 6 if self.slot >= 0 else []))
        self.target_is_slot = self.target_casino == self.slot
        rival = np.ones((self.seats, colours), bool)
        rival[np.arange(self.seats), np.arange(self.seats)] = False
        if self.neutral >= 0:
            rival[:, self.neutral] = False
        self.rival = rival  # per seat: the colours whose money counts against theirs
        self.paid = self.casino_money(self.count_key(), self.count > 0, self.notes)
        self.totals = self.standing + self.paid.sum(axis=1)  # (rows, colours): money were it scored now

    # ----------------------------------------------------------------- scoring
    def slot_key(self) -> np.ndarray:
        """(casinos, 1): 1 on the slot, whose key adds pips and highest die, else 0."""
        return (np.arange(len(self.names)) == self.slot)[:, None].astype(np.int32)

    def count_key(self) -> np.ndarray:
        """Every casino's ranking key per colour: count, and on the slot also pip sum and highest."""
        on_slot = self.slot_key()
        return ranking_key(self.count, on_slot * self.pips, on_slot * self.high)

    @staticmethod
    def casino_money(key: np.ndarray, present: np.ndarray, notes: np.ndarray) -> np.ndarray:
        """(..., colours) the note each colour takes on a casino whose ranking keys are ``key``
        (..., colours) and notes ``notes`` (..., notes + 1, highest first, 0-padded): equal keys
        cancel, the rest take the notes in order of key."""
        colours = key.shape[-1]
        same = np.zeros(key.shape, np.int8)  # present colours with each colour's key, itself included
        for j in range(colours):  # a loop over a few colours beats (…, colours, colours) arrays
            same += (key == key[..., j : j + 1]) & present[..., j : j + 1]
        winner = present & (same == 1)
        better = np.zeros(key.shape, np.int8)  # winners ranked above each colour
        for j in range(colours):
            better += (key[..., j : j + 1] > key) & winner[..., j : j + 1]
        rank = np.minimum(better, notes.shape[-1] - 1).astype(np.intp)
        return np.take_along_axis(notes, rank, axis=-1) * winner

    # ----------------------------------------------------------------- deciding
    def scores(
        self, r: np.ndarray, s: np.ndarray, roll: np.ndarray, policy: str
    ) -> tuple[np.ndarray, Scored | None]:
        """(n, targets) how much the policy likes each placement of the rolls ``roll`` (n, kinds,
        6) of seats ``s`` in rows ``r``, ``NO_MOVE`` where a target is not open; and, for the
        margin policy, each open target's casino scored (``place`` keeps the chosen one's)."""
        own, big, neutral = roll[:, 0], roll[:, 1], roll[:, 2]
        targets = self.target_casino
        wide = len(targets) // 6
        weight = np.tile(own + 2 * big, wide)  # (n, targets): the player's dice a target adds
        neutral_t = np.tile(neutral, wide)
        placing = weight + neutral_t
        mine = self.count[r[:, None], targets[None, :], s[:, None]]
        greedy = self.notes[r[:, None], targets[None, :], 0] + 10_000 * placing - 5_000 * mine
        open_ = placing > 0
        if wide > 1:
            open_[:, 6:] &= ~self.slot_taken[r]
        scored = None
        if policy == "greedy":
            score = greedy.astype(np.float64)
        elif policy == "margin":
            margin, scored = self.margins(r, s, weight, neutral_t, open_)
            score = margin + greedy * 1e-6  # margins move in $10,000 steps
        else:
            raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
        return np.where(open_, score, NO_MOVE), scored

    def margins(
        self, r: np.ndarray, s: np.ndarray, weight: np.ndarray, neutral: np.ndarray, open_: np.ndarray
    ) -> tuple[np.ndarray, Scored]:
        """(n, targets) the player's money minus their strongest rival's, were the round scored
        with each open target's dice placed (0 where a target is not open), and those casinos."""
        row, target = np.nonzero(open_)  # only the placements the roll allows
        rr, ss, casino = r[row], s[row], self.target_casino[target]
        pick = np.arange(len(row))
        count = self.count[rr, casino]  # (m, colours)
        added = np.zeros_like(count)
        added[pick, ss] = weight[row, target]
        if self.neutral >= 0:
            added[:, self.neutral] = neutral[row, target]
        count += added
        key = ranking_key(count)
        on_slot = np.flatnonzero(self.target_is_slot[target])  # the slot also ranks by pips, highest
        if len(on_slot):
            value = (target[on_slot] % 6 + 1)[:, None]
            at = (rr[on_slot], casino[on_slot])
            dice = added[on_slot]
            pips = self.pips[at] + dice * value
            high = np.where(dice > 0, np.maximum(self.high[at], value), self.high[at])
            key[on_slot] = ranking_key(count[on_slot], pips, high)
        money = self.casino_money(key, count > 0, self.notes[rr, casino])
        after = self.totals[rr] - self.paid[rr, casino] + money
        rivals = np.where(self.rival[ss], after, np.iinfo(np.int32).min).max(axis=1)
        margin = np.zeros(open_.shape)
        margin[row, target] = after[pick, ss] - rivals
        pair = np.zeros(open_.shape, np.intp)
        pair[row, target] = pick
        return margin, Scored(pair, money)

    # ----------------------------------------------------------------- playing
    def place(
        self, r: np.ndarray, s: np.ndarray, roll: np.ndarray, target: np.ndarray, scored: Scored | None = None
    ) -> None:
        """Rows ``r``: seat ``s`` places the dice of ``roll`` showing each target's value there
        (``scored``: the casinos as they score with it, if the policy scored them already)."""
        value = target % 6
        casino = self.target_casino[target]
        take = np.arange(len(r))
        own, big, neutral = (roll[take, kind, value] for kind in range(KINDS))
        pip = value + 1
        self.add(r, casino, s, own + 2 * big, pip)
        if self.neutral >= 0:
            self.add(r, casino, np.full_like(s, self.neutral), neutral, pip)
        self.hands[r, s, 0] -= own
        self.hands[r, s, 1] -= big
        self.hands[r, s, 2] -= neutral
        on_slot = target >= 6
        self.slot_taken[r[on_slot], value[on_slot]] = True
        self.turn[r, s] += 1
        if scored is not None:
            paid = scored.money[scored.pair[take, target]]
        else:
            on_slot = self.target_is_slot[target][:, None]
            key = ranking_key(
                self.count[r, casino], on_slot * self.pips[r, casino], on_slot * self.high[r, casino]
            )
            paid = self.casino_money(key, self.count[r, casino] > 0, self.notes[r, casino])
        self.totals[r] += paid - self.paid[r, casino]
        self.paid[r, casino] = paid
        self.seat[r] = self.next_seat(r, s)

    def add(self, r, casino, colour, dice, pip) -> None:
        """``dice`` more (a Biggy counted two) showing ``pip`` for ``colour`` on ``casino`` in rows ``r``."""
        some = dice > 0
        r, casino, colour, dice, pip = r[some], casino[some], colour[some], dice[some], pip[some]
        self.count[r, casino, colour] += dice
        self.pips[r, casino, colour] += dice * pip
        self.high[r, casino, colour] = np.maximum(self.high[r, casino, colour], pip)

    def next_seat(self, r: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """The next seat clockwise whose player holds dice, or -1 when nobody does (the round ends)."""
        following = np.full_like(seat, -1)
        holds = self.hands[r].sum(axis=2) > 0  # (n, seats)
        for step in range(self.seats, 0, -1):  # the nearest last, so it wins
            candidate = (seat + step) % self.seats
            following = np.where(holds[np.arange(len(r)), candidate], candidate, following)
        return following

    def rolled(self, r: np.ndarray, s: np.ndarray, dice: CommonDice) -> np.ndarray:
        """(n, kinds, 6) the dice each seat ``s`` holds in rows ``r``, counted by value as they
        fall on this turn of theirs."""
        i, j = self.dice_row[r], self.turn[r, s]
        held = self.hands[r, s]
        shown = [dice.shown[kind][i, s, j, held[:, kind]] for kind in range(KINDS)]
        return np.stack(shown, axis=1).astype(np.int32)

    def finish(self, dice: CommonDice, policy: str) -> np.ndarray:
        """Every row played to the round's end: each player rolls their dice and places by ``policy``."""
        for _ in self.turns(dice, policy):
            pass
        return self.paid

    def turns(self, dice: CommonDice, policy: str) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """``finish`` a turn at a time: after each turn, its rows, their rolls (n, kinds, 6) and
        the targets placed (a value on its casino 0-5, on the slot 6-11); equal scores go to
        ``dice.noise``."""
        self.dice_row = np.arange(len(self.seat)) % dice.rollouts
        while (active := self.seat >= 0).any():
            r = np.flatnonzero(active)
            s = self.seat[r]
            roll = self.rolled(r, s, dice)
            score, scored = self.scores(r, s, roll, policy)
            noise = dice.noise[self.dice_row[r], s, self.turn[r, s], : score.shape[1]]
            target = np.argmax(score + noise * 1e-7, axis=1)
            self.place(r, s, roll, target, scored)
            yield r, roll, target


def play_out(
    positions: Sequence[Position],
    dice: CommonDice,
    policy: str = "margin",
    standings: Sequence[Mapping[str, int]] | None = None,
    rollouts: int | None = None,
) -> RoundEnds:
    """Each of ``positions`` (the same table after different choices) played to the round's end
    ``dice.rollouts`` times on the same dice. ``standings``: each colour's money from earlier
    rounds, per position (the margin policy plays to lead the game, not the round).
    ``rollouts=1`` with dice drawn for every position instead plays each once on its own dice."""
    rollouts = rollouts or dice.rollouts
    table = Rollouts(positions, rollouts, standings)
    return RoundEnds(table.finish(dice, policy), table.colours, rollouts)


def choose(
    position: Position,
    roll: Roll,
    policy: str,
    rng: np.random.Generator,
    standing: Mapping[str, int] | None = None,
) -> tuple[int, str]:
    """Where the player whose turn it is places ``roll`` by ``policy`` (one decision, as the
    rollouts make it)."""
    table = Rollouts([position], 1, [standing] if standing else None)
    counts = np.zeros((1, KINDS, 6), np.int32)
    for value, kinds in roll.items():
        counts[0, :, value - 1] = kinds
    r, s = np.zeros(1, np.intp), np.array([position.seat])
    score, _ = table.scores(r, s, counts, policy)
    target = int(np.argmax(score + rng.random(score.shape) * 1e-7, axis=1)[0])
    return target % 6 + 1, table.names[table.target_casino[target]]

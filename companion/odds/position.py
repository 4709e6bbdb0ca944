"""A round in counts: what the advisor places a choice on, and the rest of a round played fast.

A ``Position`` keeps only what the rest of a round depends on: whose turn it is, the dice each
player still holds, and each casino's notes and, per colour, its dice count (a Biggy two), pip
sum and highest die. ``finish`` plays the rest of the round with the greedy policy of
``rules.policy``, the scalar engine's one copy of it (``simulate``); the tests replay its draws
and choices through the rules engine move by move and compare every casino."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..rules import Die, GameState, Phase
from ..rules.editions import NUMBERED_CASINOS, SLOT
from .dice_counts import NO_DICE, TABLES

#: a roll in counts: for each value shown, how many own dice, Biggy dice and neutral dice show it
Roll = dict[int, list[int]]
ROLLED_VALUES = range(1, 7)
#: the seats after one's own, nearest first, by number of seats
STEPS = {seats: range(1, seats + 1) for seats in range(1, 11)}


@dataclass
class Position:
    colours: tuple[str, ...]  # the seats, clockwise
    seat: int  # whose turn
    hands: list[list[int]]  # per seat: own dice, Biggy dice, neutral dice
    neutral: str | None
    notes: dict[str, tuple[int, ...]]  # per casino, highest first
    tallies: dict[str, dict[str, list[int]]]  # per casino, per colour: [dice, pip sum, highest]
    slot_values: set[int] = field(default_factory=set)

    @classmethod
    def from_state(cls, state: GameState) -> Position:
        """The round in play in ``state`` (its leftover neutral dice placed)."""
        if state.phase in (Phase.OVER, Phase.NEUTRAL_ROLL):
            raise ValueError("the round has no turn to play: the game is over or its neutral dice wait")
        return cls.as_dealt(state)

    @classmethod
    def as_dealt(cls, state: GameState) -> Position:
        """The round of ``state`` as it lies, whatever its phase: the caller knows a turn can be
        played (``from_state`` checks; ``playout`` first rolls the leftover neutral dice)."""
        tallies: dict[str, dict[str, list[int]]] = {}
        for name, casino in state.casinos.items():
            tallies[name] = {}
            for die in casino.dice:
                add_die(tallies[name], die.colour, die.pips, die.big)
        return cls(
            colours=tuple(state.colours),
            seat=state.current_seat,
            hands=[[state.hands[c].own, state.hands[c].big, state.hands[c].neutral] for c in state.colours],
            neutral=state.neutral,
            notes={name: tuple(casino.banknotes) for name, casino in state.casinos.items()},
            tallies=tallies,
            slot_values=state.slot_values() if SLOT in state.casinos else set(),
        )

    def copy(self) -> Position:
        return Position(
            self.colours,
            self.seat,
            [hand[:] for hand in self.hands],
            self.neutral,
            self.notes,
            {name: {c: t[:] for c, t in tally.items()} for name, tally in self.tallies.items()},
            set(self.slot_values),
        )

    @property
    def player(self) -> str:
        return self.colours[self.seat]

    def roll_of(self, dice: Sequence[Die]) -> Roll:
        """``dice`` (the player whose turn it is rolled them) counted by value and kind."""
        roll: Roll = {}
        for colour, pips, big in dice:
            kind = 1 if big else 2 if colour == self.neutral else 0
            roll.setdefault(pips, [0, 0, 0])[kind] += 1
        return roll

    def targets(self, roll: Roll) -> list[tuple[int, str]]:
        """Where the roll may go: each value on its casino, and on the slot if it is not there yet."""
        values = sorted(roll)
        targets = [(v, NUMBERED_CASINOS[v - 1]) for v in values]
        if SLOT in self.notes:
            targets += [(v, SLOT) for v in values if v not in self.slot_values]
        return targets

    def place(self, roll: Roll, value: int, casino: str) -> None:
        """The dice showing ``value`` go on ``casino``; the turn passes to the next player with dice."""
        own, big, neutral = roll[value]
        hand, tally = self.hands[self.seat], self.tallies[casino]
        if own or big:
            add_dice(tally, self.player, value, own + 2 * big)
        if neutral:
            add_dice(tally, self.neutral or "", value, neutral)
        hand[0] -= own
        hand[1] -= big
        hand[2] -= neutral
        if casino == SLOT:
            self.slot_values.add(value)
        seats = len(self.colours)
        for step in range(1, seats + 1):
            seat = (self.seat + step) % seats
            if any(self.hands[seat]):
                self.seat = seat
                return
        self.seat = -1  # the round is over

    @property
    def over(self) -> bool:
        return self.seat < 0

    def finish(self, rng: random.Random) -> None:
        """Play the rest of the round: every player rolls and places with the greedy policy of
        ``rules.policy``: the casino's top note, plus $10,000 a die placed, less $5,000 a die the
        player has there already, ties to ``rng.choice`` in the rules' order (values rising on
        the numbered casinos, then on the slot).

        A turn draws one number for the player's own dice (even when none are left, a hand of no
        dice), then one for their Biggy dice and one for their neutral dice if they hold any
        (``dice_counts``: a hand's counts from one draw). One loop over plain lists, with no call
        per step: whole games are played here (``playout``)."""
        draw, choose = rng.random, rng.choice
        colours, hands, tallies, notes = self.colours, self.hands, self.tallies, self.notes
        seats, neutral = len(colours), self.neutral or ""
        slot = SLOT in notes
        # a target is a value (1-6: its numbered casino) or a value + 6 (the slot); index 0 unused
        names = [""] + list(NUMBERED_CASINOS) + [SLOT] * 6
        tops = [0] + [notes[name][0] if notes[name] else 0 for name in NUMBERED_CASINOS]
        if slot:
            slot_top = notes[SLOT][0] if notes[SLOT] else 0
            slot_values = self.slot_values
        on: list[dict[str, list[int]]] = [{}] + [tallies[name] for name in NUMBERED_CASINOS]
        held = [sum(hand) for hand in hands]  # dice each seat holds
        seat = self.seat
        while seat >= 0:
            hand, player = hands[seat], colours[seat]
            own_dice = TABLES[hand[0]]
            rolled = bisect_right(own_dice.cumulative, draw())
            values: Sequence[int]
            placing: Sequence[int]
            own, values = own_dice.counts[rolled], own_dice.shown[rolled]
            mixed = hand[1] or hand[2]
            if mixed:
                big = TABLES[hand[1]].counts[TABLES[hand[1]].pick(draw())] if hand[1] else NO_DICE
                neutral_dice = TABLES[hand[2]].counts[TABLES[hand[2]].pick(draw())] if hand[2] else NO_DICE
                placing = [o + 2 * b + n for o, b, n in zip(own, big, neutral_dice, strict=True)]
                values = [v for v in ROLLED_VALUES if placing[v]]
            else:
                placing = own
            best, best_score, tied = 0, -(10**9), None
            for value in values:
                there = on[value].get(player)
                score = tops[value] + 10_000 * placing[value] - (5_000 * there[0] if there else 0)
                if score > best_score:
                    best, best_score, tied = value, score, None
                elif score == best_score:
                    tied = (tied or [best]) + [value]
            if slot:
                there = tallies[SLOT].get(player)
                held_there = 5_000 * there[0] if there else 0
                for value in values:
                    if value not in slot_values:
                        score = slot_top + 10_000 * placing[value] - held_there
                        if score > best_score:
                            best, best_score, tied = value + 6, score, None
                        elif score == best_score:
                            tied = (tied or [best]) + [value + 6]
            if tied:
                best = choose(tied)
            value, name = (best - 6, SLOT) if best > 6 else (best, names[best])
            tally = tallies[name]
            if mixed:
                weight = own[value] + 2 * big[value]
                if neutral_dice[value]:
                    add_dice(tally, neutral, value, neutral_dice[value])
                hand[1] -= big[value]
                hand[2] -= neutral_dice[value]
                held[seat] -= own[value] + big[value] + neutral_dice[value]
            else:
                weight = own[value]
                held[seat] -= weight
            hand[0] -= own[value]
            if weight:
                entry = tally.get(player)
                if entry is None:
                    tally[player] = [weight, value * weight, value]
                else:
                    entry[0] += weight
                    entry[1] += value * weight
                    if value > entry[2]:
                        entry[2] = value
            if best > 6:
                slot_values.add(value)
            for step in STEPS[seats]:
                candidate = (seat + step) % seats
                if held[candidate]:
                    seat = candidate
                    break
            else:
                seat = -1
        self.seat = -1


def add_die(tally: dict[str, list[int]], colour: str, pips: int, big: bool) -> None:
    """One die more for ``colour`` on a casino: a Biggy counts two, and its pips twice."""
    add_dice(tally, colour, pips, 2 if big else 1)


def add_dice(tally: dict[str, list[int]], colour: str, pips: int, weight: int) -> None:
    """Dice showing ``pips`` for ``colour`` on a casino, ``weight`` of them (a Biggy counts two)."""
    entry = tally.get(colour)
    if entry is None:
        tally[colour] = [weight, pips * weight, pips]
        return
    entry[0] += weight
    entry[1] += pips * weight
    if pips > entry[2]:
        entry[2] = pips

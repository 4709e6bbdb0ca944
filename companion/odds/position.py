"""A round in counts, played out fast: what the rollouts of the advisor step through.

A ``Position`` keeps only what the rest of a round depends on: whose turn it is, the dice each
player still holds, and each casino's notes and, per colour, its dice count (a Biggy two), pip
sum and highest die. It plays turns with the same greedy policy as ``rules.policy`` and scores
the round with ``rules.scoring.rank``, so its results are the rules engine's (the tests replay
the same dice through both)."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..rules import GameState, Phase
from ..rules.editions import NUMBERED_CASINOS, SLOT
from ..rules.scoring import Tally, rank
from .dice_counts import NO_DICE, TABLES, table

#: a die as the table rolled it: (colour, pips, big)
RolledDie = tuple[str, int, bool]
#: a roll in counts: for each value shown, how many own dice, Biggy dice and neutral dice show it
Roll = dict[int, list[int]]
ROLLED_VALUES = range(1, 7)
#: the seats after one's own, nearest first, by number of seats
STEPS = {seats: range(1, seats + 1) for seats in range(1, 11)}
#: what chooses among equally good placements: ``random.Random.choice`` or a test's own
Choose = Callable[[Sequence[tuple[int, str]]], tuple[int, str]]


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

    @classmethod
    def from_json(cls, state: dict) -> Position:
        """The round in play in a state as ``GET /api/games/<id>`` gives it."""
        if state["phase"] in ("over", "neutral_roll"):
            raise ValueError("the round has no turn to play: the game is over or its neutral dice wait")
        colours = tuple(p["colour"] for p in sorted(state["players"], key=lambda p: p["seat"]))
        tallies: dict[str, dict[str, list[int]]] = {}
        slot_values: set[int] = set()
        for casino in state["casinos"]:
            tallies[casino["casino"]] = {}
            for group in casino["dice"]:
                for index, pips in enumerate(group["pips"]):  # a colour's Biggy dice come first
                    add_die(tallies[casino["casino"]], group["colour"], pips, index < group["big"])
                    if casino["casino"] == SLOT:
                        slot_values.add(pips)
        hands = [
            [state["hands"][c]["own"], state["hands"][c]["big"], state["hands"][c]["neutral"]]
            for c in colours
        ]
        return cls(
            colours=colours,
            seat=colours.index(state["current_player"]),
            hands=hands,
            neutral=state["neutral"],
            notes={c["casino"]: tuple(sorted(c["banknotes"], reverse=True)) for c in state["casinos"]},
            tallies=tallies,
            slot_values=slot_values,
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

    def roll(self, rng: random.Random) -> Roll:
        """Every die the player whose turn it is holds, rolled (one draw a kind of die, as
        ``finish`` rolls them)."""
        roll: Roll = {}
        for kind, count in enumerate(self.hands[self.seat]):
            if count:
                hand = table(count)
                for value, n in enumerate(hand.counts[hand.pick(rng.random())]):
                    if n:
                        roll.setdefault(value, [0, 0, 0])[kind] += n
        return roll

    def roll_of(self, dice: Sequence[RolledDie]) -> Roll:
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

    def greedy(self, roll: Roll, choose: Choose) -> tuple[int, str]:
        """``rules.policy.choose_placement`` in counts: the casino's top note, plus $10,000 a die
        placed, less $5,000 a die the player has there already; ties to ``choose``."""
        player, best, best_score = self.player, [], -(10**9)
        for value, name in self.targets(roll):
            own, big, neutral = roll[value]
            notes = self.notes[name]
            mine = self.tallies[name].get(player)
            score = (
                (notes[0] if notes else 0)
                + 10_000 * (own + 2 * big + neutral)
                - 5_000 * (mine[0] if mine else 0)
            )
            if score > best_score:
                best, best_score = [(value, name)], score
            elif score == best_score:
                best.append((value, name))
        return best[0] if len(best) == 1 else choose(best)

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
        """Play the rest of the round: every player rolls and places with the greedy policy.

        The same steps as ``roll``, ``greedy`` and ``place`` (drawing the same numbers) in one
        loop over plain lists: whole games are played here (``playout``), and the one loop
        runs about twice as fast as the three calls."""
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
        on = [{}] + [tallies[name] for name in NUMBERED_CASINOS]
        held = [sum(hand) for hand in hands]  # dice each seat holds
        seat = self.seat
        while seat >= 0:
            hand, player = hands[seat], colours[seat]
            own_dice = TABLES[hand[0]]
            rolled = bisect_right(own_dice.cumulative, draw())
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

    def payouts(self) -> list[tuple[str, str, int]]:
        """The round scored as it stands: (casino, colour, banknote) for each note taken."""
        paid = []
        for name, tally in self.tallies.items():
            tallies = [Tally(colour, n, pips, high) for colour, (n, pips, high) in tally.items()]
            winners = rank(name, tallies)[2]
            paid += [(name, colour, note) for colour, note in zip(winners, self.notes[name], strict=False)]
        return paid


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

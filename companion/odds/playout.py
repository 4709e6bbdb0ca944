"""Whole games in counts: the rounds of a ``Position`` one after another, the deck dealt and
refilled as the rules do it.

``companion simulate`` plays its games here; the win table is fitted from games dealt here.
A round is counts per casino and colour and a roll one draw per kind of die, not dice and
events, so a game plays about four times faster than through the rules engine. The tests hold
it to the rules engine: the same deal, dice and moves pay the same, and over many games both
give the same results within their sampling error."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple

from ..rules import GameConfig
from ..rules.banknotes import build_deck, deal_count, deal_to_minimum
from ..rules.editions import NUMBERED_CASINOS, SLOT
from ..rules.scoring import rank
from .position import Position, add_dice


class ScoredCasino(NamedTuple):
    """A casino at the end of a round, as ``rules.CasinoResult`` has it but without the dice."""

    casino: str
    banknotes: tuple[int, ...]
    cancelled: tuple[str, ...]
    payouts: tuple[tuple[str, int], ...]  # (colour, banknote), best placed first
    unclaimed: tuple[int, ...]


@dataclass
class Table:
    """A game between rounds: the deck as it lies, each player's money and number of notes, and
    (when kept) every round scored so far."""

    config: GameConfig
    deck: list[int]
    money: dict[str, int]
    banknotes: dict[str, int]
    rounds_played: int = 0
    rounds: list[tuple[ScoredCasino, ...]] | None = field(default=None)

    @classmethod
    def new(cls, config: GameConfig, rng: random.Random, keep_rounds: bool = False) -> Table:
        """A new game of a valid ``config`` (``config.validate()`` passed): the deck shuffled by
        ``rng`` exactly as ``rules.start_game`` shuffles it."""
        deck = build_deck(config.deck)
        rng.shuffle(deck)  # as ``rules.start_game`` does, with the config validated already
        return cls(
            config,
            deck,
            dict.fromkeys(config.colours, 0),
            dict.fromkeys(config.colours, 0),
            rounds=[] if keep_rounds else None,
        )

    @property
    def over(self) -> bool:
        return self.rounds_played >= self.config.round_count

    def standings(self) -> list[str]:
        """Colours from first to last, as ``GameState.standings`` orders them."""
        return sorted(self.config.colours, key=lambda c: (self.money[c], self.banknotes[c]), reverse=True)

    def winners(self) -> list[str]:
        """The leaders: several share a win when money and number of notes are equal."""
        table = self.standings()
        best = (self.money[table[0]], self.banknotes[table[0]])
        return [c for c in table if (self.money[c], self.banknotes[c]) == best]

    # ----------------------------------------------------------------- playing
    def play_to_end(self, rng: random.Random) -> None:
        """Play every round left."""
        while not self.over:
            position = self.start_round(rng)
            position.finish(rng)
            self.score(position)

    def start_round(self, rng: random.Random) -> Position:
        """Deal the next round's casinos and hand out the dice; the start player rolls any
        leftover neutral dice onto their casinos."""
        config, rules = self.config, self.config.rules
        colours = config.colours
        seats = len(colours)
        notes = {}
        for name in config.casinos:
            if rules.notes_per_casino is not None:
                dealt = deal_count(self.deck, rules.notes_per_casino)
            else:
                dealt = deal_to_minimum(self.deck, rules.casino_minimum or 0)
            notes[name] = tuple(sorted(dealt, reverse=True))
        neutral = config.neutral_dice_colour
        neutral_each = rules.neutral_per_player.get(seats, 0) if neutral else 0
        tallies: dict[str, dict[str, list[int]]] = {name: {} for name in notes}
        position = Position(
            colours=colours,
            seat=self.rounds_played % seats,
            hands=[[rules.dice_per_player, rules.big_dice_per_player, neutral_each] for _ in colours],
            neutral=neutral,
            notes=notes,
            tallies=tallies,
        )
        if neutral:
            leftover = rules.neutral_leftover.get(seats, 0)
            roll_leftover_neutral(position, leftover, rng)
        return position

    def score(self, position: Position) -> None:
        """End the round of ``position``: pay each casino (``settle``)."""
        self.settle(
            [score_counts(name, notes, position.tallies[name]) for name, notes in position.notes.items()]
        )

    def settle(self, scored: list[ScoredCasino]) -> None:
        """Pay each scored casino, send what nobody keeps under the deck or out of the game, as
        the config and the edition say."""
        config = self.config
        neutral = config.neutral_dice_colour
        neutral_to_deck = config.rules.neutral_winnings == "bottom"
        unclaimed_to_deck = config.unclaimed != "discard"
        to_deck: list[int] = []
        for casino in scored:
            for colour, note in casino.payouts:
                if colour == neutral:
                    if neutral_to_deck:
                        to_deck.append(note)
                else:
                    self.money[colour] += note
                    self.banknotes[colour] += 1
            if unclaimed_to_deck:
                to_deck.extend(casino.unclaimed)
        self.deck.extend(to_deck)
        self.rounds_played += 1
        if self.rounds is not None:
            self.rounds.append(tuple(scored))


def play_game(config: GameConfig, seed: int) -> Table:
    """One whole game of a valid ``config``, every round kept; the same seed gives the same game."""
    rng = random.Random(seed)
    game = Table.new(config, rng, keep_rounds=True)
    game.play_to_end(rng)
    return game


def roll_leftover_neutral(position: Position, count: int, rng: random.Random) -> None:
    """Roll ``count`` neutral dice (as ``roll_virtual`` does) and put each on its casino."""
    draw = rng.random
    for _ in range(count):
        pips = int(draw() * 6) + 1
        add_dice(position.tallies[NUMBERED_CASINOS[pips - 1]], position.neutral or "", pips, 1)


def score_counts(name: str, notes: tuple[int, ...], tally: dict[str, list[int]]) -> ScoredCasino:
    """One casino scored from its counts: the slot with the rules' own ranking (``scoring.rank``),
    a numbered casino by dice count alone, where a count two colours share cancels both. The
    scalar engine's one payout: ``scoring.rank`` on every casino made whole games 14 % slower
    (docs/decisions.md, "One engine per purpose"); a property test holds the two equal."""
    if name == SLOT:
        tallies = [(colour, n, pips, high) for colour, (n, pips, high) in tally.items()]
        _, cancelled, winners = rank(name, tallies)
    else:
        holder: dict[int, str | None] = {}  # per count: the one colour with it, None when shared
        for colour, entry in tally.items():
            count = entry[0]
            holder[count] = None if count in holder else colour
        winners = [only for n in sorted(holder, reverse=True) if (only := holder[n]) is not None]
        cancelled = [c for c, entry in tally.items() if holder[entry[0]] is None]
    payouts = tuple(zip(winners, notes, strict=False))
    return ScoredCasino(name, notes, tuple(sorted(cancelled)), payouts, notes[len(payouts) :])

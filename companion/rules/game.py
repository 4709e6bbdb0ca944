"""The state of a game: the fold of its events. ``apply`` is the one method that changes it.

Everything else is a question a player would ask: whose turn is it, which values can I
place, what is on each casino, who is winning.
"""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from .banknotes import deal_count, deal_to_minimum
from .config import GameConfig
from .dice import Die
from .editions import NUMBERED_CASINOS, SLOT
from .errors import IllegalMove
from .events import Event, GameStarted, Placed, Rolled
from .scoring import CasinoResult, score_casino


class Phase(StrEnum):
    NEUTRAL_ROLL = "neutral_roll"  # the start player rolls the leftover neutral dice (3 players)
    ROLL = "roll"
    PLACE = "place"
    OVER = "over"


@dataclass(slots=True)
class Hand:
    """The dice a player still holds this round."""

    own: int
    big: int
    neutral: int

    @property
    def count(self) -> int:
        return self.own + self.big + self.neutral


@dataclass(slots=True)
class Casino:
    """A casino during a round: its notes and the dice placed on it."""

    name: str
    banknotes: list[int]
    dice: list[Die] = field(default_factory=list)
    #: dice count per colour, Biggy counting two (kept up to date as dice arrive)
    weights: dict[str, int] = field(default_factory=dict)
    #: the highest note here, 0 when the deck ran dry (notes never change during a round)
    top: int = 0

    def __post_init__(self) -> None:
        self.banknotes.sort(reverse=True)
        self.top = self.banknotes[0] if self.banknotes else 0

    def add(self, dice: Iterable[Die]) -> None:
        for die in dice:
            self.dice.append(die)
            self.weights[die.colour] = self.weights.get(die.colour, 0) + (2 if die.big else 1)


@dataclass(frozen=True)
class RoundResult:
    """A finished round: every casino scored, and where the notes nobody kept went."""

    number: int
    casinos: tuple[CasinoResult, ...]
    to_deck: tuple[int, ...]
    discarded: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    colour: str
    money: int
    banknotes: int


class GameState:
    """A game in progress. Build it with ``replay(events)``; change it only with ``apply``."""

    def __init__(self, started: GameStarted) -> None:
        config = started.config
        config.validate()
        self.config: GameConfig = config
        self.colours: tuple[str, ...] = config.colours
        self.neutral: str | None = config.neutral_dice_colour
        self.deck: list[int] = list(started.deck)
        self.discard: list[int] = []
        self.winnings: dict[str, list[int]] = {c: [] for c in self.colours}
        self.rounds: list[RoundResult] = []
        self.round_number = 0
        self.start_seat = 0
        self.current_seat = 0
        self.phase = Phase.ROLL
        self.hands: dict[str, Hand] = {}
        self.casinos: dict[str, Casino] = {}
        self.last_roll: tuple[Die, ...] | None = None
        self._rolled_values: tuple[int, ...] = ()
        self.current_player: str | None = None
        self.leftover_neutral = 0
        self.events_applied = 1
        #: index of the first event of the current round (the events before belong to earlier ones)
        self.round_first_event = 1
        self._start_round(1)

    # ----------------------------------------------------------------- questions
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def rolled_values(self) -> tuple[int, ...]:
        """The values the current player may choose from (empty unless it is time to place)."""
        return self._rolled_values if self.phase is Phase.PLACE else ()

    def slot_values(self) -> set[int]:
        """Values already on the slot casino: none of them may go there again."""
        slot = self.casinos.get(SLOT)
        return {d.pips for d in slot.dice} if slot else set()

    def legal_placements(self) -> list[Placed]:
        player = self.current_player
        if player is None:
            return []
        values = self.rolled_values()
        moves = [Placed(player, v, NUMBERED_CASINOS[v - 1]) for v in values]
        if self.config.slot:
            taken = self.slot_values()
            moves += [Placed(player, v, SLOT) for v in values if v not in taken]
        return moves

    def expected_roll(self) -> dict[tuple[str, bool], int]:
        """How many dice of each (colour, big) the next roll must have."""
        if self.phase is Phase.NEUTRAL_ROLL:
            return {(self.neutral or "", False): self.leftover_neutral}
        player = self.current_player
        if player is None:
            return {}
        hand = self.hands[player]
        expected = {(player, False): hand.own, (player, True): hand.big}
        if self.neutral is not None:
            expected[(self.neutral, False)] = hand.neutral
        return {key: n for key, n in expected.items() if n}

    def roll_fits(self, dice: Iterable[Die]) -> bool:
        """Whether these dice are what the roller holds now (``expected_roll``): the question the
        rules ask of a roll besides whose turn it is; ``apply`` says why not."""
        return Counter((d.colour, d.big) for d in dice) == +Counter(self.expected_roll())

    def money(self, colour: str) -> int:
        return sum(self.winnings[colour])

    def standings(self) -> list[Standing]:
        """Players from first to last: money, then number of banknotes."""
        table = [Standing(c, self.money(c), len(self.winnings[c])) for c in self.colours]
        return sorted(table, key=lambda s: (s.money, s.banknotes), reverse=True)

    def winners(self) -> list[str]:
        """The leaders (several share a win when money and banknote count are equal)."""
        table = self.standings()
        best = (table[0].money, table[0].banknotes)
        return [s.colour for s in table if (s.money, s.banknotes) == best]

    # ----------------------------------------------------------------- the fold
    def apply(self, event: Event) -> None:
        """Apply one event, or raise IllegalMove and leave the state untouched."""
        round_before = self.round_number
        if isinstance(event, Rolled):
            self._apply_roll(event)
        elif isinstance(event, Placed):
            self._apply_placement(event)
        elif isinstance(event, GameStarted):
            raise IllegalMove("this game has started already; start a new game instead")
        else:
            raise IllegalMove(f"not a game event: {event!r}")
        self.events_applied += 1
        if self.round_number != round_before:
            self.round_first_event = self.events_applied

    def _check_turn(self, player: str) -> None:
        if player == self.current_player:  # the common case, checked first and cheaply
            return
        if self.phase is Phase.OVER:
            raise IllegalMove("the game is over; no more rolls or placements", "game_over")
        if player not in self.winnings:
            raise IllegalMove(f"no player plays {player!r}; the players are {', '.join(self.colours)}")
        if player != self.current_player:
            raise IllegalMove(
                f"it is {self.current_player}'s turn, not {player}'s",
                "not_your_turn",
                colour=self.current_player or "",
            )

    def _apply_roll(self, event: Rolled) -> None:
        self._check_turn(event.player)
        if self.phase is Phase.PLACE:
            raise IllegalMove(
                f"{event.player} has rolled already; choose a value to place",
                "rolled_already",
                colour=event.player,
            )
        self._check_roll_fits(event.dice)
        self.last_roll = tuple(event.dice)
        if self.phase is Phase.NEUTRAL_ROLL:
            self._place_leftover_neutral(self.last_roll)
        else:
            self._rolled_values = tuple(sorted({d.pips for d in self.last_roll}))
            self.phase = Phase.PLACE

    def _check_roll_fits(self, dice: tuple[Die, ...]) -> None:
        if self.phase is Phase.NEUTRAL_ROLL:
            expected = Hand(0, 0, self.leftover_neutral)
        else:
            expected = self.hands[self.current_player or ""]
        own_colour = None if self.phase is Phase.NEUTRAL_ROLL else self.current_player
        own = big = neutral = 0
        for die in dice:
            if die.colour == own_colour:
                if die.big:
                    big += 1
                else:
                    own += 1
            elif die.colour == self.neutral and not die.big:
                neutral += 1
            else:
                raise IllegalMove(
                    self._foreign_die_message(die), "foreign_die", colour=self.current_player or ""
                )
        if own != expected.own or big != expected.big or neutral != expected.neutral:
            if big and not expected.big:
                raise IllegalMove(
                    f"{self._roller()} has no {own_colour} Biggy die in hand",
                    "no_biggy",
                    colour=self.current_player or "",
                )
            seen = {
                (own_colour or "", False): own,
                (own_colour or "", True): big,
                (self.neutral or "", False): neutral,
            }
            raise IllegalMove(
                f"the roll has {_describe(seen)}, but {self._roller()} holds "
                f"{_describe(self.expected_roll())}",
                "roll_does_not_fit",
                colour=self.current_player or "",
                dice=len(dice),
                holds=sum(self.expected_roll().values()),
            )

    def _roller(self) -> str:
        if self.phase is Phase.NEUTRAL_ROLL:
            return f"the leftover neutral roll of {self.current_player}"
        return str(self.current_player)

    def _foreign_die_message(self, die: Die) -> str:
        player = self.current_player
        roller = self._roller()
        if die.colour in (player, self.neutral):
            kind = "Biggy die" if die.big else "dice"
            return f"{roller} has no {die.colour} {kind} in hand"
        if die.colour in self.winnings:
            return f"the {die.colour} dice belong to another player; this roll is {roller}'s"
        allowed = " or ".join(c for c in (player, self.neutral) if c)
        return f"{die.colour!r} is not a colour in this roll; dice here are {allowed}"

    def _place_leftover_neutral(self, dice: tuple[Die, ...]) -> None:
        for die in dice:
            self.casinos[NUMBERED_CASINOS[die.pips - 1]].add((die,))
        self.leftover_neutral = 0
        self.phase = Phase.ROLL

    def _apply_placement(self, event: Placed) -> None:
        self._check_turn(event.player)
        if self.phase is not Phase.PLACE:
            raise IllegalMove(f"{event.player} must roll before placing", "roll_first", colour=event.player)
        values = self._rolled_values
        if event.value not in values:
            shown = ", ".join(map(str, values))
            raise IllegalMove(
                f"{event.value!r} was not rolled; choose one of {shown}",
                "not_rolled",
                value=str(event.value),
                values=shown,
            )
        self._check_casino(event)
        casino, hand, neutral = self.casinos[event.casino], self.hands[event.player], self.neutral
        weights = casino.weights
        for die in self.last_roll or ():
            if die.pips != event.value:
                continue
            casino.dice.append(die)
            weights[die.colour] = weights.get(die.colour, 0) + (2 if die.big else 1)
            if die.colour == neutral:
                hand.neutral -= 1
            elif die.big:
                hand.big -= 1
            else:
                hand.own -= 1
        self.last_roll = None
        self._next_turn()

    def _check_casino(self, event: Placed) -> None:
        if event.casino == SLOT:
            if not self.config.slot:
                raise IllegalMove("this game has no slot casino", "no_slot")
            if event.value in self.slot_values():
                raise IllegalMove(
                    f"a {event.value} is on the slot already; place it on casino {event.value}",
                    "slot_taken",
                    value=event.value,
                )
        elif event.casino != str(event.value):
            where = f"casino {event.value}" + (" or the slot" if self.config.slot else "")
            raise IllegalMove(
                f"dice showing {event.value} go on {where}, not {event.casino!r}",
                "wrong_casino",
                value=event.value,
            )

    def _next_turn(self) -> None:
        colours, hands = self.colours, self.hands
        seats = len(colours)
        for step in range(1, seats + 1):
            seat = (self.current_seat + step) % seats
            hand = hands[colours[seat]]
            if hand.own or hand.big or hand.neutral:
                self._set_seat(seat)
                self.phase = Phase.ROLL
                return
        self._end_round()

    # ----------------------------------------------------------------- rounds
    def _start_round(self, number: int) -> None:
        config, rules = self.config, self.config.rules
        self.round_number = number
        self.start_seat = (number - 1) % len(self.colours)
        self._set_seat(self.start_seat)
        self.casinos = {name: Casino(name, self._deal()) for name in config.casinos}
        players = len(self.colours)
        neutral_each = rules.neutral_per_player.get(players, 0) if self.neutral else 0
        self.hands = {
            c: Hand(rules.dice_per_player, rules.big_dice_per_player, neutral_each) for c in self.colours
        }
        self.leftover_neutral = rules.neutral_leftover.get(players, 0) if self.neutral else 0
        self.phase = Phase.NEUTRAL_ROLL if self.leftover_neutral else Phase.ROLL
        self.last_roll = None

    def _set_seat(self, seat: int) -> None:
        self.current_seat = seat
        self.current_player = self.colours[seat]

    def _deal(self) -> list[int]:
        rules = self.config.rules
        if rules.notes_per_casino is not None:
            return deal_count(self.deck, rules.notes_per_casino)
        return deal_to_minimum(self.deck, rules.casino_minimum or 0)

    def _end_round(self) -> None:
        results = tuple(score_casino(c.name, c.banknotes, c.dice) for c in self.casinos.values())
        to_deck: list[int] = []
        discarded: list[int] = []
        neutral_winnings = to_deck if self.config.rules.neutral_winnings == "bottom" else discarded
        for result in results:
            for payout in result.payouts:
                if payout.colour == self.neutral:
                    neutral_winnings.append(payout.banknote)
                else:
                    self.winnings[payout.colour].append(payout.banknote)
            if self.config.unclaimed == "discard":
                discarded.extend(result.unclaimed)
            else:
                to_deck.extend(result.unclaimed)
        self.deck.extend(to_deck)
        self.discard.extend(discarded)
        self.rounds.append(RoundResult(self.round_number, results, tuple(to_deck), tuple(discarded)))
        self.casinos = {}
        if self.round_number >= self.config.round_count:
            self.phase = Phase.OVER
            self.current_player = None
            self.last_roll = None
        else:
            self._start_round(self.round_number + 1)


def replay(events: Iterable[Event]) -> GameState:
    """Fold a game's events into its state. The first event must be ``GameStarted``."""
    iterator = iter(events)
    first = next(iterator, None)
    if not isinstance(first, GameStarted):
        raise IllegalMove("a game's first event must be GameStarted")
    state = GameState(first)
    for event in iterator:
        state.apply(event)
    return state


def _describe(counts: dict[tuple[str, bool], int]) -> str:
    parts = [f"{n} {colour}{' Biggy' if big else ''}" for (colour, big), n in sorted(counts.items()) if n]
    total = sum(counts.values())
    return f"{total} {'die' if total == 1 else 'dice'} ({', '.join(parts) or 'none'})"

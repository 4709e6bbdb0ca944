"""How a game is set up: players, edition, variants and the rule options the texts leave open."""

from dataclasses import dataclass, field
from typing import Any

from .banknotes import CLASSIC_DECK, check_banknote
from .colours import DEFAULT_COLOURS
from .editions import EDITIONS, NUMBERED_CASINOS, SLOT, EditionRules
from .errors import ConfigError

#: What happens to notes no one wins: under the deck (Spanish text) or out of the game (French).
UNCLAIMED_CHOICES = ("bottom", "discard")
#: Bounds of a playable game, so that no setting makes a game too large to store, show or play
#: out: a name fits on a player's card, a colour is a word; the box holds 54 notes of at most
#: $90,000 and the texts play 3 or 4 rounds.
MAX_NAME_LENGTH = 40
MAX_COLOUR_LENGTH = 24
MAX_DECK_NOTES = 200
MAX_BANKNOTE = 1_000_000
MAX_ROUNDS = 10


@dataclass(frozen=True)
class Player:
    """A seat at the table. Seats are in clockwise order."""

    name: str
    colour: str


@dataclass(frozen=True)
class GameConfig:
    """A game's setup. ``validate`` says what is wrong, if anything."""

    players: tuple[Player, ...]
    edition: str = "classic"
    neutral: bool = False
    slot: bool = False
    unclaimed: str = "bottom"
    deck: tuple[tuple[int, int], ...] = field(default=CLASSIC_DECK)
    rounds: int | None = None
    neutral_colour: str | None = None

    @classmethod
    def for_players(cls, count: int, **options: Any) -> "GameConfig":
        """A game for ``count`` players with the default colours, named after them."""
        if not 1 <= count <= len(DEFAULT_COLOURS):
            raise ConfigError(f"choose 2 to {len(DEFAULT_COLOURS)} players, got {count}")
        players = tuple(Player(name=c.title(), colour=c) for c in DEFAULT_COLOURS[:count])
        return cls(players=players, **options)

    @property
    def rules(self) -> EditionRules:
        try:
            return EDITIONS[self.edition]
        except (KeyError, TypeError):
            raise ConfigError(
                f"unknown edition {self.edition!r}; choose one of {', '.join(EDITIONS)}"
            ) from None

    @property
    def round_count(self) -> int:
        return self.rounds if self.rounds is not None else self.rules.rounds

    @property
    def neutral_dice_colour(self) -> str | None:
        """The colour of the neutral dice, or None when the variant is off."""
        if not self.neutral:
            return None
        return self.neutral_colour or self.rules.default_neutral_colour

    @property
    def casinos(self) -> tuple[str, ...]:
        return NUMBERED_CASINOS + ((SLOT,) if self.slot else ())

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(p.colour for p in self.players)

    def validate(self) -> None:
        """Raise ConfigError with a message a player can act on, or return None."""
        rules = self.rules
        self._validate_players(rules)
        self._validate_variants(rules)
        if self.unclaimed not in UNCLAIMED_CHOICES:
            raise ConfigError(f"unclaimed notes go to 'bottom' or 'discard', got {self.unclaimed!r}")
        rounds = self.rounds
        if isinstance(rounds, bool) or (
            rounds is not None and (not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS)
        ):
            raise ConfigError(f"rounds must be a whole number from 1 to {MAX_ROUNDS}, got {self.rounds!r}")
        self._validate_deck()

    def _validate_players(self, rules: EditionRules) -> None:
        count = len(self.players)
        if not rules.min_players <= count <= rules.max_players:
            raise ConfigError(
                f"the {rules.name} edition is for {rules.min_players} to {rules.max_players} "
                f"players, got {count}",
                "player_count",
                min=rules.min_players,
                max=rules.max_players,
                count=count,
            )
        colours = [p.colour for p in self.players]
        for player in self.players:
            if not isinstance(player.colour, str) or not player.colour.strip():
                raise ConfigError(f"player {player.name!r} needs a colour")
            if len(player.colour) > MAX_COLOUR_LENGTH:
                raise ConfigError(
                    f"a colour is at most {MAX_COLOUR_LENGTH} characters, got {len(player.colour)}"
                )
            if not isinstance(player.name, str) or not player.name.strip():
                raise ConfigError(
                    f"the {player.colour} player needs a name", "name_needed", colour=player.colour
                )
            if len(player.name) > MAX_NAME_LENGTH:
                raise ConfigError(
                    f"a player's name is at most {MAX_NAME_LENGTH} characters, got {len(player.name)}",
                    "name_too_long",
                    max=MAX_NAME_LENGTH,
                )
        duplicates = sorted({c for c in colours if colours.count(c) > 1})
        if duplicates:
            raise ConfigError(
                f"each player needs a colour of their own; {duplicates[0]!r} is taken twice",
                "colour_taken",
                colour=duplicates[0],
            )

    def _validate_variants(self, rules: EditionRules) -> None:
        count = len(self.players)
        if self.neutral:
            if count not in rules.neutral_per_player:
                allowed = sorted(rules.neutral_per_player)
                raise ConfigError(
                    f"the neutral-dice variant of the {rules.name} edition is for "
                    f"{allowed[0]} to {allowed[-1]} players, got {count}",
                    "neutral_player_count",
                    min=allowed[0],
                    max=allowed[-1],
                    count=count,
                )
            neutral = self.neutral_dice_colour
            if neutral in self.colours:
                raise ConfigError(
                    f"the neutral dice are {neutral}, which a player uses; "
                    "give the neutral dice another colour",
                    "neutral_colour_taken",
                    colour=neutral,
                )
        if self.slot and not rules.slot_allowed:
            raise ConfigError("the slot casino belongs to the biggy edition", "slot_biggy_only")

    def _validate_deck(self) -> None:
        if not self.deck:
            raise ConfigError("the deck needs at least one banknote")
        for entry in self.deck:
            if not (isinstance(entry, tuple) and len(entry) == 2):
                raise ConfigError(f"a deck entry is (value, count), got {entry!r}")
            value, count = entry
            try:
                check_banknote(value)
            except ValueError as err:
                raise ConfigError(str(err)) from None
            if value > MAX_BANKNOTE:
                raise ConfigError(f"a banknote is at most ${MAX_BANKNOTE:,}, got ${value:,}")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ConfigError(f"a deck count must be a whole number, got {count!r}")
        notes = sum(count for _, count in self.deck)
        if notes > MAX_DECK_NOTES:
            raise ConfigError(f"a deck holds at most {MAX_DECK_NOTES} notes, got {notes:,}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [{"name": p.name, "colour": p.colour} for p in self.players],
            "edition": self.edition,
            "neutral": self.neutral,
            "slot": self.slot,
            "unclaimed": self.unclaimed,
            "deck": [[value, count] for value, count in self.deck],
            "rounds": self.rounds,
            "neutral_colour": self.neutral_colour,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameConfig":
        """Build (and validate) a config from JSON-like data; ConfigError on bad shapes."""
        if not isinstance(data, dict):
            raise ConfigError("a game setup must be a JSON object")
        raw_players = data.get("players")
        if not isinstance(raw_players, list):
            raise ConfigError("'players' must be a list of {name, colour}")
        players = []
        for index, raw in enumerate(raw_players):
            if not isinstance(raw, dict):
                raise ConfigError(f"player {index + 1} must be an object with a name and a colour")
            colour = raw.get("colour", DEFAULT_COLOURS[index] if index < len(DEFAULT_COLOURS) else None)
            name = raw.get("name") or (colour.title() if isinstance(colour, str) else None)
            if not isinstance(colour, str) or not isinstance(name, str):
                raise ConfigError(f"player {index + 1} needs a name and a colour (text)")
            players.append(Player(name=name.strip(), colour=colour.strip().lower()))
        deck = data.get("deck")
        try:
            deck_entries = CLASSIC_DECK if deck is None else tuple((v, c) for v, c in deck)
        except (TypeError, ValueError):
            raise ConfigError("'deck' must be a list of [value, count] pairs") from None
        for flag in ("neutral", "slot"):
            if not isinstance(data.get(flag, False), bool):
                raise ConfigError(f"'{flag}' must be true or false, got {data.get(flag)!r}")
        neutral_colour = data.get("neutral_colour")
        if neutral_colour is not None and not isinstance(neutral_colour, str):
            raise ConfigError(f"'neutral_colour' must be a colour name, got {neutral_colour!r}")
        if neutral_colour is not None and len(neutral_colour) > MAX_COLOUR_LENGTH:
            length = len(neutral_colour)
            raise ConfigError(f"a colour is at most {MAX_COLOUR_LENGTH} characters, got {length}")
        config = cls(
            players=tuple(players),
            edition=data.get("edition", "classic"),
            neutral=data.get("neutral", False),
            slot=data.get("slot", False),
            unclaimed=data.get("unclaimed", "bottom"),
            deck=deck_entries,
            rounds=data.get("rounds"),
            neutral_colour=neutral_colour.strip().lower() if neutral_colour else None,
        )
        config.validate()
        return config

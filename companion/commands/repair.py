"""`companion repair GAME_ID`: where a stored game's events stop replaying, and, asked with
``--keep-before N``, keep only the events before that point (after a copy of the data folder)."""

import argparse
import shutil
from datetime import UTC, datetime
from pathlib import Path

from . import CommandError
from .parser import whole_number


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "repair", help="show where a stored game stops replaying; keep the events before that point"
    )
    parser.add_argument("game", metavar="GAME_ID", help="the game's id (as in its page's address /games/ID)")
    parser.add_argument("--data", type=Path, help="the games' folder (default: the one `serve` uses)")
    parser.add_argument(
        "--keep-before",
        type=whole_number(1),
        metavar="N",
        help="keep events 0 to N-1 and drop the rest (N at most the first event that fails); "
        "the folder is copied beside itself first. Stop the server on the folder before this",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..service.stored_log import replay_stored
    from ..storage import EventStore, FolderLock, StoreError
    from .stored_games import games_folder, unknown_game

    folder = games_folder(args.data)
    try:
        store = EventStore(folder)
        record = store.game(args.game)
        if record is None:
            raise CommandError(unknown_game(args.game, folder, [g.id for g in store.games()]))
        rows = store.stored_events(args.game)
    except StoreError as err:
        raise CommandError(str(err)) from None
    damage = replay_stored(rows).damage
    title = f"game {record.id} ({record.title})" if record.title else f"game {record.id}"
    if damage is None:
        print(f"{title}: all {len(rows)} events replay; nothing to repair.")
        if args.keep_before is not None:
            raise CommandError(f"{title} is whole: nothing to repair, nothing was changed")
        return 0
    print(f"{title}, {len(rows)} events stored:")
    if damage.event > 0:
        print(f"  events 0–{damage.event - 1} replay;")
    print(f"  event {damage.event} {damage.reason}.")
    if damage.event == 0:
        raise CommandError(
            f"{title} fails at its first event: there is nothing before it to keep; its events "
            f"as stored are at /api/games/{record.id}/export.json while the server runs"
        )
    if args.keep_before is None:
        data = f" --data {folder}" if args.data else ""
        print(
            f"To keep events 0–{damage.event - 1} and drop the {len(rows) - damage.event} from "
            f"event {damage.event} on (the folder is copied first), stop the server and run:\n"
            f"  companion repair {record.id}{data} --keep-before {damage.event}"
        )
        return 0
    if args.keep_before > damage.event:
        raise CommandError(
            f"--keep-before {args.keep_before} would keep event {damage.event}, which fails: "
            f"give at most {damage.event}"
        )
    try:
        with FolderLock(folder).acquire("companion repair"):
            try:
                copy = backup_folder(store, folder)
            except OSError as err:  # no room, no permission: nothing is dropped without a copy
                raise CommandError(
                    f"cannot copy {folder} before repairing ({err.strerror or err}); nothing was changed"
                ) from None
            dropped = store.keep_events_before(record.id, args.keep_before)
    except StoreError as err:
        raise CommandError(str(err)) from None
    print(
        f"Kept events 0–{args.keep_before - 1} of {title}; {dropped} dropped. "
        f"The folder as it was is in {copy}."
    )
    return 0


def backup_folder(store, folder: Path) -> Path:
    """A copy of the data folder beside it, named by the time: the database copied whole by
    SQLite (consistent even with its journal), every other file as it is."""
    from ..storage import DATABASE_FILE
    from ..storage.folder_lock import LOCK_FILE

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    copy = folder.with_name(f"{folder.name}.backup-{stamp}")
    copy.mkdir(parents=True)
    store.backup(copy / DATABASE_FILE)
    for path in folder.iterdir():
        if path.is_file() and not path.name.startswith(DATABASE_FILE) and path.name != LOCK_FILE:
            shutil.copy2(path, copy / path.name)
    return copy

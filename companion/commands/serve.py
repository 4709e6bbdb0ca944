"""`companion serve`: the tablet pages, the API and the live streams on one HTTP server."""

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from . import CommandError
from .parser import add_whole_frame_option, whole_number
from .vision_support import add_model_options

if TYPE_CHECKING:
    import socket

    from ..camera_game.demo import Audience

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: the games made for recordings, one per recording, in the data folder
RECORDINGS_FILE = "recordings.json"
#: ports Chromium, Firefox and Safari refuse to load pages from (ERR_UNSAFE_PORT): those of
#: other services a page must not be able to talk to (mail, SIP on 5060, X11 on 6000, IRC …)
BROWSER_REFUSED_PORTS = frozenset(
    {1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102}
    | {103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427}
    | {465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989}
    | {990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665}
    | {6666, 6667, 6668, 6669, 6679, 6697, 10080}
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the tablet page and the API")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 serves the LAN)"
    )
    parser.add_argument("--port", type=whole_number(1, 65535), default=5000, help="port (default 5000)")
    parser.add_argument("--data", type=Path, help="folder for the games (created on first use)")
    parser.add_argument(
        "--threads",
        type=whole_number(1),
        default=16,
        help="worker threads for requests (default 16); live views take none",
    )
    parser.add_argument(
        "--viewers",
        type=whole_number(1, 10_000),
        default=1000,
        help="pages that follow games live at once (default 1000); one more is told to retry, "
        "and polls meanwhile",
    )
    camera = parser.add_mutually_exclusive_group()
    camera.add_argument("--camera", type=int, metavar="N", help="read rolls from webcam N")
    camera.add_argument(
        "--source",
        metavar="PATH|URL",
        help="read rolls from a recording, a folder of frames, a sample or a stream",
    )
    parser.add_argument("--calibration", type=Path, help="table calibration (a sample brings its own)")
    add_model_options(parser)
    add_whole_frame_option(parser)
    parser.add_argument(
        "--watch",
        action="store_true",
        help="read rolls from webcam 0, or play the bundled demo recording when no camera is attached",
    )
    parser.add_argument(
        "--accept-placements",
        action="store_true",
        help="apply the placements the camera sees without a tap (samples use this)",
    )
    parser.set_defaults(run=run)


def lan_address() -> str:
    """This machine's address as other devices on the network see it (best guess, no traffic)."""
    import socket

    try:
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(sockaddr[0])
            if not address.startswith("127."):
                return address
    except OSError:
        pass
    return "127.0.0.1"


def join_url(host: str, port: int) -> str:
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"http://{shown}:{port}"


def run(args: argparse.Namespace) -> int:
    from ..storage import FolderLock, StoreError, default_folder

    folder = args.data or default_folder()
    try:  # one writer per folder: a second server on it would lose acknowledged events
        lock = FolderLock(folder).acquire("companion serve", args.port)
    except StoreError as err:
        raise CommandError(str(err)) from None
    with lock:
        return serve(args, folder)


def serve(args: argparse.Namespace, folder: Path) -> int:
    """Serve, holding the data folder's lock."""
    from ..storage import StoreError
    from ..web import create_app
    from ..web.live import make_server

    listening = listen(args.host, args.port)  # a port in use is said before anything is made
    if (warning := refused_port_warning(args.port)) is not None:
        print(warning, file=sys.stderr, flush=True)

    config: dict[str, object] = {"MAX_VIEWERS": args.viewers, "DATA_DIR": str(folder)}
    if args.host not in LOOPBACK:
        config["JOIN_BASE_URL"] = join_url(args.host, args.port)
    try:
        app = create_app(config)
    except StoreError as err:
        raise CommandError(str(err)) from None
    url = config.get("JOIN_BASE_URL") or f"http://{args.host}:{args.port}"
    if args.watch and args.camera is None and not args.source:
        choose_camera_or_sample(args)
    audience = None  # the pages that open a recording's game: they start its recording
    stop_camera = None
    if args.camera is not None or args.source:
        from ..camera_game.demo import Audience

        audience = Audience()
        stop_camera = start_camera(args, app, audience)
    print(f"Vegas Table Companion on {url}  (games in {app.config['DATA_DIR']})", flush=True)
    if stop_camera:
        print(f"Set up the table (areas, colours): {url}/setup#token={app.config['SETUP_TOKEN']}", flush=True)
    if args.host not in LOOPBACK:
        print(f"Join from a tablet or phone on this network: {url}", flush=True)
    try:
        on_viewer = audience.joined if audience is not None else None
        make_server(app, workers=args.threads, on_viewer=on_viewer).run(sockets=[listening])
    finally:
        if stop_camera:
            stop_camera()
        app.extensions["games"].changes.close()
    return 0


def refused_port_warning(port: int) -> str | None:
    """What to tell a player whose ``port`` browsers refuse to open pages from (None: they do not)."""
    if port not in BROWSER_REFUSED_PORTS:
        return None
    return (
        f"warning: browsers refuse to open pages on port {port} (ERR_UNSAFE_PORT), so the tablet "
        "page will not load there; choose another --port (5000, 8000 or 8080)"
    )


def listen(host: str, port: int) -> "socket.socket":
    """A socket listening on ``host``:``port``, or a CommandError saying why there is none."""
    import errno

    from ..web.live import listen as listening_socket

    try:
        return listening_socket(host, port)
    except OSError as err:
        why = err.strerror or str(err)
        if err.errno == errno.EADDRINUSE:
            why += "; another program (a companion already running?) has it: choose another --port"
        raise CommandError(f"cannot listen on {host}:{port}: {why}") from None


def choose_camera_or_sample(args: argparse.Namespace) -> None:
    from ..camera.sources import SourceError, open_source
    from ..camera_game.demo import bundled_demo

    try:
        open_source(camera=0).close()
        args.camera = 0
        print("Reading rolls from camera 0.", flush=True)
    except SourceError:
        demo = bundled_demo()
        if demo is None:
            raise CommandError(
                "no camera is attached and this install has no demo recording; "
                "attach a webcam (--camera N) or name a recording (--source PATH)"
            ) from None
        args.source = str(demo)
        args.accept_placements = True  # nobody sits at a recorded table to tap the placements
        print(
            f"No camera attached: playing the demo recording in {demo} "
            "(it starts when the game's page is opened).",
            flush=True,
        )


def start_camera(args: argparse.Namespace, app, audience: "Audience") -> Callable[[], None]:
    """Run the camera loop in a thread feeding the live game through the camera's session
    (``app.extensions["camera"]``), with the table setup page's picture and calibration
    (``app.extensions["setup"]``); a recording's game plays when ``audience`` sees a page open
    it. Return how to stop the loop."""
    import secrets
    import threading

    from ..camera.loop import watch_source
    from ..camera.sources import SourceError, open_source
    from ..camera.table_setup import TableSetup
    from ..camera_game.bridge import CameraBridge
    from ..camera_game.demo import start_sample_game
    from ..vision.calibration import DEFAULT_FILE
    from .vision_support import build_reader, table_calibration

    games = app.extensions["games"]
    camera = app.extensions["camera"]
    # the setup page saves to the file given, never into a sample's folder; what it saved is
    # read again on the next start, for a recording as for a camera (a sample keeps its own)
    setup_file = Path(args.calibration or DEFAULT_FILE)
    calibration, note = table_calibration(args.calibration, args.camera, args.source)
    if calibration is not None and not Path(calibration).exists():
        calibration = None
    if note:
        print(note, flush=True)
    if calibration is None:
        print(f"No calibration at {setup_file} yet: the table setup page will write it.", flush=True)
    # two threads for the models, whatever --threads gives the server's workers
    reader = build_reader(calibration, args.model, args.pip_model, threads=2, whole_frame=args.whole_frame)
    try:
        open_source(args.camera, args.source).close()
    except SourceError as err:
        raise CommandError(str(err)) from None
    kept = Path(app.config["DATA_DIR"]) / RECORDINGS_FILE
    game = start_sample_game(games, Path(args.source), kept) if args.source else None
    if game is not None:
        print(
            f"Sample game: open http://{args.host}:{args.port}/games/{game.record.id}#token={game.record.token}",
            flush=True,
        )
    name = f"camera {args.camera}" if args.camera is not None else str(args.source)
    setup = app.extensions["setup"] = TableSetup(reader, setup_file, name)
    app.config["SETUP_TOKEN"] = secrets.token_urlsafe(16)
    stopping = threading.Event()

    def watch() -> None:
        bridge = CameraBridge(camera, name, accept_placements=args.accept_placements)
        watch_source(
            reader,
            bridge.on_record,
            camera=args.camera,
            source=args.source,
            realtime=True,
            on_settled=bridge.on_settled,
            stop=stopping.is_set,
            on_frame=setup.see,
            rolled=bridge.dice_rolled,
            read_again=camera.read_again,
        )

    def loop() -> None:
        try:
            if game is None:  # a camera, or a recording without a game
                watch()
                return
            # A recording's game plays when a page first opens it, and again from the start
            # each time a page opens it after the recording ended.
            while audience.wait(game.record.id, stopping):
                watch()
                audience.forget(game.record.id)
                if not audience.wait(game.record.id, stopping):
                    return
                games.restart(game.record.id)
        except SourceError as err:
            camera.set_status("lost", str(err), name)
        except Exception as err:  # the server keeps serving; the page says why the camera stopped
            camera.set_status("lost", f"the camera loop stopped: {err}; enter rolls by hand", name)
            raise

    thread = threading.Thread(target=loop, name="camera-loop", daemon=True)
    thread.start()
    return stopping.set

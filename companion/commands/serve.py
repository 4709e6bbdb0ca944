"""`companion serve`: the tablet page and API on a real WSGI server (waitress)."""

import argparse
import socket
from pathlib import Path

from ..storage import StoreError
from .errors import CommandError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the tablet page and the API")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 serves the LAN)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--data", type=Path, help="folder for the games (created on first use)")
    parser.add_argument("--threads", type=int, default=32,
                        help="worker threads; each open tablet holds one for its live updates")
    parser.set_defaults(run=run)


def lan_address() -> str:
    """This machine's address as other devices on the network see it (best guess, no traffic)."""
    try:
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not sockaddr[0].startswith("127."):
                return sockaddr[0]
    except OSError:
        pass
    return "127.0.0.1"


def join_url(host: str, port: int) -> str:
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"http://{shown}:{port}"


def run(args: argparse.Namespace) -> int:
    import waitress

    from ..web import create_app

    config = {}
    if args.data:
        config["DATA_DIR"] = str(args.data)
    if args.host not in LOOPBACK:
        config["JOIN_BASE_URL"] = join_url(args.host, args.port)
    try:
        app = create_app(config)
    except StoreError as err:
        raise CommandError(str(err)) from None
    url = config.get("JOIN_BASE_URL") or f"http://{args.host}:{args.port}"
    print(f"Vegas Table Companion on {url}  (games in {app.config['DATA_DIR']})", flush=True)
    if args.host not in LOOPBACK:
        print(f"Join from a tablet or phone on this network: {url}", flush=True)
    try:
        waitress.serve(app, host=args.host, port=args.port, threads=args.threads,
                       channel_timeout=60, ident="vegas-companion")
    except OSError as err:
        raise CommandError(f"cannot listen on {args.host}:{args.port}: {err.strerror}") from None
    finally:
        app.extensions["games"].changes.close()
    return 0

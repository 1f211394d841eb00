"""The `companion` command: serve the app (default) or print card sheets."""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys
import webbrowser

from companion.dirs import default_data_dir

DEFAULT_PORT = 8550


M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)


def limit_malloc_arenas(n: int = 2) -> None:
    """glibc gives every thread that allocates its own heap ("arena", up to 8 per core): the
    threads that run Flet's handlers and the store's writes each kept pages of a burst's garbage
    that malloc_trim could not give back (1,000 dropped tabs: +19 MB once they expired, +11 MB with
    two arenas; benchmarks/dropped_sessions.py). As MALLOC_ARENA_MAX=2 would, before any thread
    starts; elsewhere (macOS, Windows, musl) nothing."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return
    try:
        import ctypes

        ctypes.CDLL(None).mallopt(M_ARENA_MAX, n)
    except (OSError, AttributeError):
        pass


def freeze_startup() -> None:
    """What is imported by now (Python, Flet, FastAPI, our modules) lives as long as the process:
    moved out of the garbage collector's sight (gc.freeze), so that a full collection – run after a
    burst of closed sessions (companion/ui/sessions.py) – walks only what came since: ≈ 60 % fewer
    objects. Tables and sessions come later and are collected as before."""
    import gc

    gc.collect()
    gc.freeze()


def serve_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="companion",
        description="Tabletop Companion: host a table; phones join by QR code over the local Wi-Fi. "
                    "Fully offline. Sub-commands: serve (default), print (card sheets; see "
                    "'companion print --help'), history (export/import; 'companion history --help').")
    p.add_argument("--host", default="0.0.0.0",
                   help="address to listen on (default 0.0.0.0: all interfaces, so phones can reach it)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    p.add_argument("--data-dir", default=str(default_data_dir()),
                   help="where tables are stored (SQLite); created private to you (0700) if missing. An "
                        "existing directory must be the app's own: empty or holding companion.sqlite3, yours, "
                        "not shared (a directory like /tmp is refused; its mode is never changed) "
                        "(default %(default)s)")
    p.add_argument("--public-url", default=None,
                   help="base URL phones should open, e.g. http://192.168.1.20:8550 – overrides the "
                        "automatic choice of LAN address for the QR code")
    p.add_argument("--no-browser", action="store_true", help="do not open the host page in a local browser")
    p.add_argument("--host-addresses", default=None, metavar="ADDR[,ADDR…]",
                   help="the addresses whose browsers count as the host's own: they may create tables and see "
                        "the list of tables (default: this computer, i.e. any loopback address). Taken from "
                        "the connection itself, never from what a browser says")
    return p


def port_free(host: str, port: int) -> str | None:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind((host, port))
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            return f"Port {port} is already in use. Start with another port, e.g.: companion --port {port + 1}"
        if e.errno == errno.EACCES:
            return f"Port {port} needs administrator rights. Use --port with a number above 1024."
        return f"Cannot listen on {host}:{port}: {e.strerror}. Check --host and --port."
    finally:
        s.close()
    return None


def terminal_qr(url: str) -> str:
    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.make(fit=True)
    rows = qr.get_matrix()
    lines = []
    for y in range(0, len(rows), 2):
        top, bottom = rows[y], rows[y + 1] if y + 1 < len(rows) else [False] * len(rows[y])
        lines.append("".join("█" if a and b else "▀" if a else "▄" if b else " " for a, b in zip(top, bottom,
                                                                                                  strict=False)))
    return "\n".join(lines)


def serve(args: argparse.Namespace | list[str]) -> int:
    if isinstance(args, list):
        args = serve_parser().parse_args(args)
    from companion.table.store import data_dir_path, foreign_dir

    data_dir = data_dir_path(args.data_dir)  # resolved before it is checked (`x/..`)
    not_own = foreign_dir(data_dir)
    if not_own:
        print(f"Not using --data-dir {data_dir}: {not_own}. Give the app a directory of its own, e.g. "
              f"--data-dir {data_dir / 'tabletop-companion'} (created private to you).", file=sys.stderr)
        return 2
    args.data_dir = str(data_dir)
    problem = port_free(args.host, args.port)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    os.environ.setdefault("FLET_FORCE_WEB_SERVER", "true")
    import uvicorn

    from companion import net
    from companion.app import build, open_hub
    from companion.limits import uvicorn_options
    from companion.table.hub import problem_text

    limit_malloc_arenas()
    freeze_startup()

    bases = net.base_urls(args.port, args.public_url)
    join_base = bases[0]
    hub, data_problem = open_hub(args.data_dir)
    if data_problem:
        print(f"WARNING: {data_problem}", file=sys.stderr)
    for p in hub.problems:  # tables that could not be restored, a data file set aside (also on the home screen)
        print(f"WARNING: {problem_text('en', p)}", file=sys.stderr)
    host_url = f"http://127.0.0.1:{args.port}/"
    print("Tabletop Companion – offline table server")
    print(f"  Host screen (open on this computer): {host_url}")
    print(f"  Phones join at:                      {join_base}/t/CODE  (the host screen shows the code)")
    if len(bases) > 1:
        print("  Other addresses of this computer:    " + ", ".join(bases[1:4]))
    print(f"  Data: {args.data_dir}")
    print(terminal_qr(join_base + "/"))
    host_addresses = tuple(a.strip() for a in args.host_addresses.split(",") if a.strip()) \
        if args.host_addresses else None
    app = build(hub, join_base, bases[1:], data_problem, host_addresses=host_addresses)
    if not args.no_browser and (os.environ.get("DISPLAY") or sys.platform in ("darwin", "win32")):
        try:
            webbrowser.open(host_url)
        except webbrowser.Error:
            pass
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_ping_interval=20,
                **uvicorn_options())  # request head and WebSocket message limits (companion/limits.py)
    return 0


COMMANDS = ("serve", "print", "history")


def parser() -> argparse.ArgumentParser:
    """`companion [serve] [options]` (the default) and `companion print …` as argparse sub-commands;
    `print` hands its arguments to the print command's own parser (companion/printing/cli.py)."""
    top = argparse.ArgumentParser(prog="companion", description=serve_parser().description)
    sub = top.add_subparsers(dest="command", metavar="{serve,print,history}")
    sub.add_parser("serve", parents=[serve_parser()], add_help=False, help="host tables (the default)",
                   description=serve_parser().description)
    sub.add_parser("print", add_help=False, help="print-and-play PDFs ('companion print --help')")
    sub.add_parser("history", add_help=False,
                   help="export or import the history of finished games ('companion history --help')")
    return top


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        argv = ["serve", *argv]  # (no sub-command: serve, with its options and its --help)
    top = parser()
    try:
        args, rest = top.parse_known_args(argv)
        if args.command == "print":  # its own parser reads the rest (and says what is wrong)
            from companion.printing.cli import main as print_main

            return print_main(rest)
        if args.command == "history":  # (companion/history_cli.py)
            from companion.history_cli import main as history_main

            return history_main(rest)
        if rest:
            top.parse_args(argv)  # (prints "unrecognized arguments" and exits 2)
    except SystemExit as e:  # --help or a usage error (argparse printed it): its exit code
        return int(e.code or 0) if not isinstance(e.code, str) else 2
    return serve(args)


if __name__ == "__main__":
    sys.exit(main())

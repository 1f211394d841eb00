"""`companion history export FILE` / `companion history import FILE` (docs/HISTORY.md).

Errors are one line on stderr in the user's language (--lang, default from $LANG), exit code 2,
never a traceback; nothing is changed by a refused import.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion import history, i18n
from companion.dirs import default_data_dir


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion history",
                                description="Export the history of finished games (CSV or JSON, docs/HISTORY.md) "
                                            "or import a JSON export (games already there are skipped).")
    p.add_argument("action", choices=("export", "import"))
    p.add_argument("file", help="the file to write (export) or read (import); '-' for stdout/stdin")
    p.add_argument("--format", choices=("csv", "json"), default=None,
                   help="export format (default: from the file name; '-' is JSON)")
    p.add_argument("--data-dir", default=str(default_data_dir()), help="the server's data directory (default %(default)s)")
    p.add_argument("--lang", default=None, choices=i18n.LANGS, help="language of the messages (default: from $LANG)")
    return p


def _t(lang: str, key: str, **params: object) -> str:
    return i18n.t(lang, key, **params)


def main(argv: list[str]) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0) if not isinstance(e.code, str) else 2
    lang = args.lang or i18n.environment_lang()

    def fail(key: str, **params: object) -> int:
        print(_t(lang, key, **params), file=sys.stderr)
        return 2

    from companion.table.store import SQLiteStore, StoreError, foreign_dir

    data_dir = Path(args.data_dir).expanduser()
    if args.action == "export" and not (data_dir / SQLiteStore.FILE).exists():
        return fail("hcli.err.no_data", path=data_dir / SQLiteStore.FILE)
    not_own = foreign_dir(data_dir)
    if not_own:
        return fail("hcli.err.data", reason=not_own)
    try:
        if args.action == "export":
            fmt = args.format or ("json" if args.file == "-" else Path(args.file).suffix.lower().lstrip("."))
            if fmt not in ("csv", "json"):
                return fail("hcli.err.format", path=args.file)
            store = SQLiteStore(data_dir)
            try:
                records, aliases = store.history(), store.aliases()
            finally:
                store.close()
            text = history.export_csv(records, aliases) if fmt == "csv" else history.export_json(records, aliases)
            if args.file == "-":
                sys.stdout.write(text)
            else:
                try:
                    Path(args.file).write_text(text, encoding="utf-8", newline="")
                except OSError as e:
                    return fail("hcli.err.write", path=args.file, reason=e.strerror or e)
                print(history.t(lang, "hist.exported", n=len(records), path=args.file))
            return 0
        try:
            data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
        except OSError as e:
            return fail("hist.err.unreadable", path=args.file, reason=e.strerror or e)
        records_, aliases_ = history.parse_import(data)  # (checked before the store is opened)
        store = SQLiteStore(data_dir)
        try:
            added, dup = store.import_history(records_, aliases_)
        finally:
            store.close()
        print(history.t(lang, "hist.imported", n=added, dup=dup))
        return 0
    except history.HistoryError as e:
        return fail(e.key, **e.params)
    except StoreError as e:
        return fail("hcli.err.data", reason=f"{e.path}: {e.reason}")

"""Command line: `companion serve` (web, for phones on the LAN) · `desktop` · `export` · `import` · `replay`."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"


def _fail(message: str) -> "SystemExit":
    """A refusal the user can act on: one line on stderr, exit code 2, never a traceback."""
    print(f"companion: {message}", file=sys.stderr)
    return SystemExit(2)


def _context(args, **kw):
    from companion.context import AppContext
    from models.db import DatabaseError

    try:
        ctx = AppContext.open(args.db, **kw)
    except DatabaseError as exc:
        raise _fail(str(exc)) from None
    if ctx.read_only_reason:
        print(f"companion: the save opens read-only: {ctx.read_only_reason} "
              "Campaigns can be seen and exported, not played.", file=sys.stderr)
    return ctx


def build_web_app(ctx, token, cache_root=None):
    """The served app: Flet's web client (compressed, cached, nothing from off the laptop: see
    companion/web_client.py) and sessions, behind the join gate. Each phone's connection is a
    `flet_fixes.PhoneConnection` (let go when the phone leaves, even mid-send)."""
    import flet as ft

    from companion import flet_fixes
    from companion.app import make_main
    from companion.share import JoinGate
    from companion.web_client import deliver

    flet_fixes.apply()
    flet_app = ft.run(make_main(ctx), export_asgi_app=True, assets_dir=str(ASSETS), no_cdn=True)
    return JoinGate(deliver(flet_app, ASSETS, cache_root), token)


def settle_garbage_collector() -> None:
    """Keep Python's garbage collector out of a tap's way (#16): what was made at start (Flet,
    SQLAlchemy and pydantic's classes, the catalogs) is set aside for good, so that a full collection
    no longer walks it. Measured in the served app over 30 Biosphere 5 taps: a full collection had
    paused a tap by ~95 ms every few taps; the tap handler's CPU time went from 23 to 16 ms (median),
    its worst from 128 to 24 ms. (Collecting the young less often as well made no difference.)"""
    import gc

    gc.collect()
    gc.freeze()


def cmd_serve(args) -> None:
    import uvicorn

    from companion.share import join_url, lan_address, print_qr, token_problem

    given = None if args.open else (args.token or os.environ.get("COMPANION_JOIN_TOKEN"))
    if given and token_problem(given):
        raise _fail(token_problem(given))
    ctx = _context(args)
    # The token kept in the save: phones that joined before stay joined across restarts.
    token = None if args.open else ctx.join_token(given=given, rotate=args.new_token)
    shown_host = args.host if args.host not in ("0.0.0.0", "::") else lan_address()
    url = join_url(shown_host, args.port, token, https=args.https)
    ctx.join_url, ctx.token = url, token
    app = build_web_app(ctx, token)
    tls = {}
    if args.https:  # a self-signed certificate kept with the data (see companion/tls.py)
        from companion.tls import certificate_folder, ensure_certificate

        cert, key = ensure_certificate(certificate_folder(ctx.db.path), shown_host)
        tls = {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}
    from companion.flet_fixes import HEARTBEAT

    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio",
                            **HEARTBEAT, **tls)
    server = uvicorn.Server(config)

    original_startup = server.startup

    async def startup(*a, **kw):
        await original_startup(*a, **kw)
        settle_garbage_collector()
        print(f"Table Companion is ready: {url}", flush=True)
        if not args.quiet:
            print("Scan to join from a phone on the same Wi-Fi:")
            print_qr(url)
            print(f"Database: {ctx.db.url}", flush=True)

    server.startup = startup
    server.run()


def desktop_client_ready() -> None:
    """Flet's desktop client at hand before the window opens, or a refusal the user can act on (not
    Flet's own answer: a `pip install` at run time, then a traceback when offline). The client comes
    with the desktop extra's package only where that package bundles it; flet-desktop 1.0.5 bundles
    none, so the first window downloads it once into ~/.flet/client (FLET_VIEW_PATH names another)."""
    import flet.version

    try:
        import flet_desktop
        import flet_desktop.version
    except ImportError:
        raise _fail("the desktop window needs the desktop extra: pip install -e '.[desktop]' "
                    "(or use `companion serve` and a browser)") from None
    if flet_desktop.version.version != flet.version.flet_version:
        raise _fail(f"the desktop window needs flet-desktop {flet.version.flet_version} "
                    f"(installed: {flet_desktop.version.version}): pip install -e '.[desktop]'")
    view_path = os.environ.get("FLET_VIEW_PATH")
    if view_path and (Path(view_path) / "flet").is_file():
        return
    import tarfile

    try:
        flet_desktop.ensure_client_cached()
    except (OSError, tarfile.TarError) as exc:  # urllib's errors are OSErrors
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
        raise _fail(f"Flet's desktop client {flet_desktop.version.version} is not on this computer and could not "
                    f"be downloaded ({reason}). Use `companion serve` and open its address in a browser.") from None


def cmd_desktop(args) -> None:
    import flet as ft

    from companion.app import make_main

    desktop_client_ready()
    ctx = _context(args)
    settle_garbage_collector()
    ft.run(make_main(ctx), assets_dir=str(ASSETS), view=ft.AppView.FLET_APP)


def cmd_export(args) -> None:
    import gzip

    from companion.exchange import GZIP_FROM, dumps, export_campaign
    from companion.log import NotFound

    ctx = _context(args, start_backup=False)  # reading needs no backup (and would rotate real ones out)
    try:
        payload = export_campaign(ctx.store, args.campaign)
    except NotFound as exc:
        raise _fail(str(exc)) from None
    packed = args.file.endswith(".gz")  # the name says gzip; `companion import` reads either
    data = dumps(payload).encode("utf-8")
    try:
        Path(args.file).write_bytes(gzip.compress(data, mtime=0) if packed else data)
    except OSError as exc:
        raise _fail(f"can't write {args.file}: {exc.strerror or exc}") from None
    hint = " (name it .json.gz to compress it)" if not packed and len(data) >= GZIP_FROM else ""
    print(f"Exported campaign {args.campaign} ({len(payload['log']) - 1} actions) to {args.file}{hint}")


def _import_source(arg: str) -> bytes | str:
    """The file's bytes, or the argument itself when it is QR text (TC1:…) pasted on the command line."""
    from companion.exchange import QR_PREFIX

    if arg.startswith(QR_PREFIX):
        return arg
    try:
        return Path(arg).read_bytes()
    except OSError as exc:
        raise _fail(f"can't read {arg}: {exc.strerror or exc}") from None


def cmd_import(args) -> None:
    from companion.exchange import ImportRefused, import_campaign

    raw = _import_source(args.file)
    ctx = _context(args, start_backup=False)  # the import is one transaction: all of it or nothing
    try:
        new_id = import_campaign(ctx.store, raw)
    except ImportRefused as exc:
        raise _fail(f"not imported: {exc}") from None
    print(f"Imported as campaign {new_id}")


def cmd_replay(args) -> None:
    from companion.exchange import ImportRefused, check_structure, parse_payload
    from companion.games import get_game
    from companion.log import replay

    try:
        exported = check_structure(parse_payload(_import_source(args.file)))
    except ImportRefused as exc:
        raise _fail(str(exc)) from None
    started = time.perf_counter()
    try:
        report = replay(get_game(exported.game), exported.settings, [e.model_dump() for e in exported.log],
                        seed=exported.seed)
    except Exception as exc:  # the rules met an action they can't take, or a state that isn't the game's
        from pydantic import ValidationError

        from companion.log import format_errors

        logging.getLogger(__name__).info("replay failed", exc_info=True)
        said = format_errors(exc) if isinstance(exc, ValidationError) else exc.args[0] if exc.args else type(exc).__name__
        raise _fail(f"the log can't be replayed: {said}") from None
    took = (time.perf_counter() - started) * 1000
    if report.ok:
        print(f"OK: {report.checked} actions replayed, every recorded state and die matches ({took:.0f} ms).")
    else:
        print(f"MISMATCH after replaying {report.checked} actions:")
        for line in report.mismatches:
            print(f"  - {line}")
        raise SystemExit(1)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="companion", description="The table companion app.")
    parser.add_argument("--db", default=None, help="database URL (default: SQLite in your user data folder; "
                                                   "or set COMPANION_DATABASE_URL)")
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="serve the app to browsers and phones on the LAN")
    serve.add_argument("--host", default=os.environ.get("COMPANION_HOST", "0.0.0.0"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("COMPANION_PORT", "8550")))
    who = serve.add_mutually_exclusive_group()
    who.add_argument("--token", default=None, help="join token, 16+ characters (default: the table's own, "
                                                   "kept in the save across restarts)")
    who.add_argument("--new-token", action="store_true", help="make a new join token: every phone must scan again")
    who.add_argument("--open", action="store_true", help="no join token: anyone on the network may open it")
    serve.add_argument("--quiet", action="store_true", help="don't print the QR code")
    serve.add_argument("--https", action="store_true",
                       help="serve over https with a self-signed certificate kept with the data: each phone "
                            "accepts a warning once, and gets the real wake lock, clipboard and app install")
    sub.add_parser("desktop", help="open the app in a native window (needs the desktop extra; Flet's client is "
                                  "downloaded once, on first use)")
    export = sub.add_parser("export", help="export a campaign to a JSON file")
    export.add_argument("campaign", type=int)
    export.add_argument("file")
    imp = sub.add_parser("import", help="import a campaign from a JSON file or QR text (TC1:…)")
    imp.add_argument("file", help="the file, or the QR text itself")
    rep = sub.add_parser("replay", help="rebuild a campaign from an exported log and check every state")
    rep.add_argument("file", help="the file, or the QR text itself")
    args = parser.parse_args(argv)
    if args.command is None:  # plain `companion` serves, with serve's defaults
        args = parser.parse_args([*(argv if argv is not None else sys.argv[1:]), "serve"])
    logging.basicConfig(level=os.environ.get("COMPANION_LOG", "WARNING"))
    commands = {"serve": cmd_serve, "desktop": cmd_desktop, "export": cmd_export, "import": cmd_import,
                "replay": cmd_replay}
    from models.db import default_url, is_database_error, plain_db_error, sqlite_path

    try:
        commands[args.command](args)
    except Exception as exc:
        if not is_database_error(exc):
            raise
        where = sqlite_path(args.db or default_url())
        raise _fail(plain_db_error(exc, where)) from None  # a locked or full save: a sentence, not SQL


if __name__ == "__main__":
    main()

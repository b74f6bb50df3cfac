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


def _context(args, **kw):
    from companion.context import AppContext
    from models.db import DatabaseError

    try:
        return AppContext.open(args.db, **kw)
    except DatabaseError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def build_web_app(ctx, token):
    """The served app: Flet's web client and sessions, behind the join gate."""
    import flet as ft

    from companion.app import make_main
    from companion.share import JoinGate

    flet_app = ft.run(make_main(ctx), export_asgi_app=True, assets_dir=str(ASSETS), no_cdn=True)
    return JoinGate(flet_app, token)


def cmd_serve(args) -> None:
    import uvicorn

    from companion.share import join_url, lan_address, new_token, print_qr

    token = None if args.open else (args.token or os.environ.get("COMPANION_JOIN_TOKEN") or new_token())
    shown_host = args.host if args.host not in ("0.0.0.0", "::") else lan_address()
    url = join_url(shown_host, args.port, token)
    ctx = _context(args, join_url=url, token=token)
    app = build_web_app(ctx, token)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio")
    server = uvicorn.Server(config)

    original_startup = server.startup

    async def startup(*a, **kw):
        await original_startup(*a, **kw)
        print(f"Table Companion is ready: {url}", flush=True)
        if not args.quiet:
            print("Scan to join from a phone on the same Wi-Fi:")
            print_qr(url)
            print(f"Database: {ctx.db.url}", flush=True)

    server.startup = startup
    server.run()


def cmd_desktop(args) -> None:
    import flet as ft

    from companion.app import make_main

    ctx = _context(args)
    ft.run(make_main(ctx), assets_dir=str(ASSETS), view=ft.AppView.FLET_APP)


def cmd_export(args) -> None:
    from companion.exchange import dumps, export_campaign

    ctx = _context(args)
    payload = export_campaign(ctx.store, args.campaign)
    Path(args.file).write_text(dumps(payload), encoding="utf-8")
    print(f"Exported campaign {args.campaign} ({len(payload['log']) - 1} actions) to {args.file}")


def cmd_import(args) -> None:
    from companion.exchange import ImportRefused, import_campaign

    ctx = _context(args)
    try:
        new_id = import_campaign(ctx.store, Path(args.file).read_bytes())
    except ImportRefused as exc:
        print(f"companion: not imported: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"Imported as campaign {new_id}")


def cmd_replay(args) -> None:
    from companion.exchange import ImportRefused, parse_payload
    from companion.games import get_game, is_known
    from companion.log import replay

    try:
        data = parse_payload(Path(args.file).read_bytes())
    except (ImportRefused, OSError) as exc:
        print(f"companion: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if not is_known(data.get("game", "")):
        print(f"companion: unknown game {data.get('game')!r}", file=sys.stderr)
        raise SystemExit(2)
    started = time.perf_counter()
    report = replay(get_game(data["game"]), data.get("settings", {}), data.get("log", []))
    took = (time.perf_counter() - started) * 1000
    if report.ok:
        print(f"OK: {report.checked} actions replayed, every recorded state matches ({took:.0f} ms).")
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
    serve.add_argument("--token", default=None, help="join token (default: a new random one)")
    serve.add_argument("--open", action="store_true", help="no join token: anyone on the network may open it")
    serve.add_argument("--quiet", action="store_true", help="don't print the QR code")
    sub.add_parser("desktop", help="open the app in a native window (downloads Flet's client on first use)")
    export = sub.add_parser("export", help="export a campaign to a JSON file")
    export.add_argument("campaign", type=int)
    export.add_argument("file")
    imp = sub.add_parser("import", help="import a campaign from a JSON file")
    imp.add_argument("file")
    rep = sub.add_parser("replay", help="rebuild a campaign from an exported log and check every state")
    rep.add_argument("file")
    args = parser.parse_args(argv)
    logging.basicConfig(level=os.environ.get("COMPANION_LOG", "WARNING"))
    commands = {"serve": cmd_serve, "desktop": cmd_desktop, "export": cmd_export, "import": cmd_import,
                "replay": cmd_replay}
    commands.get(args.command or "serve")(args)


if __name__ == "__main__":
    main()

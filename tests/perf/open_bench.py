"""A phone's first and later open of the app on a table's Wi-Fi (#27): bytes over the air, time to a
usable home screen, and the laptop's CPU for it; the companion before (its web client served as Flet
serves it: COMPANION_WEB_PLAIN=1) and after (companion/web_client.py), beside a bare Flet app served
by Flet's own server. And what compressing in the server instead would cost the laptop per phone.

    python -m tests.perf.open_bench        (also part of `make bench`)

The Wi-Fi is Chromium's network emulation (DevTools' Network.emulateNetworkConditions): 20 Mbit/s down,
10 up, 40 ms round trip. A first open is a phone that joined but never loaded the app (an empty cache);
a later open is the same phone opening it again (its cache kept).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.browser import PHONE, ROOT, cpu_seconds, free_port, launch, new_context, served, wait_for_port

WIFI = {"offline": False, "latency": 40, "downloadThroughput": 20e6 / 8, "uploadThroughput": 10e6 / 8,
        "connectionType": "wifi"}
TOKEN = "bench-open-token-0123456789"
RUNS = int(os.environ.get("BENCH_OPEN_RUNS", "3"))


def one_open(context, url: str, usable: str) -> dict:
    """Open `url` in a new page of `context` on the emulated Wi-Fi; bytes received (headers included),
    requests answered by the network and by the cache, seconds to `usable` shown."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", WIFI)
    seen = {"bytes": 0, "network": 0, "cached": 0, "not_modified": 0}

    def finished(e):
        seen["bytes"] += e["encodedDataLength"]

    def received(e):
        response = e["response"]
        if response.get("fromDiskCache") or response.get("fromMemoryCache"):
            seen["cached"] += 1
        elif response["url"].startswith("http"):
            seen["network"] += 1
            seen["not_modified"] += response["status"] == 304
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.responseReceived", received)
    started = time.perf_counter()
    page.goto(url)
    page.get_by_text(usable).first.wait_for(timeout=120_000)
    seen["seconds"] = time.perf_counter() - started
    page.wait_for_load_state("networkidle")
    page.close()
    return seen


def phone_opens(browser, url: str, usable: str, *, cookie_url: str | None = None, server_pid: int | None = None) -> dict:
    """RUNS phones, each a first open then a later one: the median of each figure."""
    firsts, laters = [], []
    for _ in range(RUNS):
        context = new_context(browser, viewport=PHONE)
        if cookie_url:
            from companion.share import COOKIE

            context.add_cookies([{"name": COOKIE, "value": TOKEN, "url": cookie_url}])
        cpu = cpu_seconds(server_pid) if server_pid else 0.0
        first = one_open(context, url, usable)
        first["cpu"] = cpu_seconds(server_pid) - cpu if server_pid else 0.0
        firsts.append(first)
        laters.append(one_open(context, url, usable))
        context.close()

    def median(runs):
        return {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    return {"first": median(firsts), "later": median(laters)}


def compressing_in_the_server() -> dict:
    """CPU seconds the laptop spends per phone's first open on the client's big files: compressed by
    Starlette's GZipMiddleware for each request (level 9, its default, and 6), or sent from the copies
    made once (companion/web_client.py). In this process, through Starlette's test client."""
    import flet as ft
    from starlette.middleware.gzip import GZipMiddleware
    from starlette.testclient import TestClient

    from companion.__main__ import ASSETS
    from companion.web_client import ClientDelivery, client_files

    flet_app = ft.run(lambda page: None, export_asgi_app=True, assets_dir=str(ASSETS), no_cdn=True)
    files = client_files(ASSETS)
    big = ["main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.wasm", "canvaskit/skwasm.js",
           "assets/fonts/MaterialIcons-Regular.otf"]  # what Chromium fetched first here (the skwasm build)
    result = {}
    for name, app, prefix in [("gzip 9 per request", GZipMiddleware(flet_app, compresslevel=9), "/"),
                              ("gzip 6 per request", GZipMiddleware(flet_app, compresslevel=6), "/"),
                              ("made once (ours)", ClientDelivery(flet_app, files), f"/_client/{files.key}/")]:
        client = TestClient(app)
        client.get("/")
        cpu = time.process_time()
        sent = 0
        for rel in big:
            path = prefix + rel if not rel.startswith("assets/") else "/" + rel
            with client.stream("GET", path, headers={"accept-encoding": "gzip, deflate"}) as response:
                sent += sum(len(chunk) for chunk in response.iter_raw())
        result[name] = (time.process_time() - cpu, sent)
    return result


def make_compressed_copies() -> float:
    """The gzip copies (what Chromium takes over plain http) made before measuring, once per flet-web
    version; the brotli ones go on in the served app's background compressor, at the lowest priority."""
    from companion.__main__ import ASSETS
    from companion.web_client import client_files, compress_all

    files = client_files(ASSETS)
    if files.complete:
        return 0.0
    cpu = time.process_time()
    compress_all(files, encodings=("gzip",))
    return time.process_time() - cpu


def run() -> dict:
    from playwright.sync_api import sync_playwright

    made = make_compressed_copies()
    results = {"compress_once_cpu": made}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = launch(p)
        for name, env in [("before", {"COMPANION_WEB_PLAIN": "1"}), ("after", {})]:
            with served(f"sqlite:///{Path(tmp) / (name + '.sqlite')}", token=TOKEN, extra_env=env) as app:
                results[name] = phone_opens(browser, app["base"], "New campaign", cookie_url=app["base"],
                                            server_pid=app["proc"].pid)
        port = free_port()
        bare = subprocess.Popen([sys.executable, "-m", "tests.perf.bare_app", str(port)], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(port, proc=bare)
            results["bare"] = phone_opens(browser, f"http://127.0.0.1:{port}/", "Hello, table", server_pid=bare.pid)
        finally:
            bare.terminate()
            bare.wait()
        browser.close()
    results["in_server"] = compressing_in_the_server()
    return results


def report(results: dict) -> str:
    lines = [f"a phone's open on table Wi-Fi (20 Mbit/s down, 40 ms round trip; median of {RUNS} phones):"]
    names = {"before": "companion, before (as Flet serves)", "after": "companion, after (compressed, cached)",
             "bare": "bare Flet hello-world (Flet's server)"}
    for key in ("before", "after", "bare"):
        for kind in ("first", "later"):
            r = results[key][kind]
            lines.append(f"  {names[key]:<39} {kind:<5} open: {r['bytes'] / 1e6:6.2f} MB, "
                         f"usable in {r['seconds']:5.2f} s; {r['network']:.0f} asked of the laptop "
                         f"({r['not_modified']:.0f} unchanged: 304), {r['cached']:.0f} from the phone's cache"
                         + (f"; laptop CPU {r['cpu'] * 1000:.0f} ms" if kind == "first" else ""))
    lines.append("the laptop's CPU for a first open's big files (main.dart.wasm/.mjs, skwasm, Material icons):")
    for name, (cpu, sent) in results["in_server"].items():
        lines.append(f"  {name:<22} {cpu * 1000:6.0f} ms per phone, {sent / 1e6:.2f} MB sent")
    if results["compress_once_cpu"]:
        lines.append(f"  the gzip copies made once (every file, level 9): {results['compress_once_cpu']:.1f} s CPU")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run()))

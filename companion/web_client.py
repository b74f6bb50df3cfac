"""How `companion serve` delivers Flet's web client to a phone: compressed, cached, and from the laptop only.

Flet's own server sends the client's large files (main.dart.js 9.6 MB, CanvasKit's wasm 5.8-7.2 MB,
main.dart.wasm 8.5 MB) uncompressed, with an ETag and no cache lifetime, so every open of the app asks
again for every file; and the client asks a public CDN for Rive's runtime at start (#27, #30). Here:

- **Compressed once, not per request.** Each file of the client is compressed (gzip level 9 and brotli
  quality 11) once per flet-web version into the user's cache folder, by a low-priority background
  process that the first `serve` starts; until a file's compressed copy is there it goes out plain.
  Compressing in the server instead (Starlette's GZipMiddleware) cost the laptop 1.9 s of CPU per
  phone's first open at gzip 9 (0.9 s at 6), in the event loop every phone's taps go through; the
  copies made once cost 31 ms per phone to send, the same 4.8 MB. Brotli 11 takes up to ~30 s a file
  (19-20 % smaller than gzip 9) and is only possible ahead of time. `make bench` measures this.
- **Versioned URLs, cached for good; the page always checked.** None of flet-web's file names carry a
  hash or version, and Flet busts no cache (its service worker only unregisters itself). So the served
  page points the client's entrypoint and CanvasKit at `/_client/<key>/…`, where the key changes with
  the files (flet-web's version and every file's size and time); those responses are `immutable` for a
  year. The page, and every other file (flutter_bootstrap.js, fonts, our assets), is `no-cache`:
  revalidated by ETag on each open, a 304 when nothing changed.
- **Nothing from off the laptop.** main.dart.js and main.dart.wasm name Rive's runtime on a public CDN
  (`@rive-app/flutter-native-wasm`) and load it at start. The served copies name `/_client/rive/`
  instead, an equally long URL (so the wasm's layout is unchanged), where a three-line script answers
  that Rive is not available (the app has no Rive animation); Rive's loader then gives up at once.

`COMPANION_WEB_PLAIN=1` serves the client exactly as Flet does (the benchmark's "before").
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import os
import re
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

PLAIN_ENV = "COMPANION_WEB_PLAIN"
PREFIX = "/_client/"
RIVE_BASE = "/_client/rive/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
FORMAT = "1"  # bump when what is written to the cache folder changes
ENCODINGS = ("br", "gzip")  # preferred first
SUFFIX = {"br": ".br", "gzip": ".gz"}
BROTLI_QUALITY = 11
GZIP_LEVEL = 9
COMPRESS_FROM = 1024  # bytes; smaller files gain nothing worth a header
NOT_COMPRESSED = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".woff2", ".gz", ".br", ".zip", ".mp4", ".webm"}
# What the client never loads while served: Pyodide's runtime (for `flet build web` only) and debug symbols.
SKIPPED = ("pyodide/",)
SKIPPED_SUFFIXES = (".symbols", ".map")
# Flet serves its own patched copies of these (see flet_web.fastapi.flet_static_files), never the web folder's.
FLET_PATCHED = {"index.html", "manifest.json", "assets/FontManifest.json"}
RIVE_CDN = re.compile(rb"https://cdn\.jsdelivr\.net/npm/@rive-app/flutter-native-wasm@[0-9A-Za-z.\-]+/")
RIVE_NAMED_IN = ("main.dart.js", "main.dart.wasm")
RIVE_SCRIPTS = {"wasm/rive_native.js", "wasm_compatibility/rive_native.js"}
RIVE_UNAVAILABLE = b"""// Table Companion serves nothing from outside the laptop and has no Rive animation: Flet's client asks
// for Rive's runtime at start, and this answers that it is not available (Rive's loader then stops).
window.RiveNative = function () { return Promise.reject(new Error("Rive is not served by Table Companion")); };
"""

mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")


def plain_requested() -> bool:
    return os.environ.get(PLAIN_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def default_cache_root() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("table-companion", appauthor=False)) / "web-client"


def local_rive_url(cdn_url: bytes) -> bytes:
    """`RIVE_BASE` padded with "./" segments (which a browser drops) to the CDN URL's length."""
    padding = len(cdn_url) - len(RIVE_BASE)
    if padding < 0 or padding % 2:
        raise ValueError(f"can't give {cdn_url!r} a local URL of the same length")
    return RIVE_BASE.encode() + b"./" * (padding // 2)


def without_rive_cdn(data: bytes) -> bytes:
    return RIVE_CDN.sub(lambda m: local_rive_url(m.group()), data)


# Served, but loaded only when a page asks for it by name (Flutter's experimental text layout): not worth ~15 s of brotli.
NOT_WORTH_IT = ("canvaskit/experimental_webparagraph/",)


def compressible(rel: str, size: int) -> bool:
    return size >= COMPRESS_FROM and Path(rel).suffix.lower() not in NOT_COMPRESSED and not rel.startswith(NOT_WORTH_IT)


@dataclass
class ClientFiles:
    """The web client's files as served: where each one's bytes are, plain and compressed."""

    web_dir: Path
    cache_dir: Path  # this version's folder in the cache
    key: str
    sources: dict[str, Path]  # relative path → the file sent plain (the web folder's, or our patched copy)
    served_unversioned: set[str]  # the relative paths Flet would serve from the web folder at /<rel>
    encoded: dict[str, dict[str, Path]] = field(default_factory=dict)  # what the compressor finished
    complete: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def encoded_path(self, rel: str, encoding: str) -> Path:
        return self.cache_dir / "encoded" / (rel + SUFFIX[encoding])

    def variant(self, rel: str, encoding: str) -> Optional[Path]:
        """The compressed copy of `rel` in `encoding`, if it is ready."""
        known = self.encoded.get(rel, {})
        if encoding in known or self.complete:
            return known.get(encoding)
        path = self.encoded_path(rel, encoding)
        if path.is_file():  # written whole (renamed into place) by the compressor
            with self._lock:
                self.encoded.setdefault(rel, {})[encoding] = path
            return path
        return None

    def load_manifest(self) -> None:
        manifest = self.cache_dir / "encoded.json"
        if manifest.is_file():
            listed = json.loads(manifest.read_text())
            with self._lock:
                self.encoded = {rel: {enc: self.encoded_path(rel, enc) for enc in encs} for rel, encs in listed.items()}
                self.complete = True

    def compressor_command(self) -> list[str]:
        return [sys.executable, "-m", "companion.web_client", str(self.web_dir), str(self.cache_dir)]


def web_dir() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


def client_files(assets_dir: Optional[Path], cache_root: Optional[Path] = None, web: Optional[Path] = None) -> ClientFiles:
    """The client's file table; writes this version's Rive-free main.dart.js/.wasm once (~0.1 s)."""
    from flet_web.version import version as flet_web_version

    web = web or web_dir()
    stats = {}
    for path in sorted(web.rglob("*")):
        rel = path.relative_to(web).as_posix()
        if (path.is_file() and not rel.startswith(SKIPPED) and not rel.endswith(SKIPPED_SUFFIXES)
                and rel not in FLET_PATCHED):
            stats[rel] = path.stat()
    digest = hashlib.sha256(f"{FORMAT} {flet_web_version} {web}".encode())
    for rel, st in stats.items():
        digest.update(f"\n{rel} {st.st_size} {st.st_mtime_ns}".encode())
    key = digest.hexdigest()[:16]
    cache_dir = (cache_root or default_cache_root()) / key
    sources = {rel: web / rel for rel in stats}
    for rel in RIVE_NAMED_IN:
        if rel in sources:
            sources[rel] = _rive_free_copy(web / rel, cache_dir / "patched" / rel)
    shadowed = {rel for rel in stats if assets_dir is not None and (assets_dir / rel).is_file()}
    files = ClientFiles(web_dir=web, cache_dir=cache_dir, key=key, sources=sources,
                        served_unversioned=set(stats) - shadowed)
    files.load_manifest()
    return files


def _rive_free_copy(original: Path, copy: Path) -> Path:
    if copy.is_file():
        return copy
    data = original.read_bytes()
    patched = without_rive_cdn(data)
    if patched == data:
        return original  # this client names no Rive CDN
    _write_atomically(copy, patched)
    return copy


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def compress_all(files: ClientFiles, *, encodings=("gzip", "br"), brotli_quality: int = BROTLI_QUALITY,
                 only: Optional[set[str]] = None, server_pid: Optional[int] = None) -> dict[str, list[str]]:
    """Write each compressible file's compressed copies (gzip first, for every file, biggest first; then
    brotli), skipping what is already there; then the manifest, once every file has all its copies."""
    import brotli

    todo = sorted((rel for rel, src in files.sources.items()
                   if (only is None or rel in only) and compressible(rel, src.stat().st_size)),
                  key=lambda rel: -files.sources[rel].stat().st_size)
    done: dict[str, list[str]] = {}
    for encoding in encodings:
        for rel in todo:
            if server_pid is not None and os.getppid() != server_pid:
                return done  # the server is gone (where the parent-death signal is not to be had)
            target = files.encoded_path(rel, encoding)
            if not target.is_file():
                data = files.sources[rel].read_bytes()
                packed = (gzip.compress(data, GZIP_LEVEL, mtime=0) if encoding == "gzip"
                          else brotli.compress(data, quality=brotli_quality))
                if len(packed) >= len(data) * 0.95:
                    continue  # not worth a decoding step: sent plain
                _write_atomically(target, packed)
            done.setdefault(rel, []).append(encoding)
    if only is None and set(encodings) == set(ENCODINGS):
        _write_atomically(files.cache_dir / "encoded.json", json.dumps(done, sort_keys=True).encode())
    return done


def start_compressor(files: ClientFiles) -> Optional[subprocess.Popen]:
    """Compress what is missing in a background process at the lowest priority; the server picks up each
    file as it is written. None when everything is there already."""
    if files.complete:
        return None
    kwargs = {"preexec_fn": _lowest_priority_child} if os.name == "posix" else {}
    proc = subprocess.Popen([*files.compressor_command(), str(os.getpid())], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)

    def finished():
        if proc.wait() == 0:
            files.load_manifest()
    threading.Thread(target=finished, name="web-client-compressor", daemon=True).start()
    return proc


def _lowest_priority_child() -> None:
    """In the compressor, before it starts: the lowest CPU priority, and (Linux) ended with the server."""
    os.nice(19)
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def accepted_encodings(header: str) -> list[str]:
    """The encodings of ENCODINGS a browser's Accept-Encoding allows (q > 0), ours preferred first."""
    allowed = {}
    for part in header.split(","):
        name, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name:
            allowed[name.strip().lower()] = quality
    wildcard = allowed.get("*", 0.0)
    return [enc for enc in ENCODINGS if allowed.get(enc, wildcard) > 0]


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


ENTRYPOINT = re.compile(r'flet\.entrypointBaseUrl="([^"]*)";')
CANVASKIT = re.compile(r'flet\.canvasKitBaseUrl="([^"]*)canvaskit/";')


class ClientDelivery:
    """ASGI middleware in front of Flet's app: serves the web client's files itself (compressed when the
    browser accepts it, each with its Cache-Control), points the page at the versioned URLs, and marks
    every other response of Flet's `no-cache`."""

    def __init__(self, app, files: ClientFiles):
        self.app = app
        self.files = files
        self.versioned = f"{PREFIX}{files.key}/"

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        if path.startswith(PREFIX):
            return await self._versioned(path, scope, receive, send)
        rel = path[1:]
        if rel in self.files.served_unversioned:
            return await self._file(rel, REVALIDATE, scope, receive, send)
        return await self.app(scope, receive, self._flet_response(scope, send))

    async def _versioned(self, path, scope, receive, send):
        if path.startswith(RIVE_BASE):
            rel = os.path.normpath(path[len(RIVE_BASE):]).replace(os.sep, "/")
            if rel in RIVE_SCRIPTS:
                return await _send_bytes(send, scope, RIVE_UNAVAILABLE, "text/javascript", REVALIDATE)
            return await _send_bytes(send, scope, b"Not found", "text/plain", REVALIDATE, status=404)
        if not path.startswith(self.versioned) or path[len(self.versioned):] not in self.files.sources:
            # Another version's URL (a page from before a restart with another flet-web): not ours to answer.
            return await _send_bytes(send, scope, b"Not found", "text/plain", REVALIDATE, status=404)
        return await self._file(path[len(self.versioned):], IMMUTABLE, scope, receive, send)

    async def _file(self, rel, cache_control, scope, receive, send):
        from starlette.responses import FileResponse, Response

        source = self.files.sources[rel]
        encoding, body = None, source
        if compressible(rel, source.stat().st_size):
            for accepted in accepted_encodings(_header(scope, b"accept-encoding")):
                variant = self.files.variant(rel, accepted)
                if variant is not None:
                    encoding, body = accepted, variant
                    break
        etag = f'"{self.files.key}-{encoding or "identity"}"'
        headers = {"cache-control": cache_control, "etag": etag, "vary": "accept-encoding"}
        if encoding:
            headers["content-encoding"] = encoding
        if etag in [tag.strip() for tag in _header(scope, b"if-none-match").split(",")]:
            return await Response(status_code=304, headers=headers)(scope, receive, send)
        media_type = mimetypes.guess_type(rel)[0] or "application/octet-stream"
        return await FileResponse(body, headers=headers, media_type=media_type, stat_result=body.stat())(scope, receive, send)

    def _flet_response(self, scope, send):
        """`send` for Flet's response: `no-cache` unless it says otherwise; the page pointed at the
        versioned client, with an ETag of its own (its body differs from the file Flet's ETag is of)."""
        state = {"page": False, "start": None, "body": []}

        async def wrapped(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                headers.append((b"cache-control", REVALIDATE.encode()))
                content_type = dict((k.lower(), v) for k, v in headers).get(b"content-type", b"")
                if message["status"] == 200 and content_type.startswith(b"text/html"):
                    state["page"], state["start"] = True, dict(message, headers=headers)
                    return
                return await send(dict(message, headers=headers))
            if message["type"] == "http.response.body" and state["page"]:
                state["body"].append(message.get("body", b""))
                if message.get("more_body"):
                    return
                return await self._send_page(scope, send, state["start"], b"".join(state["body"]))
            return await send(message)
        return wrapped

    def versioned_page(self, page: bytes) -> bytes:
        text = page.decode("utf-8")
        text = ENTRYPOINT.sub(lambda m: f'flet.entrypointBaseUrl="{self.versioned}";', text, count=1)
        text = CANVASKIT.sub(lambda m: f'flet.canvasKitBaseUrl="{self.versioned}canvaskit/";', text, count=1)
        return text.encode("utf-8")

    async def _send_page(self, scope, send, start, page):
        body = self.versioned_page(page)
        etag = '"page-' + hashlib.sha256(body).hexdigest()[:20] + '"'
        drop = {b"content-length", b"etag", b"last-modified", b"content-encoding", b"vary"}
        headers = [(k, v) for k, v in start["headers"] if k.lower() not in drop]
        headers += [(b"etag", etag.encode()), (b"vary", b"accept-encoding")]
        if etag in [tag.strip() for tag in _header(scope, b"if-none-match").split(",")]:
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            return await send({"type": "http.response.body", "body": b""})
        if "gzip" in accepted_encodings(_header(scope, b"accept-encoding")):
            body = gzip.compress(body, 6, mtime=0)  # a few kB: cheap to do per request
            headers.append((b"content-encoding", b"gzip"))
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


async def _send_bytes(send, scope, body: bytes, media_type: str, cache_control: str, status: int = 200):
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", media_type.encode()), (b"content-length", str(len(body)).encode()),
        (b"cache-control", cache_control.encode())]})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


def deliver(flet_app, assets_dir: Path, cache_root: Optional[Path] = None):
    """Flet's ASGI app behind ClientDelivery (or as it is, with COMPANION_WEB_PLAIN=1); starts the
    compressor when this flet-web's compressed copies are not all made yet."""
    if plain_requested():
        return flet_app
    files = client_files(assets_dir, cache_root)
    proc = start_compressor(files)
    if proc is not None:
        import atexit

        atexit.register(_stop, proc)  # what it finished is kept; the next start goes on from there
    return ClientDelivery(flet_app, files)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


def _compress_main(web: str, cache_dir: str, server_pid: Optional[int] = None) -> None:
    """The background compressor: one at a time per version (a lock file), leftovers of a stopped one removed."""
    folder = Path(cache_dir)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return  # another server's compressor is at it
        except ImportError:
            pass  # (Windows: no lock; two compressors would write the same bytes)
        for stale in folder.rglob(".*.tmp"):
            stale.unlink(missing_ok=True)
        files = client_files(None, folder.parent, Path(web))
        if files.cache_dir != folder:
            return  # the web folder changed since the server started
        compress_all(files, server_pid=server_pid)


if __name__ == "__main__":
    _compress_main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else None)

"""`make web`: the whole app as a static site in build/web/, for a phone alone (no laptop, no server).

What it does, and why it doesn't call `flet publish`: flet-cli 1.0.5's publish reaches the internet
twice (a python-build manifest, and a Pyodide core that flet-web already ships) and writes a
pyodideUrl the worker can't resolve with `--no-cdn`; its useful steps are few, so they are done here
with flet-web's own helpers (`patch_index_html`, `patch_font_manifest_json`):

1. flet-web's prebuilt Flutter client is copied, less what the CanvasKit renderer never loads
   (the dart2wasm build, skwasm, debug symbols, Pyodide's command-line files and micropip).
2. The app's `assets/` go over it (our index.html, manifest, icons, companion.js), with phone.js
   and the service worker (sw.js) of `companion/web/static/`.
3. The app's Python is packed into app.tar.gz: `companion/` and `models/`, the assets Python reads,
   an entry `main.py` that runs `companion.web.phone`, and `__pypackages__/` holding every
   dependency that runs in a browser, unpacked from the wheels pinned in uv.lock (hash-checked,
   downloaded once into build/.web-cache/). The python-worker puts `__pypackages__` on
   sys.path; with no requirements.txt and no pyproject.toml in the archive it never runs micropip,
   so nothing is fetched from the internet at run time.
4. Bytecode is compiled by Pyodide's own Python (the runtime flet-web ships, run by Node), so the
   phone imports .pyc instead of compiling ~10 MB of source at every start.
5. Every file a static host would compress gets a .gz beside it.

Only the network named above is used (PyPI's file host, at the URLs uv.lock names), and only for
wheels not yet in the cache.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path
from typing import Iterable, Optional

ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(__file__).resolve().parent / "static"
DEFAULT_OUT = ROOT / "build" / "web"
CACHE = ROOT / "build" / ".web-cache"

# Never in the browser: the laptop's web server, its TLS certificate maker, and Flet's server side.
SERVER_ONLY = {"flet-web", "uvicorn", "cryptography", "brotli"}  # brotli: the served client's precompressed copies
# No browser wheel exists; the package works without its C speedups (a wheel of any platform,
# less its compiled modules, is its pure-Python self).
PURE_FALLBACK = {"markupsafe": ["--platform", "manylinux2014_x86_64"]}

# What flet-web's client ships that the CanvasKit renderer in a Pyodide app never loads.
CLIENT_UNUSED = [
    "main.dart.wasm", "main.dart.mjs", "flutter.js.map", "flutter_service_worker.js",
    "canvaskit/skwasm.js", "canvaskit/skwasm.wasm", "canvaskit/skwasm_heavy.js", "canvaskit/skwasm_heavy.wasm",
    "canvaskit/wimp.js", "canvaskit/wimp.wasm", "canvaskit/experimental_webparagraph",
    "pyodide/python", "pyodide/python.bat", "pyodide/python.exe", "pyodide/python_cli_entry.mjs",
    "pyodide/ffi.d.ts", "pyodide/pyodide.d.ts", "pyodide/pyodide.js",
]
CLIENT_UNUSED_GLOBS = ["**/*.symbols", "pyodide/micropip-*.whl", "pyodide/packaging-*.whl"]

# Parts of packages the app never imports in a browser (their test helpers, licence texts kept in the wheels).
PACKAGE_UNUSED = ("sqlalchemy/testing/", "flet/testing/", "alembic/testing/", ".dist-info/licenses/")
# Kept as source although bytecode is compiled: Alembic reads its env.py and revisions as .py files.
KEEP_SOURCE = ("models/migrations/", "main.py")

# Precompressed copies (.gz) for these; images, woff2 and archives are compressed already.
COMPRESSIBLE = {".js", ".mjs", ".wasm", ".json", ".html", ".css", ".txt", ".otf", ".ttf", ".bin", ".zip", ""}
ENTRY = '''"""The app on a phone alone (written by companion/web/build.py)."""
from companion.web.phone import run

run()
'''


def log(message: str) -> None:
    print(f"web: {message}", flush=True)


# --- the runtime's facts ---


def client_dir() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


def pyodide_info(web: Path) -> dict:
    """The Python, ABI and Pyodide version of the runtime flet-web ships."""
    info = json.loads((web / "pyodide" / "pyodide-lock.json").read_text())["info"]
    version = json.loads((web / "pyodide" / "package.json").read_text())["version"]
    major, minor = info["python"].split(".")[:2]
    return {"pyodide": version, "python": info["python"], "py": f"{major}.{minor}", "cp": f"cp{major}{minor}",
            "platform": f"pyemscripten_{info['abi_version']}_{info['arch']}"}


def marker_env(rt: dict) -> dict:
    return {"sys_platform": "emscripten", "platform_system": "Emscripten", "platform_machine": "wasm32",
            "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython",
            "python_version": rt["py"], "python_full_version": rt["python"], "platform_release": "",
            "platform_version": "", "implementation_version": rt["python"], "extra": ""}


# --- the locked packages that run in a browser ---


def find_lock(given: Optional[str]) -> Path:
    lock = Path(given) if given else ROOT / "uv.lock"
    if not lock.exists():
        raise SystemExit(f"web: no lock file at {lock} (the versions the app is tested with); pass --lock FILE")
    return lock


def browser_packages(lock_path: Path, rt: dict, roots: Optional[list[str]] = None) -> list[dict]:
    """The lock's entries for the app's dependencies (or `roots`) and theirs, as a browser resolves them."""
    try:
        from packaging.markers import Marker
        from packaging.requirements import Requirement
        from packaging.utils import canonicalize_name
    except ImportError:  # a dev dependency (pytest's); without it, pip's vendored copy
        from pip._vendor.packaging.markers import Marker
        from pip._vendor.packaging.requirements import Requirement
        from pip._vendor.packaging.utils import canonicalize_name

    lock = {p["name"]: p for p in tomllib.loads(lock_path.read_text())["package"]}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = marker_env(rt)
    wanted: list[str] = list(roots or [])
    for spec in ([] if roots else project["dependencies"]):
        req = Requirement(spec)
        if (req.marker is None or req.marker.evaluate(env)) and canonicalize_name(req.name) not in SERVER_ONLY:
            wanted.append(canonicalize_name(req.name))
    seen: dict[str, dict] = {}
    while wanted:
        name = wanted.pop()
        if name in seen or name in SERVER_ONLY:
            continue
        if name not in lock:
            raise SystemExit(f"web: {name} is not in {lock_path}")
        seen[name] = lock[name]
        for dep in lock[name].get("dependencies", []):
            if "marker" not in dep or Marker(dep["marker"]).evaluate(env):
                wanted.append(canonicalize_name(dep["name"]))
    return [seen[n] for n in sorted(seen)]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _wheel_fits(filename: str, rt: dict, name: str) -> bool:
    if name in PURE_FALLBACK:
        return "manylinux2014_x86_64" in filename and f"-{rt['cp']}-{rt['cp']}-" in filename
    return filename.endswith("-none-any.whl") or filename.endswith(f"-{rt['cp']}-{rt['cp']}-{rt['platform']}.whl")


def _local_copy(filename: str) -> Optional[Path]:
    """A wheel already on this machine: pip's find-links folders (PIP_FIND_LINKS), as offline machines keep them."""
    for folder in os.environ.get("PIP_FIND_LINKS", "").split():
        folder = folder.removeprefix("file://")
        if folder and (Path(folder) / filename).is_file():
            return Path(folder) / filename
    return None


def _download(url: str, target: Path, digest: str) -> None:
    """One wheel from the lock's URL (PyPI's file host), kept only when its sha256 is the lock's."""
    import ssl
    import urllib.request

    cafile = os.environ.get("PIP_CERT") or os.environ.get("SSL_CERT_FILE") or None
    context = ssl.create_default_context(cafile=cafile)
    partial = target.with_name(target.name + ".part")
    with urllib.request.urlopen(url, timeout=180, context=context) as response, partial.open("wb") as out:
        shutil.copyfileobj(response, out)
    if _sha256(partial) != digest:
        partial.unlink()
        raise SystemExit(f"web: {target.name} from {url} does not match the hash in uv.lock")
    partial.replace(target)


def fetch_wheels(packages: list[dict], rt: dict, cache: Path) -> list[Path]:
    """One wheel per package, checked against the lock's hash: from the cache, a local wheel folder, or the
    lock's own URL. (Not pip: `uv sync` makes a venv without it.)"""
    wheels_dir = cache / "wheels"
    wheels_dir.mkdir(parents=True, exist_ok=True)
    chosen: list[Path] = []
    for pkg in packages:
        name = pkg["name"]
        fits = [w for w in pkg.get("wheels", []) if _wheel_fits(w["url"].rsplit("/", 1)[-1], rt, name)]
        if not fits:
            raise SystemExit(f"web: {name} {pkg['version']} has no wheel that runs in the browser")
        wheel = fits[-1] if name in PURE_FALLBACK else sorted(fits, key=lambda w: "none-any" in w["url"])[0]
        filename = wheel["url"].rsplit("/", 1)[-1]
        target = wheels_dir / filename
        digest = wheel["hash"].split(":", 1)[1]
        if not (target.exists() and _sha256(target) == digest):
            local = _local_copy(filename)
            if local is not None and _sha256(local) == digest:
                shutil.copy2(local, target)
            else:
                log(f"downloading {filename}")
                _download(wheel["url"], target, digest)
        chosen.append(target)
    return chosen


def unpack_wheels(wheels: Iterable[Path], into: Path, languages: set[str]) -> None:
    """Unpack into __pypackages__: no compiled modules of another platform, no signatures, and
    Babel's locale data only for the app's languages (its whole set is ~30 MB)."""
    babel_data = re.compile(r"^babel/locale-data/(?P<name>[^/]+)\.dat$")
    for wheel in wheels:
        pure_fallback = any(wheel.name.lower().startswith(n) for n in PURE_FALLBACK)
        with zipfile.ZipFile(wheel) as zf:
            for item in zf.infolist():
                name = item.filename
                if item.is_dir() or name.endswith(("/RECORD", "/INSTALLER", "/WHEEL", ".pyi", "/py.typed")):
                    continue
                if any(part in name for part in PACKAGE_UNUSED):
                    continue
                if pure_fallback and name.endswith((".so", ".pyd", ".c")):
                    continue
                m = babel_data.match(name)
                if m and m["name"] != "root" and m["name"].split("_")[0] not in languages:
                    continue
                target = into / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(zf.read(item))


# --- the app's archive ---


def app_languages() -> set[str]:
    return {"en"} | {p.name for p in (ROOT / "companion" / "locale").iterdir() if (p / "LC_MESSAGES").is_dir()}


def copy_sources(stage: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")
    for package in ("companion", "models"):
        shutil.copytree(ROOT / package, stage / package, ignore=ignore)
    shutil.rmtree(stage / "companion" / "web" / "static")
    (stage / "companion" / "web" / "build.py").unlink()  # the laptop's part
    (stage / "assets").mkdir()
    for data in (ROOT / "assets").glob("*.json"):  # read by Python (catalogs, the sample map)
        if data.name != "manifest.json":
            shutil.copy2(data, stage / "assets" / data.name)
    (stage / "main.py").write_text(ENTRY)


def compile_bytecode(stage: Path, web: Path) -> bool:
    """Compile with the browser's own Python (bytecode is specific to a Python version): Pyodide under
    Node. Each .pyc takes its module's place (the source is dropped: a third less to download, and
    nothing to compile on the phone); unchecked-hash, so files' times after unpacking don't matter."""
    runner = web / "pyodide" / "python"
    if not shutil.which("node"):
        log("no node: the phone will compile the app's Python at each start (slower)")
        return False
    started = time.perf_counter()
    result = subprocess.run(["bash", str(runner), "-m", "compileall", "-q", "-b", "-j", "1",
                             "--invalidation-mode", "unchecked-hash", str(stage)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        log(f"bytecode not compiled ({result.stderr.strip()[-300:]}); the phone will compile at start")
        return False
    count = 0
    for compiled in stage.rglob("*.pyc"):
        source = compiled.with_suffix(".py")
        if source.exists() and not str(source.relative_to(stage)).startswith(KEEP_SOURCE):
            source.unlink()
            count += 1
    for cache in [d for d in stage.rglob("__pycache__") if d.is_dir()]:
        shutil.rmtree(cache)
    log(f"compiled {count} modules with Pyodide's Python in {time.perf_counter() - started:.0f} s")
    return count > 0


def tree_digest(*dirs: Path) -> str:
    h = hashlib.sha256()
    for d in dirs:
        for path in sorted(p for p in d.rglob("*") if p.is_file()):
            h.update(str(path.relative_to(d)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def pack(stage: Path, target: Path) -> None:
    """A reproducible tar.gz: sorted, fixed times and owners (the .pyc files don't check times)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for path in sorted(stage.rglob("*")):
            info = tar.gettarinfo(str(path), arcname=str(path.relative_to(stage)))
            info.mtime, info.uid, info.gid, info.uname, info.gname = 1700000000, 0, 0, "", ""
            if path.is_file():
                with open(path, "rb") as f:
                    tar.addfile(info, f)
            else:
                tar.addfile(info)
    with open(target, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0, filename="") as gz:
        gz.write(buffer.getvalue())


# --- the site ---


def copy_client(web: Path, out: Path) -> None:
    shutil.copytree(web, out)
    for rel in CLIENT_UNUSED:
        path = out / rel
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    for pattern in CLIENT_UNUSED_GLOBS:
        for path in out.glob(pattern):
            path.unlink()


def patch_page(out: Path, rt: dict, base_url: str) -> None:
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import patch_font_manifest_json, patch_index_html

    index = out / "index.html"
    patch_index_html(index_path=str(index), base_href=base_url, app_name="Table Companion", pyodide=True,
                     pyodide_script_path="main.py", pyodide_version=rt["pyodide"], app_package_url="app.tar.gz",
                     web_renderer=WebRenderer.CANVAS_KIT, route_url_strategy=RouteUrlStrategy.HASH, no_cdn=True)
    html = index.read_text()
    # flet-cli 1.0.5 writes a bare module specifier, which the module worker can't resolve.
    html = html.replace('flet.pyodideUrl="pyodide/pyodide.mjs"', 'flet.pyodideUrl="./pyodide/pyodide.mjs"')
    if './pyodide/pyodide.mjs' not in html:
        raise SystemExit("web: index.html has no pyodideUrl to fix (did flet-web change?)")
    html = html.replace("</head>", '  <script src="phone.js"></script>\n</head>', 1)
    index.write_text(html)
    patch_font_manifest_json(str(out / "assets" / "FontManifest.json"))
    # Flutter's loader would register flutter_service_worker.js, which only unregisters itself;
    # phone.js registers the app's own (sw.js) instead.
    boot = out / "flutter_bootstrap.js"
    text, n = re.subn(r"\n\s*serviceWorkerSettings: \{[^}]*\},", "", boot.read_text())
    if n != 1:
        raise SystemExit("web: flutter_bootstrap.js has no serviceWorkerSettings to remove (did flet-web change?)")
    boot.write_text(text)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["start_url"] = "./"
    manifest["id"] = "./"
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))


def write_service_worker(out: Path, version: str) -> list[str]:
    """sw.js: the version, and every file the app needs on any browser, cached at install. Each
    browser's CanvasKit build is cached when first loaded (phone.js reports what the page loaded
    before the worker took over)."""
    runtime_only = ("canvaskit/",)
    files = sorted(str(p.relative_to(out)).replace(os.sep, "/") for p in out.rglob("*")
                   if p.is_file() and p.suffix != ".gz" or p.name.endswith(".tar.gz"))
    core = [f for f in files if not f.startswith(runtime_only) and f not in ("sw.js", "index.html")]
    template = (STATIC / "sw.js").read_text()
    sw = template.replace("__VERSION__", version).replace('"__CORE__"', json.dumps(["./", *core], indent=1))
    (out / "sw.js").write_text(sw)
    return core


def precompress(out: Path) -> tuple[int, int]:
    raw_total = gz_total = 0
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        if path.suffix == ".gz" or path.suffix not in COMPRESSIBLE:
            continue
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) < 0.9 * len(data):
            path.with_name(path.name + ".gz").write_bytes(packed)
            raw_total += len(data)
            gz_total += len(packed)
    return raw_total, gz_total


def build(out: Path = DEFAULT_OUT, *, lock: Optional[str] = None, base_url: str = "/", bytecode: bool = True,
          cache: Path = CACHE, bare_app: Optional[str] = None) -> str:
    """Build the site; `bare_app` (a main.py's text) builds a bare Flet app the same way instead (the
    bench's reference: flet and its own dependencies only, Flet's own page and assets)."""
    started = time.perf_counter()
    web = client_dir()
    rt = pyodide_info(web)
    log(f"Pyodide {rt['pyodide']} (Python {rt['python']}), wheels for {rt['platform']}")
    packages = browser_packages(find_lock(lock), rt, ["flet"] if bare_app else None)
    log("packages: " + ", ".join(f"{p['name']} {p['version']}" for p in packages))
    wheels = fetch_wheels(packages, rt, cache)
    with tempfile.TemporaryDirectory(prefix="web-stage-") as tmp:
        stage = Path(tmp) / "app"
        stage.mkdir()
        if bare_app:
            (stage / "main.py").write_text(bare_app)
        else:
            copy_sources(stage)
        unpack_wheels(wheels, stage / "__pypackages__", app_languages())
        version = tree_digest(stage, web, STATIC)
        if not bare_app:
            (stage / "companion" / "web" / "version.json").write_text(json.dumps({"version": version}))
        if bytecode:
            compile_bytecode(stage, web)
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        copy_client(web, out)
        if not bare_app:
            shutil.copytree(ROOT / "assets", out, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("screenshots", "*.json", "index.html", "manifest.json"))
            for name in ("index.html", "manifest.json"):
                shutil.copy2(ROOT / "assets" / name, out / name)
        shutil.copy2(STATIC / "phone.js", out / "phone.js")
        pack(stage, out / "app.tar.gz")
    patch_page(out, rt, base_url)
    (out / "version.json").write_text(json.dumps({"version": version}))
    write_service_worker(out, version)
    raw, packed = precompress(out)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file() and p.suffix != ".gz" or p.name.endswith(".tar.gz"))
    log(f"built {out} (version {version}): {size / 1e6:.1f} MB, app.tar.gz {(out / 'app.tar.gz').stat().st_size / 1e6:.1f} MB, "
        f"precompressed {raw / 1e6:.1f} → {packed / 1e6:.1f} MB, in {time.perf_counter() - started:.0f} s")
    return version


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m companion.web.build", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="where the site goes (default build/web)")
    parser.add_argument("--lock", default=os.environ.get("COMPANION_LOCK"), help="the lock file (default uv.lock)")
    parser.add_argument("--base-url", default="/", help="the path the site is served under, e.g. /table-companion/")
    parser.add_argument("--no-bytecode", action="store_true", help="skip compiling .pyc (faster build, slower start)")
    args = parser.parse_args(argv)
    build(Path(args.out), lock=args.lock, base_url=args.base_url, bytecode=not args.no_bytecode)


if __name__ == "__main__":
    main()

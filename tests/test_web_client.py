"""The web client as `companion serve` delivers it (companion/web_client.py): its big files compressed when
the browser accepts it and identical once decoded, plain when not; versioned files cached for good, the
page and everything else revalidated; Rive's runtime asked of the laptop, not of a CDN."""

from __future__ import annotations

import gzip

import brotli
import flet as ft
import pytest
from starlette.testclient import TestClient

from companion.__main__ import ASSETS
from companion.web_client import (IMMUTABLE, PLAIN_ENV, REVALIDATE, RIVE_CDN, ClientDelivery, accepted_encodings,
                                  client_files, compress_all, deliver, web_dir)

BIG = {"main.dart.js", "main.dart.wasm", "canvaskit/chromium/canvaskit.wasm"}


def flet_app():
    return ft.run(lambda page: None, export_asgi_app=True, assets_dir=str(ASSETS), no_cdn=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Flet's app behind ClientDelivery, the big files compressed (brotli at a quick quality: the bytes
    sent differ, how they are served does not)."""
    files = client_files(ASSETS, tmp_path_factory.mktemp("cache"))
    compress_all(files, brotli_quality=1, only=BIG | {"flutter_bootstrap.js"})
    client = TestClient(ClientDelivery(flet_app(), files))
    page = client.get("/").text
    return client, files, f"/_client/{files.key}/", page


def fetch(client, path, accept):
    return client.get(path, headers={"accept-encoding": accept})


def decoded(response) -> bytes:
    """The body as sent (TestClient's httpx would decode gzip itself; read the raw bytes instead)."""
    raw = b"".join(response.iter_raw())
    encoding = response.headers.get("content-encoding")
    return {"br": brotli.decompress, "gzip": gzip.decompress, None: lambda b: b}[encoding](raw)


@pytest.mark.parametrize("rel", sorted(BIG))
def test_big_files_come_compressed_when_accepted_and_identical_when_decoded(served, rel):
    client, files, versioned, _ = served
    plain = client.get(versioned + rel, headers={"accept-encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert plain.content == files.sources[rel].read_bytes()
    sizes = {}
    for accept, expected in [("gzip, deflate, br, zstd", "br"), ("gzip, deflate", "gzip"), ("br;q=0, gzip", "gzip")]:
        with client.stream("GET", versioned + rel, headers={"accept-encoding": accept}) as response:
            assert response.status_code == 200
            assert response.headers["content-encoding"] == expected
            assert response.headers["vary"] == "accept-encoding"
            body = decoded(response)
            sizes[expected] = int(response.headers["content-length"])
        assert body == plain.content
    assert sizes["gzip"] < len(plain.content) * 0.6
    assert response.headers["content-type"] == plain.headers["content-type"]


@pytest.mark.parametrize("accept", ["", "identity", "gzip;q=0, br;q=0", "deflate"])
def test_big_files_come_plain_when_no_compression_is_accepted(served, accept):
    client, files, versioned, _ = served
    response = fetch(client, versioned + "main.dart.js", accept)
    assert "content-encoding" not in response.headers
    assert len(response.content) == files.sources["main.dart.js"].stat().st_size


def test_versioned_files_are_cached_for_good_and_everything_else_revalidated(served):
    client, files, versioned, _ = served
    for rel in ["main.dart.js", "main.dart.wasm", "main.dart.mjs", "canvaskit/chromium/canvaskit.js"]:
        assert fetch(client, versioned + rel, "gzip").headers["cache-control"] == IMMUTABLE == \
            "public, max-age=31536000, immutable"
    # The page, the bootstrap that reads it, the web client's unversioned names, our own assets, the manifest:
    for path in ["/", "/c/3/turn", "/flutter_bootstrap.js", "/main.dart.js", "/assets/fonts/MaterialIcons-Regular.otf",
                 "/assets/FontManifest.json", "/companion.js", "/manifest.json", "/icons/icon-192.png", "/favicon.png"]:
        response = fetch(client, path, "gzip")
        assert response.status_code == 200, path
        assert response.headers["cache-control"] == REVALIDATE, path
        assert response.headers.get("etag"), path


def test_a_file_whose_compressed_copy_is_not_made_yet_goes_plain(served):
    client, files, versioned, _ = served
    response = fetch(client, "/assets/fonts/MaterialIcons-Regular.otf", "gzip, br")
    assert "content-encoding" not in response.headers
    assert response.content == (files.web_dir / "assets/fonts/MaterialIcons-Regular.otf").read_bytes()


def test_the_page_points_the_client_at_its_versioned_files_and_is_revalidated(served):
    client, files, versioned, page = served
    assert f'flet.entrypointBaseUrl="{versioned}";' in page
    assert f'flet.canvasKitBaseUrl="{versioned}canvaskit/";' in page
    assert "<title>Table Companion</title>" in page  # our page (assets/index.html), as Flet patched it
    first = fetch(client, "/", "gzip")
    assert first.headers["content-encoding"] == "gzip" and first.headers["cache-control"] == REVALIDATE
    again = client.get("/", headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and not again.content
    file = fetch(client, versioned + "main.dart.js", "gzip")
    again = client.get(versioned + "main.dart.js", headers={"accept-encoding": "gzip", "if-none-match": file.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == IMMUTABLE
    identity = client.get(versioned + "main.dart.js", headers={"accept-encoding": "", "if-none-match": file.headers["etag"]})
    assert identity.status_code == 200  # another encoding, another ETag


def test_another_versions_url_is_not_found(served):
    client, _files, _versioned, _ = served
    assert client.get("/_client/0123456789abcdef/main.dart.js").status_code == 404
    assert client.get("/_client/rive/wasm/other.js").status_code == 404


def test_rive_is_asked_of_the_laptop_not_of_a_cdn(served):
    client, files, versioned, _ = served
    for rel in ["main.dart.js", "main.dart.wasm"]:
        original = (web_dir() / rel).read_bytes()
        assert RIVE_CDN.search(original), f"flet-web's {rel} no longer names Rive's CDN: look again at web_client"
        served_bytes = fetch(client, versioned + rel, "").content
        assert b"cdn.jsdelivr.net" not in served_bytes
        assert len(served_bytes) == len(original)  # the wasm's layout unchanged
        assert b"/_client/rive/./././" in served_bytes
    stub = client.get("/_client/rive/wasm/rive_native.js")
    assert stub.status_code == 200 and b"window.RiveNative" in stub.content
    assert client.get("/_client/rive/wasm_compatibility/rive_native.js").status_code == 200


def test_accepted_encodings():
    assert accepted_encodings("gzip, deflate, br, zstd") == ["br", "gzip"]
    assert accepted_encodings("gzip, deflate") == ["gzip"]
    assert accepted_encodings("br;q=0, gzip;q=0.5") == ["gzip"]
    assert accepted_encodings("*") == ["br", "gzip"]
    assert accepted_encodings("*, gzip;q=0") == ["br"]
    assert accepted_encodings("") == [] == accepted_encodings("identity")


def test_the_plain_switch_serves_the_client_as_flet_does(monkeypatch, tmp_path):
    app = flet_app()
    monkeypatch.setenv(PLAIN_ENV, "1")
    assert deliver(app, ASSETS, tmp_path) is app


def test_the_compressor_makes_every_copy_once_and_the_server_uses_them(tmp_path):
    """The background compressor's work on a small web folder: every compressible file gets both copies,
    the manifest says so, and a second run writes nothing."""
    web = tmp_path / "web"
    (web / "canvaskit").mkdir(parents=True)
    script = b"function f(){return 'the same line again';}\n" * 500
    (web / "main.dart.js").write_bytes(script + b'x="https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"')
    (web / "canvaskit" / "canvaskit.wasm").write_bytes(bytes(range(256)) * 64)
    (web / "tiny.js").write_bytes(b"1")
    (web / "icon.png").write_bytes(bytes(4096))
    files = client_files(None, tmp_path / "cache", web)
    assert b"cdn.jsdelivr" not in files.sources["main.dart.js"].read_bytes()
    done = compress_all(files)
    assert done == {"main.dart.js": ["gzip", "br"], "canvaskit/canvaskit.wasm": ["gzip", "br"]}
    again = client_files(None, tmp_path / "cache", web)
    assert again.key == files.key and again.complete
    assert again.variant("main.dart.js", "br") == files.encoded_path("main.dart.js", "br")
    assert again.variant("tiny.js", "gzip") is None
    stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "cache").rglob("*.gz")}
    compress_all(again)
    assert stamps == {p: p.stat().st_mtime_ns for p in (tmp_path / "cache").rglob("*.gz")}
    (web / "tiny.js").write_bytes(b"2")
    assert client_files(None, tmp_path / "cache", web).key != files.key  # a changed client, new URLs

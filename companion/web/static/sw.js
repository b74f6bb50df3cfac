/* Table Companion on a phone alone: the service worker that keeps the whole app for offline use.
   Written by companion/web/build.py: VERSION changes with any file of the app, so a browser that
   checks for updates (at each open) finds a new sw.js and caches the new version whole; it takes over
   once no page of the old version is open (never under a page that is running the old one: that page
   would load half its files from each version), so the next open runs it, and the app (Python) says so
   on its first screen. Flet's own flutter_service_worker.js caches
   nothing (it unregisters itself), and the build takes it out of Flutter's loader. */
"use strict";
const VERSION = "__VERSION__";
const PREFIX = "table-companion-";
const CACHE = PREFIX + VERSION;
// Everything the app needs on any browser, relative to this file. Each browser's own CanvasKit
// build (canvaskit/…) is cached when the page first loads it.
const CORE = "__CORE__";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "no-cache": revalidated with the host, so a file of the old version in the HTTP cache is never kept.
    await cache.addAll(CORE.map((url) => new Request(url, { cache: "no-cache" })));
    if (!self.registration.active) {
      await self.skipWaiting();  // the very first install: no older version runs anywhere
    }
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) {
        await caches.delete(key);
      }
    }
    await self.clients.claim();
  })());
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const url = new URL(request.url);
  if (request.mode === "navigate" || url.pathname === new URL("./", self.location).pathname) {
    const page = await cache.match("./");
    if (page) {
      return page;
    }
  }
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) {
    return kept;
  }
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith(fromCache(request));
});

// phone.js reports what the page loaded before this worker controlled it (the browser's CanvasKit).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "cache" && Array.isArray(data.urls)) {
    event.waitUntil((async () => {
      const cache = await caches.open(CACHE);
      for (const url of data.urls) {
        if (new URL(url).origin === self.location.origin && !(await cache.match(url, { ignoreSearch: true }))) {
          try {
            await cache.add(url);
          } catch (e) {
            console.warn("Table Companion: could not keep", url, e);
          }
        }
      }
    })());
  } else if (data.type === "version" && event.source) {
    event.source.postMessage({ type: "version", version: VERSION });
  }
});

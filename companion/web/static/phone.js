/* Table Companion on a phone alone (the static build only; companion/web/build.py adds it to the page):
   - asks the browser to keep the app's storage (navigator.storage.persist(): the save lives in
     IndexedDB) and leaves the answer where the app reads it (localStorage "flutter.companion.
     storage_persisted", read by Python through Flet's SharedPreferences; the Settings screen says it);
   - downloads the files the app saves (exports), sent by the Python worker over a BroadcastChannel;
   - registers the app's service worker (sw.js), which keeps every file for offline use, and hands it
     the files the page loaded before it took over. */
(function () {
  "use strict";
  var KEY = "flutter.companion.storage_persisted";

  function keep(value) {
    try {
      localStorage.setItem(KEY, JSON.stringify(value));
    } catch (e) { /* private mode: the app says it doesn't know */ }
  }

  if (navigator.storage && navigator.storage.persist) {
    navigator.storage.persisted().then(function (already) {
      return already || navigator.storage.persist();
    }).then(function (granted) {
      keep(!!granted);
    }, function () {
      keep(false);
    });
  }

  // A file the app saves (an export): the Python worker sends its bytes; the page downloads them.
  if ("BroadcastChannel" in window) {
    new BroadcastChannel("table-companion").onmessage = function (event) {
      var data = event.data || {};
      if (data.type !== "download") {
        return;
      }
      var url = URL.createObjectURL(new Blob([data.bytes], { type: "application/octet-stream" }));
      var link = document.createElement("a");
      link.href = url;
      link.download = data.name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    };
  }

  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("sw.js").then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (registration) {
        var urls = performance.getEntriesByType("resource").map(function (entry) {
          return entry.name;
        }).filter(function (url) {
          return url.indexOf(location.origin + "/") === 0;
        });
        if (registration.active) {
          registration.active.postMessage({ type: "cache", urls: urls });
        }
      }).catch(function (e) {
        console.warn("Table Companion: no offline copy", e);
      });
    });
  }
})();

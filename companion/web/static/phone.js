/* Table Companion on a phone alone (the static build only; companion/web/build.py adds it to the page):
   - asks the browser to keep the app's storage (navigator.storage.persist(): the save lives in
     IndexedDB) and leaves the answer where the app reads it (localStorage "flutter.companion.
     storage_persisted", read by Python through Flet's SharedPreferences; the Settings screen says it);
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

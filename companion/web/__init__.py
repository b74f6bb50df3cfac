"""The app on a phone alone: the whole app as a static site, run by Pyodide in the phone's browser.

`build` (run on a laptop by `make web`) makes build/web/; `phone` is what runs in the browser in
place of `companion serve` (a save in IndexedDB, no threads, no join token). Nothing here is
imported by the laptop's server.
"""

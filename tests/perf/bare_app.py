"""A bare Flet hello-world served exactly like the companion (same ASGI server, no CDN): the floor
the companion's first frame is compared against."""

import sys

import flet as ft
import uvicorn


def main(page: ft.Page):
    page.add(ft.Text("Hello, table"))


if __name__ == "__main__":
    app = ft.run(main, export_asgi_app=True, no_cdn=True)
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", ws="websockets-sansio")

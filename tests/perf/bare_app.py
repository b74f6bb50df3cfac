"""Bare Flet apps served exactly like the companion (Flet's ASGI app under uvicorn, the same websocket
implementation, no CDN): the floors the benchmarks read the companion against.

    python -m tests.perf.bare_app PORT [hello|counter|game_screen]

- hello: a hello-world, for the first frame (run_all);
- counter and game_screen: the tap bench's two references (tap_bench). Like a campaign, their count
  is shared by every phone (pubsub to every session).
"""

import sys

import flet as ft
import uvicorn

COUNT = [0]  # one count shared by every phone, as a campaign is
FACES = [(ft.Icons.TRENDING_UP, ft.Colors.TEAL_100), (ft.Icons.LIGHTBULB, ft.Colors.BLUE_100),
         (ft.Icons.BUG_REPORT, ft.Colors.RED_100)]


def hello(page: ft.Page):
    page.add(ft.Text("Hello, table"))


def counter(page: ft.Page):
    """The least a shared Flet counter can do: pubsub to every session (the tap bench's floor)."""
    value = ft.Text(str(COUNT[0]), size=40)

    def show(n):
        value.value = str(n)
        page.update()

    def add(e):
        COUNT[0] += 1
        page.pubsub.send_all(COUNT[0])
    page.pubsub.subscribe(show)
    page.add(ft.Semantics(identifier="counter-value", content=value),
             ft.FilledButton(content="Value +1", on_click=add, height=56))


def game_screen(page: ft.Page):
    """The counter behind a game-sized screen (Save the Singularity's turn), changed by each tap as
    "Press on" changes a game's: the numbers, the hint's odds, both buttons' words, a new row of dice
    and the undo bar, updated in place and sent with one page.update(). What a screen like the
    games' costs in Flet and in the phone's browser with none of the companion's code."""
    page.scroll = ft.ScrollMode.AUTO
    title = ft.Text("Tap bench", size=22)
    subtitle = ft.Text("")
    value = ft.Text("", size=36, weight=ft.FontWeight.BOLD)
    next_throw = ft.Text("", size=36, weight=ft.FontWeight.BOLD)
    hint = ft.Text("", expand=True)
    press = ft.Text("")
    stop = ft.Text("")
    throw = ft.Text("")
    dice = ft.Row(wrap=True)
    undo = ft.Text("")
    team = ft.ProgressBar(value=0, height=8)

    def die(face):
        icon, colour = FACES[face % 3]
        return ft.Container(ft.Icon(icon, size=32), width=76, height=76, border_radius=12, bgcolor=colour,
                            alignment=ft.Alignment.CENTER)

    def draw(n):
        subtitle.value = f"Turn {n // 5 + 1} · Player 1 · {n} at risk"
        value.value = str(n)
        next_throw.value = f"{n % 4 + 2} dice"
        hint.value = f"Hint: Press on — win {40 + n % 13:.1f}% if you stop, {50 + n % 11:.1f}% if you press on"
        press.value = f"Value +1 ({n % 4 + 2} dice)"
        stop.value = f"Stop and bank {n}"
        throw.value = f"This throw ({n % 4 + 1} dice): {n % 3} Bugs, {(n + 1) % 3} Ideas, {(n + 2) % 3} Progress"
        dice.controls = [die(n + k) for k in range(n % 4 + 1)]
        undo.value = f"Undo: press on ({n})"
        team.value = (n % 25) / 25

    def show(n):
        draw(n)
        page.update()

    def add(e):
        COUNT[0] += 1
        page.pubsub.send_all(COUNT[0])

    def card(*controls):
        return ft.Card(ft.Container(ft.Column(list(controls)), padding=16))

    draw(COUNT[0])
    page.pubsub.subscribe(show)
    page.appbar = ft.AppBar(title=ft.Column([title, subtitle], spacing=0),
                            actions=[ft.IconButton(ft.Icons.QR_CODE_2), ft.IconButton(ft.Icons.TUNE)])
    page.bottom_appbar = ft.BottomAppBar(ft.FilledTonalButton(content=undo, icon=ft.Icons.UNDO, height=48, expand=True))
    page.add(
        ft.Row([ft.Text("I roll physical dice (the app asks for every die)", expand=True), ft.Switch()]),
        card(ft.Row([ft.Column([ft.Text("Team"), ft.Text("0 / 25", size=28), team], expand=True),
                     ft.Column([ft.Text("World"), ft.Text("0 / 4", size=28), ft.ProgressBar(value=0, height=8)],
                               expand=True)]),
             ft.Text("Turn 1 · 1 action in the log", size=12)),
        card(ft.Text("Turn 1", weight=ft.FontWeight.BOLD), ft.Text("Player 1 · Rationalist", size=24),
             ft.Row([ft.Column([ft.Text("At risk"), ft.Semantics(identifier="counter-value", content=value)],
                               expand=True),
                     ft.Column([ft.Text("Next throw"), next_throw], expand=True)]),
             ft.Row([ft.Icon(ft.Icons.TIPS_AND_UPDATES), hint]),
             ft.FilledButton(content=press, icon=ft.Icons.CASINO, on_click=add, height=56, expand=True),
             ft.OutlinedButton(content=stop, icon=ft.Icons.SAVINGS, height=56, expand=True),
             ft.Text("This throw", weight=ft.FontWeight.BOLD), throw, dice),
    )


APPS = {"hello": hello, "counter": counter, "game_screen": game_screen}

if __name__ == "__main__":
    app = ft.run(APPS[sys.argv[2] if len(sys.argv) > 2 else "hello"], export_asgi_app=True, no_cdn=True)
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", ws="websockets-sansio")

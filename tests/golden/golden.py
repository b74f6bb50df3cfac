"""Reading, playing and writing golden playthrough files (see tests/golden/__init__.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from companion.dice import PhysicalDice
from companion.games import get_game
from companion.log import parse_action, step
from companion.table import CampaignState, SetPhysicalDice

HERE = Path(__file__).parent


def files(game_key: str) -> list[Path]:
    return sorted((HERE / game_key).glob("*.txt"))


def _compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "), sort_keys=False)


def play(game_key: str, title: str, settings: dict, actions: Iterable[dict]) -> str:
    """Play the actions at a physical-dice table and write the whole game as text."""
    game = get_game(game_key)
    parsed = game.Settings.model_validate(settings)
    state = CampaignState(game=game.new_state(parsed).model_dump(mode="json"))
    state = step(game, state, SetPhysicalDice(on=True), PhysicalDice()).state
    lines = [f"# {title}", f"game: {game_key}", f"settings: {_compact(settings)}", ""]
    for number, data in enumerate(actions, start=1):
        action = parse_action(game, data)
        done = step(game, state, action, PhysicalDice())
        lines.append(f"> {_compact(data)}")
        for e in done.events:
            data_text = f"  {_compact(e.data)}" if e.data and e.kind not in ("waiting",) else ""
            lines.append(f"  [{e.kind}] {e.text}{data_text}")
        state = done.state
    final = game.State.model_validate(state.game)
    lines += ["", f"== outcome: {game.outcome(final) or 'still playing'}",
              f"== waiting for: {state.pending.chance.text if state.pending else 'nothing'}",
              "== final state", json.dumps(state.game, ensure_ascii=False, indent=1, sort_keys=True), ""]
    return "\n".join(lines)


def read_inputs(text: str) -> tuple[str, str, dict, list[dict]]:
    """(title, game key, settings, actions) from a golden file."""
    title = game_key = ""
    settings: dict = {}
    actions: list[dict] = []
    for line in text.splitlines():
        if line.startswith("# ") and not title:
            title = line[2:]
        elif line.startswith("game: "):
            game_key = line[6:].strip()
        elif line.startswith("settings: "):
            settings = json.loads(line[10:])
        elif line.startswith("> "):
            actions.append(json.loads(line[2:]))
        elif line.startswith("== final state"):
            break
    return title, game_key, settings, actions


def replayed(path: Path) -> str:
    title, game_key, settings, actions = read_inputs(path.read_text(encoding="utf-8"))
    return play(game_key, title, settings, actions)


def write(game_key: str, name: str, title: str, settings: dict, actions: Iterable[dict]) -> Path:
    """Make a new golden file (used once, when a playthrough is first recorded)."""
    folder = HERE / game_key
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.txt"
    path.write_text(play(game_key, title, settings, list(actions)), encoding="utf-8")
    return path

"""Rewrite the golden playthroughs from their inputs: `python -m tests.golden.regenerate [game ...]`."""

import sys

from companion.games import PLAYABLE
from tests.golden.golden import files, replayed


def main(keys: list[str]) -> None:
    for key in keys or PLAYABLE:
        for path in files(key):
            new = replayed(path)
            changed = new != path.read_text(encoding="utf-8")
            path.write_text(new, encoding="utf-8")
            print(f"{'changed ' if changed else 'same    '} {path}")


if __name__ == "__main__":
    main(sys.argv[1:])

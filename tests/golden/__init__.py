"""Golden playthroughs: complete games as readable text files, re-checked by the tests.

Each `tests/golden/<game>/*.txt` holds the inputs of one game — its settings and, line by line, the
actions a table took (`> {...}`), the dice it entered among them (`> {"kind": "dice", ...}`) — and
what the rules made of them: every event with its kind, and the final state. The test replays the
inputs and compares the whole text. When a rule changes on purpose, regenerate them:

    .venv/bin/python -m tests.golden.regenerate            # every game
    .venv/bin/python -m tests.golden.regenerate klaw       # one game

and read the diff: it is the change in behaviour.
"""

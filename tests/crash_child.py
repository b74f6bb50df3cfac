"""Child process for the crash test: applies actions and prints ACK <cursor> after each commit."""

import sys

from companion.games.counter.rules import Add, Roll
from companion.log import Store
from models.db import open_database

store = Store(open_database(sys.argv[1]))
cid = int(sys.argv[2])
cursor = store.load(cid).cursor
print("READY", flush=True)
i = 0
while True:
    action = Roll() if i % 3 == 0 else Add(amount=1 if i % 2 else -1 if store.load(cid).game_state.value > 0 else 1)
    cursor = store.apply(cid, action, expected_cursor=cursor).cursor
    print(f"ACK {cursor}", flush=True)
    i += 1

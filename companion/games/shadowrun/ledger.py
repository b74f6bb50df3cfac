"""The ledger of Shadowrun: Singularis: every change of loan, cash, interest and reputation.

`post` is the ONLY way the rules change those four numbers. It writes a line (turn, phase,
account, amount, reason, balance after) and refuses to take loan, cash or interest below zero
(reputation alone may go negative).

The state keeps the four balances, never the lines: a ledger grows with every action, and the
state is saved after every action. A line travels with the action's typed events instead: `post`
writes it into the action's `Journal`, which puts it in the data of the next event the action
logs (`"lines": [{turn, phase, account, amount, reason, balance}, …]`). The ledger is then the
campaign's opening lines (`rules.opening_lines`) followed by `lines_in(the logged events)`, in
order (`rules.ledger` does both), so each balance always equals the sum of its lines.

A line's reason is words for people: a `Msg` (kept in the log as its JSON, said in each phone's
language on the ledger screen), or a plain sentence in a line logged before the app spoke languages.
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Mapping, Protocol

from companion.games.base import Event, Model, RuleError, Words
from companion.i18n import N_, Msg, Text

Account = Literal["loan", "cash", "interest", "reputation"]
ACCOUNTS: tuple[Account, ...] = ("loan", "cash", "interest", "reputation")
ACCOUNT_NAMES = (N_("loan"), N_("cash"), N_("interest"), N_("reputation"))  # as a line or a form names one
ACCOUNT_TITLES: dict[str, Msg] = {"loan": Msg("Loan"), "cash": Msg("Cash"), "interest": Msg("Interest"),
                                  "reputation": Msg("Reputation")}
# The book's three Nuyen piles may never go below zero; reputation may (RULES.md §2, 3e).
NEVER_NEGATIVE = ("loan", "cash", "interest")
LINES = "lines"  # the key of an event's data that carries the ledger lines the action posted


class Line(Model):
    turn: int
    phase: str
    account: Account
    amount: int
    reason: Words
    balance: int


class Books(Protocol):
    """What `post` needs from the state: the four balances and where we are."""

    turn: int
    phase: str
    loan: int
    cash: int
    interest: int
    reputation: int


class Journal(list):
    """The events of one action, as its handler writes them. Lines posted since the last event ride
    on the next event appended (in its data, under `lines`): the event that says what changed."""

    def __init__(self) -> None:
        super().__init__()
        self.unlogged: list[Line] = []

    def append(self, item: Event) -> None:
        if self.unlogged:
            item = _with_lines(item, self.unlogged)
            self.unlogged = []
        super().append(item)

    def events(self) -> list[Event]:
        """The events, every posted line on one of them (lines after the last event go on it)."""
        if self.unlogged:
            assert self  # an action posted ledger lines but logged no event to carry them
            self[-1] = _with_lines(self[-1], self.unlogged)
            self.unlogged = []
        return list(self)


def _with_lines(e: Event, lines: list[Line]) -> Event:
    carried = list(e.data.get(LINES, [])) + [line.model_dump(mode="json") for line in lines]
    return e.model_copy(update={"data": {**e.data, LINES: carried}})


def post(books: Books, journal: Journal, account: Account, amount: int, reason: Text) -> None:
    """Change one balance by `amount` and write its ledger line into `journal`. A zero change writes
    nothing."""
    if amount == 0:
        return
    before = getattr(books, account)
    after = before + amount
    if account in NEVER_NEGATIVE and after < 0:
        raise RuleError(Msg("Not enough {account}: {before} Nuyen; “{reason}” needs {needed}.",
                            account=Msg.from_json({"msgid": account}), before=before, reason=reason, needed=-amount))
    setattr(books, account, after)
    journal.unlogged.append(
        Line(turn=books.turn, phase=books.phase, account=account, amount=amount, reason=reason, balance=after)
    )


def lines_in(events: Iterable[Any]) -> list[Line]:
    """The ledger lines a sequence of logged events carries, in order (events as typed `Event`s, as
    stored dicts, or an old save's plain sentences, which carry none).

    >>> e = {"kind": "spent", "text": "Paid 3 for gear.", "data": {"lines": [
    ...     {"turn": 1, "phase": "legwork", "account": "cash", "amount": -3, "reason": "Bought gear", "balance": 17}]}}
    >>> [(l.account, l.amount, l.balance) for l in lines_in([e, "an old sentence"])]
    [('cash', -3, 17)]
    """
    out: list[Line] = []
    for e in events:
        data = e.data if isinstance(e, Event) else e.get("data") or {} if isinstance(e, dict) else {}
        out += [Line.model_validate(raw) for raw in data.get(LINES, ())]
    return out


def totals(lines: list[Line]) -> dict[str, int]:
    """The sum of the lines per account (what the balances must equal)."""
    sums = {account: 0 for account in ACCOUNTS}
    for line in lines:
        sums[line.account] += line.amount
    return sums


def reconciles(lines: list[Line], balances: Mapping[str, int]) -> bool:
    """Whether the lines account for the balances: each line's balance is the one before it plus
    its amount, and each account ends on its balance. A log from before the lines were logged
    with the events (an old save) misses lines, and fails this.

    >>> one = Line(turn=0, phase="setup", account="cash", amount=20, reason="Start", balance=20)
    >>> reconciles([one], {"loan": 0, "cash": 20, "interest": 0, "reputation": 0})
    True
    >>> reconciles([one], {"loan": 0, "cash": 23, "interest": 0, "reputation": 0})
    False
    """
    running = {account: 0 for account in ACCOUNTS}
    for line in lines:
        running[line.account] += line.amount
        if running[line.account] != line.balance:
            return False
    return all(running[a] == balances[a] for a in ACCOUNTS)


def lines_for(lines: list[Line], account: Account) -> list[Line]:
    """The ledger screen's filter by account."""
    return [line for line in lines if line.account == account]


def balances_by_turn(lines: list[Line]) -> list[dict[str, int]]:
    """Balances at the end of each turn (turn 0 = setup), for the debt and reputation chart."""
    running = {account: 0 for account in ACCOUNTS}
    rows: list[dict[str, int]] = []
    last_turn = None
    for line in lines:
        if last_turn is not None and line.turn != last_turn:
            rows.append(_row(last_turn, running))
        running[line.account] = line.balance
        last_turn = line.turn
    if last_turn is not None:
        rows.append(_row(last_turn, running))
    return rows


def _row(turn: int, running: dict[str, int]) -> dict[str, int]:
    return {"turn": turn, **running, "debt": running["loan"] + running["interest"]}

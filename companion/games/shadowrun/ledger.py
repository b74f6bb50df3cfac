"""The ledger of Shadowrun: Singularis: every change of loan, cash, interest and reputation.

`post` is the ONLY way the rules change those four numbers. It appends a line (turn, phase,
account, amount, reason, balance after), so each balance always equals the sum of its lines, and it
refuses to take loan, cash or interest below zero (reputation alone may go negative).
"""

from __future__ import annotations

from typing import Literal, Protocol

from companion.games.base import Model, RuleError

Account = Literal["loan", "cash", "interest", "reputation"]
ACCOUNTS: tuple[Account, ...] = ("loan", "cash", "interest", "reputation")
# The book's three Nuyen piles may never go below zero; reputation may (RULES.md §2, 3e).
NEVER_NEGATIVE = ("loan", "cash", "interest")


class Line(Model):
    turn: int
    phase: str
    account: Account
    amount: int
    reason: str
    balance: int


class Books(Protocol):
    """What `post` needs from the state: the four balances, where we are, and the lines."""

    turn: int
    phase: str
    loan: int
    cash: int
    interest: int
    reputation: int
    ledger: list[Line]


def post(books: Books, account: Account, amount: int, reason: str) -> None:
    """Change one balance by `amount` and write its ledger line. A zero change writes nothing."""
    if amount == 0:
        return
    before = getattr(books, account)
    after = before + amount
    if account in NEVER_NEGATIVE and after < 0:
        raise RuleError(f"Not enough {account}: {before} Nuyen, {reason.lower()} needs {-amount}.")
    setattr(books, account, after)
    books.ledger.append(
        Line(turn=books.turn, phase=books.phase, account=account, amount=amount, reason=reason, balance=after)
    )


def totals(lines: list[Line]) -> dict[str, int]:
    """The sum of the lines per account (what the balances must equal)."""
    sums = {account: 0 for account in ACCOUNTS}
    for line in lines:
        sums[line.account] += line.amount
    return sums


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

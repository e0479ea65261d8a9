"""Play now: a group the store paired becomes a table, every seat its person's ticket."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..stores.seeking_sql import SeekRow
from ..table import intents as i

if TYPE_CHECKING:
    from .live import LiveTable
    from .runtime import TableRuntime

__all__ = ["seat_group"]


async def seat_group(runtime: TableRuntime, group: list[SeekRow], table_id: str) -> LiveTable:
    """The table of a paired group, dealt: the first to wait hosts, the others join in
    waiting order, bots of the host's level fill what is left (only if agreed to), and
    every seat's token is its person's ticket, so that nothing secret is kept."""
    host = group[0]
    bots = {str(seat): host.level for seat in range(len(group), host.players)}
    live, _ = runtime.create_table(
        host.players,
        host.name,
        bots,
        None,
        host.address,
        False,
        False,
        host.rated,
        table_id=table_id,
        token_hash=host.ticket_hash,
    )
    for seat, seeker in enumerate(group[1:], 1):
        await runtime.apply(
            live, i.Join(seeker.name, seat, seeker.ticket_hash, seeker.address), None
        )
    store = runtime.store
    accounts = [(s.ticket_hash, s.account_id) for s in group if s.account_id is not None]

    def claim() -> None:  # their games and ratings: the seats are the accounts'
        for ticket_hash, account_id in accounts:
            store.claim_seat(table_id, ticket_hash, account_id)

    await runtime.stored(claim)
    await runtime.start(live, live.state.host)
    return live

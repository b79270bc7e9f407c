"""The reads of ``bot.storage.interface.Reads``, each one statement function of a synchronous
connection, run where the implementation runs its statements (``_call``): in a transaction of the
storage reader's (``SqlStorage``), or in a job's open transaction on the writer's thread
(``JobTransaction``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.engine import Connection

from bot.storage import battles, log, rights
from bot.storage.records import BattleHead, EventRow, Grants, Loaded, Snapshots

P = ParamSpec("P")
T = TypeVar("T")


class StatementReads(ABC):
    @abstractmethod
    async def _call(
        self, statement: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``statement(connection, *args, **kwargs)`` where this implementation runs its statements."""

    async def latest(
        self, guild: str, channel: str, held: BattleHead | None = None
    ) -> tuple[BattleHead | None, Loaded | None]:
        return await self._call(battles.read_latest, guild, channel, held)

    async def snapshots(self, battle_id: int) -> Snapshots:
        return await self._call(battles.read_snapshots, battle_id)

    async def grants(self, guild: str, battle_id: int, user: str) -> Grants:
        return await self._call(rights.read_grants, guild, battle_id, user)

    async def co_gms(self, battle_id: int) -> tuple[str, ...]:
        return await self._call(rights.read_co_gms, battle_id)

    async def log(self, battle_id: int, last: int) -> list[EventRow]:
        return await self._call(log.read_log, battle_id, last)

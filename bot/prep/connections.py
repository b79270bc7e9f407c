"""The prep page's listening socket, kept reachable by its GM while other programs hold connections open
(issue 34, "smaller holes"): aiohttp's server gives a connection that sends its request's headers one
byte at a time as long as it likes, and a thousand such connections used every descriptor the process
had, so the page itself could not be opened.

``start_site`` listens with ``HeaderTimeoutSite``: every connection is a ``_Connection`` (a protocol that
hands everything to aiohttp's own ``RequestHandler``) that must complete a request's headers within
``header_timeout`` seconds of opening, and on keep-alive within that long of its previous response's end,
or it is closed. At most ``max_connections`` are open at once: one more is accepted (``_Listener``)
by closing the oldest of those trickling their headers (some bytes, no end of headers yet), else the
oldest of those that have sent nothing for ``GRACE`` s; else it waits in the system's queue (of
``BACKLOG``: a burst does not make the GM's wait a second for a dropped packet sent again) until there
is room. So the GM's page gets in while a thousand trickle, and once accepted it is not pushed out by
the connections that came after it before its bytes are read. A connection busy with a request (its
headers read, until its response is written) is never closed.

When a request begins is seen where aiohttp makes it (the server's ``request_factory``, called as a
request's headers are taken from the connection), and when it ends is the end of the task that runs
its handler and writes its response (seen in the server's ``request_handler``, which runs in it).
"""

from __future__ import annotations

import asyncio
import errno
import socket
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest
from aiohttp.web_server import Server

#: seconds a connection has to send a request's headers (from its opening, or its previous response's end)
HEADER_TIMEOUT = 5.0
#: connections open at once (a browser opens a few; a desktop gives a process 1,024 descriptors)
MAX_CONNECTIONS = 256
#: connections the system keeps waiting to be accepted: beyond them it drops a new one's packets and the
#: client tries again only a second later (the system may keep fewer: Linux's net.core.somaxconn)
BACKLOG = 4096
#: connections accepted in one turn of the event loop (then its other work is done)
ACCEPT_BATCH = 64
#: seconds until a connection that found no room is looked at again (it waits in the system's queue)
RETRY = 0.02
#: a connection that has sent nothing (or a request's end of headers that no request followed) is
#: closed to make room only when it is this old (seconds), unless nothing else can be
GRACE = 0.25
_END_OF_HEADERS = b"\r\n\r\n"


class _Tracker:
    """The connections of one site: which are open, and of those waiting for headers, which have sent
    nothing (``idle``), part of their headers (``trickling``) or their headers' end (``ended``), each
    in the order it came to be so (a dict keeps it)."""

    def __init__(self, server: Server, header_timeout: float, max_connections: int) -> None:
        if header_timeout <= 0:
            raise ValueError(f"header_timeout must be positive, not {header_timeout!r}")
        if max_connections < 1:
            raise ValueError(f"max_connections must be at least 1, not {max_connections!r}")
        self.server = server
        self.header_timeout = header_timeout
        self.max_connections = max_connections
        #: the open connections, by their aiohttp handler
        self._open: dict[RequestHandler, _Connection] = {}
        #: how many of them are not being closed already (from when their protocol is made)
        self._live = 0
        #: connections accepted whose protocol is not made yet (``_Listener``)
        self.pending = 0
        #: those waiting for headers (since when), by what they have sent
        self.idle: dict[_Connection, float] = {}
        self.trickling: dict[_Connection, float] = {}
        self.ended: dict[_Connection, float] = {}
        #: connections closed for taking too long with their headers, and to make room for a new one
        self.timed_out = 0
        self.evicted = 0
        #: the longest a connection closed (or lost) while waiting had waited for its headers (seconds)
        self.longest_wait = 0.0
        self._wrap(server)

    def _wrap(self, server: Server) -> None:
        """A request's start and end seen in the server's request factory and request handler (each
        connection's ``RequestHandler`` takes them from the server when it is made)."""
        make_request = server.request_factory
        handle = server.request_handler

        def request_factory(message: Any, payload: Any, protocol: Any, writer: Any, task: Any) -> BaseRequest:
            connection = self._open.get(protocol)
            if connection is not None:
                connection.request_began()
            return make_request(message, payload, protocol, writer, task)

        async def request_handler(request: BaseRequest) -> web.StreamResponse:
            connection = self._open.get(request.protocol)
            if connection is not None:
                # this task writes the response too (``RequestHandler._handle_request``)
                task = asyncio.current_task()
                if task is None:  # pragma: no cover - a handler always runs in a task
                    connection.request_ended()
                else:
                    task.add_done_callback(lambda _: connection.request_ended())
            return await handle(request)

        server.request_factory = request_factory
        server.request_handler = request_handler

    def protocol(self) -> _Connection:
        """A new connection's protocol (counted open from now)."""
        self._live += 1
        return _Connection(self, self.server())

    def opened(self, connection: _Connection) -> None:
        self._open[connection.handler] = connection
        self.waits(connection, self.idle)
        if self._live > self.max_connections:  # pragma: no cover - room was made when it was accepted
            self.evicted += 1
            (self._victim(connection.loop.time()) or connection).close()

    def has_room(self, now: float) -> bool:
        """Room for one more connection: fewer than the cap are open, or one can be closed for it."""
        return self._live + self.pending < self.max_connections or self._victim(now) is not None

    def make_room(self, now: float) -> None:
        """Room made for one more connection (``has_room`` said there could be)."""
        if self._live + self.pending >= self.max_connections:
            victim = self._victim(now)
            if victim is not None:
                self.evicted += 1
                victim.close()

    def _victim(self, now: float) -> _Connection | None:
        """The connection to close to make room: the oldest trickling its headers; else the oldest of
        those that sent an end of headers no request followed, or sent nothing, for ``GRACE`` s; else
        none (a new one waits to be accepted). A connection that just sent its headers' end waits for
        aiohttp to take its request (the next turn of the loop), and one just opened for its bytes to
        be read: so the GM's page is never closed by connections that came after it."""
        for waiting, old in ((self.trickling, 0.0), (self.ended, GRACE), (self.idle, GRACE)):
            for connection, since in waiting.items():
                if now - since >= old:
                    return connection
                break  # the others there came later
        return None

    def waits(self, connection: _Connection, state: dict[_Connection, float] | None) -> None:
        """``connection`` now waiting in ``state`` (None: it is busy, or closed)."""
        for other in (self.idle, self.trickling, self.ended):
            if other is not state:
                other.pop(connection, None)
        if state is not None and connection not in state:
            state[connection] = connection.loop.time()

    def closing(self, connection: _Connection) -> None:
        self._live -= 1
        for waiting in (self.idle, self.trickling, self.ended):
            since = waiting.get(connection)
            if since is not None:
                self.longest_wait = max(self.longest_wait, connection.loop.time() - since)
        self.waits(connection, None)

    def lost(self, connection: _Connection) -> None:
        self._open.pop(connection.handler, None)

    @property
    def open_connections(self) -> int:
        """Connections open and not being closed."""
        return self._live


class _Connection(asyncio.Protocol):
    """One connection: aiohttp's ``RequestHandler`` does all the work; this one closes it when it
    waits too long for a request's headers (or to make room)."""

    def __init__(self, tracker: _Tracker, handler: RequestHandler) -> None:
        self.tracker = tracker
        self.handler = handler
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()
        self._busy = 0
        self._closing = False
        self._timer: asyncio.TimerHandle | None = None
        #: the last bytes received while waiting (an end of headers split between two reads)
        self._tail = b""

    @property
    def waiting(self) -> bool:
        """Open, and waiting for a request's headers (not busy with one, not being closed)."""
        return self._busy == 0 and not self._closing and self.transport is not None

    # --- asyncio's protocol, handed to aiohttp's ------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.handler.connection_made(transport)
        self._arm()
        self.tracker.opened(self)

    def data_received(self, data: bytes) -> None:
        if self.waiting:
            seen = self._tail + data
            ended = _END_OF_HEADERS in seen
            self._tail = seen[-3:]
            self.tracker.waits(self, self.tracker.ended if ended else self.tracker.trickling)
        self.handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self.handler.eof_received()  # type: ignore[func-returns-value]  # (None: close)

    def pause_writing(self) -> None:
        self.handler.pause_writing()

    def resume_writing(self) -> None:
        self.handler.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if not self._closing:
            self._closing = True
            self.tracker.closing(self)
        self.tracker.lost(self)
        self.handler.connection_lost(exc)
        self.transport = None

    # --- requests ---------------------------------------------------------------------------------

    def request_began(self) -> None:
        self._busy += 1
        self._disarm()
        self.tracker.waits(self, None)

    def request_ended(self) -> None:
        self._busy -= 1
        if self._busy == 0 and not self._closing:
            self._tail = b""
            self.tracker.waits(self, self.tracker.idle)
            self._arm()  # keep-alive: the next request's headers within the timeout too

    def _arm(self) -> None:
        self._disarm()
        self._timer = self.loop.call_later(self.tracker.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expired(self) -> None:
        self._timer = None
        if self.waiting:
            # headers parsed in this very turn of the loop reach the request factory in the next one
            # (aiohttp's handler task is woken by them): look again after it
            self.loop.call_soon(self._expired_now)

    def _expired_now(self) -> None:
        if self.waiting:
            self.tracker.timed_out += 1
            self.close()

    def close(self) -> None:
        """Closed now (it is waiting for headers: nothing of it is unanswered)."""
        if self._closing:
            return
        self._closing = True
        self._disarm()
        self.tracker.closing(self)
        if self.transport is not None:
            self.transport.close()


class _Listener(asyncio.AbstractServer):
    """The listening socket, accepting a connection only when there is room for it (``_Tracker``): at
    the cap with none to close, the next one waits in the system's queue (``BACKLOG``) rather than
    being accepted and closed, and is looked at again ``RETRY`` s later. What aiohttp's site and runner
    use of asyncio's ``Server``: ``sockets``, ``close``, ``wait_closed``."""

    def __init__(self, tracker: _Tracker, listening: socket.socket) -> None:
        self.tracker = tracker
        self.sockets = (listening,)
        self._socket = listening
        self._loop = asyncio.get_running_loop()
        self._reading = False
        self._again: asyncio.TimerHandle | None = None
        self._connecting: set[asyncio.Task[None]] = set()
        self._closed = False
        listening.setblocking(False)
        self._read()

    def _read(self) -> None:
        self._again = None
        if not self._closed and not self._reading:
            self._loop.add_reader(self._socket.fileno(), self._accept)
            self._reading = True

    def _wait(self, seconds: float) -> None:
        if self._reading:
            self._loop.remove_reader(self._socket.fileno())
            self._reading = False
        if self._again is None and not self._closed:
            self._again = self._loop.call_later(seconds, self._read)

    def _accept(self) -> None:
        for _ in range(ACCEPT_BATCH):
            now = self._loop.time()
            if not self.tracker.has_room(now):
                self._wait(RETRY)
                return
            try:
                accepted, _ = self._socket.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as error:
                if error.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    self._wait(1.0)  # as asyncio's own server does: no descriptor now, later perhaps
                    return
                raise
            accepted.setblocking(False)
            self.tracker.make_room(now)
            self.tracker.pending += 1
            task = self._loop.create_task(self._connect(accepted))
            self._connecting.add(task)
            task.add_done_callback(self._connecting.discard)

    async def _connect(self, accepted: socket.socket) -> None:
        made: list[_Connection] = []

        def protocol() -> _Connection:
            self.tracker.pending -= 1
            made.append(self.tracker.protocol())
            return made[-1]

        try:
            await self._loop.connect_accepted_socket(protocol, accepted)
        except BaseException:
            if made:
                made[0].close()
            else:
                self.tracker.pending -= 1
            accepted.close()
            raise

    # --- asyncio's AbstractServer ---------------------------------------------------------------

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._reading:
            self._loop.remove_reader(self._socket.fileno())
            self._reading = False
        if self._again is not None:
            self._again.cancel()
            self._again = None
        self._socket.close()
        for task in self._connecting:
            task.cancel()

    async def wait_closed(self) -> None:
        if self._connecting:
            await asyncio.gather(*self._connecting, return_exceptions=True)

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def is_serving(self) -> bool:
        return not self._closed

    async def start_serving(self) -> None:
        pass  # it serves from the start

    async def serve_forever(self) -> None:
        raise NotImplementedError("the prep page's site runs until its runner is cleaned up")


class HeaderTimeoutSite(web.TCPSite):
    """A ``web.TCPSite`` whose connections must send their headers in time, at most so many at once
    (``bot.prep.connections``)."""

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str,
        port: int,
        *,
        header_timeout: float = HEADER_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
        backlog: int = BACKLOG,
    ) -> None:
        super().__init__(runner, host, port, backlog=backlog)
        assert runner.server is not None  # TCPSite refuses a runner not set up
        self.tracker = _Tracker(runner.server, header_timeout, max_connections)

    async def start(self) -> None:
        await super(web.TCPSite, self).start()  # BaseSite's: the runner knows this site
        listening = socket.create_server((self._host, self._port), backlog=self._backlog)
        self._server = _Listener(self.tracker, listening)
        self._bound_port = listening.getsockname()[1]


async def start_site(
    runner: web.AppRunner,
    host: str,
    port: int,
    *,
    header_timeout: float = HEADER_TIMEOUT,
    max_connections: int = MAX_CONNECTIONS,
) -> HeaderTimeoutSite:
    """``runner`` (set up) listening on ``host``:``port`` (0: any free port; ``runner.addresses`` says
    which), its connections held to ``header_timeout`` and ``max_connections``."""
    site = HeaderTimeoutSite(
        runner, host, port, header_timeout=header_timeout, max_connections=max_connections
    )
    await site.start()
    return site

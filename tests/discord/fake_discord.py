"""A local stand-in for Discord, for tests that run the bot as a real process (``toride run``).

aiohttp on 127.0.0.1 serves what the bot uses of Discord's REST API (login, application info,
``/gateway/bot``, command registration, interaction callbacks, webhook follow-ups and edits, channel
messages, their edits and history) and the gateway websocket: HELLO, IDENTIFY → READY and a
GUILD_CREATE per guild of the shard, HEARTBEAT → HEARTBEAT_ACK, RESUME → the missed events, then
RESUMED; DM channels (``POST /users/@me/channels``). Tests send INTERACTION_CREATE (and chat
MESSAGE_CREATE) events to a shard's session, read what the bot sent (every REST call is kept,
timed), make the next call of a route answer 429 with ``retry_after``, and drop
a gateway connection, or make one go silent (open, but no HEARTBEAT_ACK: a "zombie" connection, with
``heartbeat_ms`` short so a test needs not wait Discord's 41 s). Every gateway connection is kept
(``connections``: its heartbeats, whether each was acknowledged, how it ended). Nothing here waits
without a bound.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web
from discord_harness import Member, interaction_payload, message_payload, user_payload

APPLICATION_ID = 910000000000000001
BOT_ID = 910000000000000002
TOKEN = "stand-in-token"
TIMESTAMP = "2026-12-03T12:00:00.000000+00:00"
HEARTBEAT_MS = 41250
#: the gateway's opcodes
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = (
    0,
    1,
    2,
    6,
    7,
    9,
    10,
    11,
)
EPHEMERAL = 64
#: Discord's application command option types that carry a value
SUB_COMMAND = 1

_ids = itertools.count(920000000000000001)


def snowflake() -> int:
    return next(_ids)


def guild_on_shard(shard: int, shard_count: int, start: int = 1) -> int:
    """A guild id whose events Discord sends to ``shard`` (``(guild_id >> 22) % shard_count``)."""
    for n in itertools.count(start):
        guild = (n << 22) | 1
        if (guild >> 22) % shard_count == shard:
            return guild
    raise AssertionError("unreachable")


def bot_user() -> dict[str, Any]:
    return {**user_payload(BOT_ID, "Toride"), "bot": True}


@dataclass
class Call:
    """One REST request the bot made, with when it arrived."""

    method: str
    path: str
    body: Any
    at: float
    files: list[str] = field(default_factory=list)
    #: the HTTP status the stand-in answered with
    status: int = 0

    @property
    def data(self) -> dict[str, Any]:
        body = self.body if isinstance(self.body, dict) else {}
        return dict(body.get("data") or {}) if self.path.endswith("/callback") else body

    @property
    def type(self) -> int | None:
        return (
            self.body.get("type") if self.path.endswith("/callback") and isinstance(self.body, dict) else None
        )

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    def text(self) -> str:
        parts: list[str] = []
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                parts += [f["name"], f["value"]]
        return "\n".join(p for p in parts if p)


@dataclass
class Session:
    """A gateway session: the shard it is, the events sent (for RESUME), its current connection."""

    id: str
    shard: tuple[int, int]
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    resumes: int = 0
    #: events sent again on a RESUME (those the bot missed while its connection was down)
    replayed: int = 0
    #: when its IDENTIFY came (``time.monotonic``)
    identified_at: float = 0.0


@dataclass
class Connection:
    """One gateway websocket: its session (after IDENTIFY or RESUME), what came over it."""

    number: int
    session: Session | None = None
    #: the first op after HELLO (IDENTIFY or RESUME)
    opened_with: int | None = None
    #: one entry per HEARTBEAT received: was it acknowledged
    heartbeats: list[bool] = field(default_factory=list)
    #: no HEARTBEAT_ACK is sent any more (``FakeDiscord.silence``)
    silent: bool = False
    #: the close code the bot (or the stand-in) closed it with; None while open
    close_code: int | None = None
    closed: bool = False


@dataclass
class Interaction:
    id: int
    token: str
    sent_at: float


class FakeDiscord:
    def __init__(
        self,
        guilds: Sequence[int] = (),
        *,
        shards: int = 1,
        heartbeat_ms: int = HEARTBEAT_MS,
        edit_limit: tuple[int, float] | None = None,
        max_concurrency: int = 1,
        identify_spacing: float = 5.0,
    ) -> None:
        self.guilds = list(guilds)
        #: what GET /gateway/bot's ``session_start_limit`` says: IDENTIFYs allowed per ``identify_spacing``
        #: seconds, one per bucket ``shard_id % max_concurrency``
        self.max_concurrency = max_concurrency
        self.identify_spacing = identify_spacing
        #: every IDENTIFY with a valid token: (shard id, when it came, ``time.monotonic``)
        self.identifies: list[tuple[int, float]] = []
        #: the IDENTIFYs that came sooner than ``identify_spacing`` after the one before in their
        #: bucket: (shard id, seconds since that one)
        self.too_soon: list[tuple[int, float]] = []
        #: (edits, seconds): at most this many message edits per channel in any such window, more
        #: answer 429 with the wait, as Discord's per-channel bucket does; None: no limit
        self.edit_limit = edit_limit
        self._edits: dict[str, list[float]] = {}
        #: the heartbeat interval HELLO gives
        self.heartbeat_ms = heartbeat_ms
        #: every gateway connection, in the order they were opened
        self.connections: list[Connection] = []
        #: what GET /gateway/bot recommends
        self.recommended_shards = shards
        self.calls: list[Call] = []
        self.sessions: list[Session] = []
        #: every IDENTIFY and RESUME received: (op, data without the token)
        self.gateway_ops: list[tuple[int, dict[str, Any]]] = []
        #: the commands as last registered (a PUT, global or for a guild)
        self.commands: list[dict[str, Any]] = []
        #: channel id → message id → the message as last posted or edited
        self.messages: dict[int, dict[int, dict[str, Any]]] = {}
        #: (method, path) → retry_after: the next such call answers 429 (once)
        self.rate_limits: dict[tuple[str, str], float] = {}
        #: user id → the id of the DM channel the bot opened with them
        self.dm_channels: dict[int, int] = {}
        self._changed = asyncio.Condition()
        self._sockets: dict[web.WebSocketResponse, Connection] = {}
        #: until when (``time.monotonic``) the gateway refuses its upgrades, and the REST API answers
        #: ``rest_status`` to every call (an outage: ``refuse_gateway``, ``storm``)
        self.gateway_refused_until = 0.0
        self.rest_failing_until = 0.0
        self.rest_status = 503
        #: every gateway upgrade refused (``time.monotonic``)
        self.refused_upgrades: list[float] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        #: the name the bot is told to reach the stand-in by (its REST API and its gateway); a name
        #: other than 127.0.0.1 must resolve to it (a test's ``/etc/hosts``)
        self.host = "127.0.0.1"
        #: the gateway's name (Discord's is another host than its API's: a connection kept alive
        #: for the API does not serve the gateway's upgrade)
        self.gateway_host = "127.0.0.1"

    # --- running -----------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for session in self.sessions:
            if session.ws is not None and not session.ws.closed:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.gateway_host}:{self.port}/gateway"

    async def _note(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, check: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
        """The first true value of ``check()``, re-checked at every call or gateway event."""
        try:
            async with asyncio.timeout(timeout):
                async with self._changed:
                    while not (found := check()):
                        await self._changed.wait()
                    return found
        except TimeoutError:
            raise AssertionError(f"no {what} within {timeout:g} s") from None

    # --- REST ----------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        body, files = await _read_body(request)
        call = Call(request.method, path, body, time.monotonic(), files)
        self.calls.append(call)
        limit = self.rate_limits.pop((request.method, path), None)
        if limit is None:
            limit = self._over_edit_limit(request.method, path, call.at)
        token_in_url = path.startswith(("/webhooks/", "/interactions/"))
        if call.at < self.rest_failing_until:  # an outage of Discord's API: every call fails
            response = _json({"message": "Service Unavailable", "code": 0}, status=self.rest_status)
        elif limit is not None:
            response = _rate_limited(limit)
        elif not token_in_url and request.headers.get("Authorization") != f"Bot {TOKEN}":
            response = _json({"message": "401: Unauthorized", "code": 0}, status=401)
        else:
            response = await self._answer(request.method, path, body)
        call.status = response.status
        await self._note()
        return response

    async def _answer(self, method: str, path: str, body: Any) -> web.Response:
        words = path.strip("/").split("/")
        if path == "/users/@me":
            return _json(bot_user())
        if path == "/oauth2/applications/@me":
            return _json(_application())
        if path == "/gateway/bot":
            limit = {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": self.max_concurrency,
            }
            return _json(
                {"url": self.gateway_url, "shards": self.recommended_shards, "session_start_limit": limit}
            )
        if path == "/users/@me/channels" and method == "POST":  # a DM channel with the recipient
            recipient = int((body or {}).get("recipient_id") or 0)
            self.dm_channels[recipient] = self.dm_channels.get(recipient) or snowflake()
            dm = {"id": str(self.dm_channels[recipient]), "type": 1, "last_message_id": None}
            return _json({**dm, "recipients": [user_payload(recipient, "recipient")]})
        if words[0] == "applications" and words[-1] == "commands" and method == "PUT":
            registered = [
                {**c, "id": str(snowflake()), "application_id": str(APPLICATION_ID), "version": "1"}
                for c in body or []
            ]
            self.commands = list(body or [])
            return _json(registered)
        if words[0] == "interactions" and words[-1] == "callback":
            return _json(self._callback(int(words[1]), body or {}))
        if words[0] == "webhooks":
            if method == "DELETE":
                return web.Response(status=204)
            return _json(self._message(snowflake(), 0, body))
        if words[0] == "channels" and len(words) >= 3 and words[2] == "messages":
            return self._channel(method, int(words[1]), words[3:], body)
        return _json({"message": f"404: {method} {path} is not in the stand-in", "code": 0}, status=404)

    def _callback(self, interaction_id: int, body: dict[str, Any]) -> dict[str, Any]:
        kind = body.get("type")
        data = body.get("data") or {}
        message_id = snowflake()
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction_id),
                "type": 2,
                "response_message_id": str(message_id),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }
        }
        if kind in (4, 5, 7):
            answer["resource"] = {"type": kind, "message": self._message(message_id, 0, data)}
        return answer

    def _channel(self, method: str, channel: int, rest: list[str], body: Any) -> web.Response:
        stored = self.messages.setdefault(channel, {})
        if method == "GET" and not rest:
            return _json([stored[m] for m in sorted(stored, reverse=True)][:50])
        if method == "POST" and not rest:
            message = self._message(snowflake(), channel, body)
            stored[int(message["id"])] = message
            return _json(message)
        if method == "PATCH" and rest:
            message_id = int(rest[0])
            if message_id not in stored:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            stored[message_id] = self._message(message_id, channel, {**stored[message_id], **(body or {})})
            return _json(stored[message_id])
        return _json({"message": "405: Method Not Allowed", "code": 0}, status=405)

    @staticmethod
    def _message(message_id: int, channel: int, body: Mapping[str, Any] | None) -> dict[str, Any]:
        return message_payload(message_id, channel, body, bot_id=BOT_ID)

    def _over_edit_limit(self, method: str, path: str, now: float) -> float | None:
        """The wait a message edit must keep under ``edit_limit``, or None: it may go now."""
        words = path.strip("/").split("/")
        if self.edit_limit is None or method != "PATCH" or words[0] != "channels" or len(words) != 4:
            return None
        count, window = self.edit_limit
        recent = [at for at in self._edits.get(words[1], []) if now - at < window]
        if len(recent) >= count:
            self._edits[words[1]] = recent
            return recent[0] + window - now
        self._edits[words[1]] = [*recent, now]
        return None

    def rate_limit(self, method: str, path: str, retry_after: float) -> None:
        """The next ``method path`` call answers 429 with ``retry_after`` (Discord's body and headers)."""
        self.rate_limits[(method, path)] = retry_after

    # --- the gateway ---------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if time.monotonic() < self.gateway_refused_until:  # an outage: the upgrade is refused
            self.refused_upgrades.append(time.monotonic())
            await self._note()
            return web.Response(status=503, text="gateway unavailable")
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(number=len(self.connections) + 1)
        self.connections.append(connection)
        self._sockets[ws] = connection
        await ws.send_json(
            {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_ms}, "s": None, "t": None}
        )
        session: Session | None = None
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            op, data = frame.get("op"), frame.get("d")
            if op == HEARTBEAT:
                connection.heartbeats.append(not connection.silent)
                if not connection.silent:
                    await ws.send_json({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            elif op in (IDENTIFY, RESUME):
                connection.opened_with = connection.opened_with or op
                session = await (self._identify(ws, data) if op == IDENTIFY else self._resume(ws, data))
                connection.session = session
            await self._note()
        connection.closed, connection.close_code = True, ws.close_code
        if session is not None and session.ws is ws:
            session.ws = None
        await self._note()
        return ws

    def _record(self, op: int, data: dict[str, Any]) -> None:
        self.gateway_ops.append((op, {k: v for k, v in data.items() if k != "token"}))

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        self._record(IDENTIFY, data)
        if data.get("token") != TOKEN:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard_id, shard_count = data.get("shard") or [0, 1]
        self._check_spacing(shard_id)
        session = Session(
            id=f"session-{len(self.sessions) + 1}",
            shard=(shard_id, shard_count),
            ws=ws,
            identified_at=time.monotonic(),
        )
        self.sessions.append(session)
        mine = [g for g in self.guilds if (g >> 22) % shard_count == shard_id]
        await self.dispatch(
            session,
            "READY",
            {
                "v": 10,
                "user": bot_user(),
                "guilds": [{"id": str(g), "unavailable": True} for g in mine],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": [shard_id, shard_count],
                "application": {"id": str(APPLICATION_ID), "flags": 0},
            },
        )
        for guild in mine:
            await self.dispatch(session, "GUILD_CREATE", _guild(guild))
        return session

    def _check_spacing(self, shard_id: int) -> None:
        """Discord's session start limit: one IDENTIFY per bucket per ``identify_spacing`` seconds."""
        now = time.monotonic()
        bucket = shard_id % self.max_concurrency
        before = [at for shard, at in self.identifies if shard % self.max_concurrency == bucket]
        if before and now - before[-1] < self.identify_spacing:
            self.too_soon.append((shard_id, now - before[-1]))
        self.identifies.append((shard_id, now))

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        self._record(RESUME, data)
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if session is None or data.get("token") != TOKEN:
            await ws.send_json({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        session.ws = ws
        session.resumes += 1
        for frame in session.sent:
            if frame["s"] > int(data.get("seq") or 0):
                session.replayed += 1
                await ws.send_json(frame)
        await self.dispatch(session, "RESUMED", {})
        return session

    async def dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
        """Send an event to the session (kept for a RESUME if its connection is down now)."""
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        if session.ws is not None and not session.ws.closed and not self._sockets[session.ws].silent:
            await session.ws.send_json(frame)

    def session(self, shard: int = 0) -> Session:
        """The latest session of ``shard`` (resumed ones stay the same session)."""
        found = [s for s in self.sessions if s.shard[0] == shard]
        assert found, f"no session for shard {shard}"
        return found[-1]

    async def drop(self, session: Session) -> None:
        """Close the session's connection as Discord does on a problem of its own (code 4000: the bot
        may RESUME)."""
        assert session.ws is not None
        await session.ws.close(code=4000, message=b"Unknown error")

    async def refuse_gateway(self, seconds: float) -> None:
        """A gateway outage: every open connection is closed (code 4000: the bot may RESUME) and every
        upgrade is refused (HTTP 503) for ``seconds``; then the gateway answers again."""
        self.gateway_refused_until = time.monotonic() + seconds
        for ws in list(self._sockets):
            if not ws.closed:
                await ws.close(code=4000, message=b"Unknown error")

    def storm(self, seconds: float, status: int = 503) -> None:
        """A REST outage: every call answers ``status`` (5xx) for ``seconds``."""
        self.rest_status = status
        self.rest_failing_until = time.monotonic() + seconds

    def silence(self, session: Session) -> Connection:
        """The session's connection stays open but sends nothing any more: no HEARTBEAT_ACK, no event
        (a zombie; the events are kept for a RESUME)."""
        assert session.ws is not None
        connection = self._sockets[session.ws]
        connection.silent = True
        return connection

    def connected(self, session: Session) -> bool:
        return session.ws is not None and not session.ws.closed

    # --- interactions --------------------------------------------------------------------------

    async def interact(
        self,
        session: Session,
        member: Member,
        guild: int,
        channel: int,
        kind: int,
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
    ) -> Interaction:
        payload = interaction_payload(member, kind, data, guild, channel, APPLICATION_ID)
        interaction = Interaction(id=int(payload["id"]), token=payload["token"], sent_at=0.0)
        if message is not None:
            payload["message"] = message
        interaction.sent_at = time.monotonic()
        await self.dispatch(session, "INTERACTION_CREATE", payload)
        return interaction

    def command_data(
        self, path: str, options: Mapping[str, Any], focused: str | None = None
    ) -> dict[str, Any]:
        """A slash command's ``data`` as Discord sends it, option types read from the registered commands."""
        words = path.split()
        (command,) = [c for c in self.commands if c["name"] == words[0]]
        definition = command
        for word in words[1:]:
            (definition,) = [o for o in definition.get("options") or [] if o["name"] == word]
        types = {o["name"]: o["type"] for o in definition.get("options") or []}
        given = [
            {
                "name": name,
                "type": types[name],
                "value": value,
                **({"focused": True} if name == focused else {}),
            }
            for name, value in options.items()
        ]
        data: dict[str, Any] = {"id": str(snowflake()), "name": words[0], "type": 1}
        if len(words) == 1:
            data["options"] = given
        else:
            data["options"] = [{"name": words[1], "type": SUB_COMMAND, "options": given}]
        return data

    def callbacks(self, interaction: Interaction) -> list[Call]:
        return [c for c in self.calls if c.path.startswith(f"/interactions/{interaction.id}/")]

    async def callback(self, interaction: Interaction, timeout: float = 15.0) -> Call:
        found: list[Call] = await self.wait_for(
            lambda: self.callbacks(interaction), "interaction callback", timeout
        )
        return found[0]

    def followups(self, interaction: Interaction) -> list[Call]:
        return [c for c in self.calls if f"/webhooks/{APPLICATION_ID}/{interaction.token}" in c.path]

    def channel_calls(self, channel: int, method: str | None = None) -> list[Call]:
        prefix = f"/channels/{channel}/messages"
        return [c for c in self.calls if c.path.startswith(prefix) and method in (None, c.method)]


async def _read_body(request: web.Request) -> tuple[Any, list[str]]:
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files: list[str] = []
        reader = await request.multipart()
        async for part in reader:
            if getattr(part, "name", None) == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                files.append(getattr(part, "filename", None) or "")
                await part.read()  # type: ignore[union-attr]
        return body, files
    raw = await request.read()
    return (json.loads(raw) if raw else None), []


def _json(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    """A JSON answer typed exactly ``application/json``, as Discord's (discord.py checks for that)."""
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _rate_limited(retry_after: float) -> web.Response:
    headers = {
        "Via": "1.1 google",  # discord.py tells Discord's 429s from a proxy's by it
        "Retry-After": str(max(1, round(retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": "stand-in-bucket",
        "X-RateLimit-Scope": "user",
    }
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
    return _json(body, status=429, headers=headers)


def _application() -> dict[str, Any]:
    return {
        "id": str(APPLICATION_ID),
        "name": "Toride",
        "icon": None,
        "description": "",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user_payload(930000000000000001, "owner"),
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "summary": "",
    }


def _guild(guild: int) -> dict[str, Any]:
    return {
        "id": str(guild),
        "name": f"guild {guild}",
        "unavailable": False,
        "owner_id": "930000000000000001",
        "member_count": 3,
        "large": False,
        "features": [],
        "roles": [
            {"id": str(guild), "name": "@everyone", "permissions": str(1 << 10), "position": 0, "color": 0}
        ],
        "emojis": [],
        "stickers": [],
        "channels": [],
        "threads": [],
        "members": [],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "joined_at": TIMESTAMP,
    }

"""Drive the real discord.py client with no network.

Interactions enter as the INTERACTION_CREATE payloads Discord sends, through the client's
connection state (``parse_interaction_create``), so the real ``CommandTree`` parses, converts and
dispatches them. Whatever the bot sends goes through two recorders: interaction responses and
follow-ups through the webhook adapter (``async_context``), channel messages and edits through
``RecordingHTTP`` (the client's ``HTTPClient``). Tests read the recorded requests.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.discord.client import TorideBot
from bot.discord.coalesce import Coalescer
from engine.dice import ScriptedDice

APPLICATION_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 100000000000000001
CHANNEL_ID = 200000000000000001
TIMESTAMP = "2026-11-29T12:00:00.000000+00:00"
#: Manage Channels (1 << 4) and the usual member permissions
MANAGE_CHANNELS = 1 << 4
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 31)

_ids = itertools.count(300000000000000001)
#: the DM channels' ids (``POST /users/@me/channels``): this plus the last digits of the user's id
DM_CHANNEL_BASE = 700000000000000000


def snowflake() -> int:
    return next(_ids)


def user_payload(user_id: int, name: str) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name, "avatar": None}


def message_payload(
    message_id: int, channel_id: int, body: Mapping[str, Any] | None, flags: int = 0, bot_id: int = BOT_ID
) -> dict[str, Any]:
    """A message as Discord gives it, posted by the bot ``bot_id``."""
    body = body or {}
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": {**user_payload(bot_id, "Toride"), "bot": True},
        "content": body.get("content") or "",
        "timestamp": TIMESTAMP,
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": body.get("embeds") or [],
        "pinned": False,
        "type": 0,
        "flags": flags | int(body.get("flags") or 0),
        "components": body.get("components") or [],
    }


def interaction_payload(
    member: Member,
    kind: int,
    data: dict[str, Any],
    guild_id: int,
    channel_id: int,
    application_id: int = APPLICATION_ID,
) -> dict[str, Any]:
    """An INTERACTION_CREATE event's data as Discord sends it (a guild text channel)."""
    return {
        "id": str(snowflake()),
        "application_id": str(application_id),
        "type": kind,
        "token": f"token-{snowflake()}",
        "version": 1,
        "guild_id": str(guild_id),
        "channel_id": str(channel_id),
        "channel": {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(guild_id),
            "name": "battle",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        },
        "member": member.payload(),
        "locale": member.locale,
        "guild_locale": "ja",
        "app_permissions": str((1 << 11) | (1 << 14) | (1 << 10)),
        "entitlements": [],
        "attachment_size_limit": 10485760,
        "authorizing_integration_owners": {"0": str(guild_id)},
        "context": 0,
        "data": data,
    }


@dataclass
class Request:
    method: str
    path: str
    payload: dict[str, Any] | None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    via: str = "webhook"
    #: what the recording HTTP client answered (the message a channel POST created)
    reply: dict[str, Any] | None = None

    @property
    def data(self) -> dict[str, Any]:
        """The message part: ``data`` of an interaction callback, else the payload itself."""
        payload = self.payload or {}
        if self.path.endswith("/callback"):
            return dict(payload.get("data") or {})
        return payload

    @property
    def type(self) -> int | None:
        return (self.payload or {}).get("type") if self.path.endswith("/callback") else None

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & 64)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.data.get("choices") or [])

    def text(self) -> str:
        """Every visible string of the embeds, for assertions on wording."""
        parts: list[str] = []
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [
                (embed.get("author") or {}).get("name") or "",
                (embed.get("footer") or {}).get("text") or "",
            ]
            for f in embed.get("fields") or []:
                parts += [f["name"], f["value"]]
        return "\n".join(p for p in parts if p)


def _decode(
    payload: dict[str, Any] | None, multipart: Sequence[Mapping[str, Any]] | None
) -> dict[str, Any] | None:
    if payload is not None:
        return json.loads(json.dumps(payload))
    for part in multipart or ():
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def _files(files: Sequence[discord.File] | None) -> list[tuple[str, bytes]]:
    out = []
    for f in files or ():
        f.reset()
        out.append((f.filename or "", f.fp.read()))
    return out


class Recorder:
    """The requests of both recorders, in the order they were made."""

    def __init__(self) -> None:
        self.requests: list[Request] = []


class RecordingAdapter(AsyncWebhookAdapter):
    def __init__(self, recorder: Recorder) -> None:
        super().__init__()
        self.recorder = recorder
        #: answer every interaction callback with 404 Unknown interaction (an expired token)
        self.expired = False

    async def request(  # type: ignore[override]
        self,
        route: Route,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Sequence[discord.File] | None = None,
        **_: Any,
    ) -> Any:
        path = route.url.removeprefix(Route.BASE)
        body = _decode(payload, multipart)
        self.recorder.requests.append(Request(route.method, path, body, _files(files)))
        if route.method == "DELETE":
            return None
        if path.endswith("/callback"):
            assert body is not None
            if self.expired:
                raise discord.NotFound(_FakeResponse(404), {"code": 10062, "message": "Unknown interaction"})  # type: ignore[arg-type]
            kind = body["type"]
            data = body.get("data") or {}
            message_id = snowflake()
            interaction = {
                "id": str(route.webhook_id),
                "type": 2,
                "response_message_id": str(message_id),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & 64),
            }
            if kind in (4, 5, 7):
                message = message_payload(message_id, CHANNEL_ID, data)
                return {"interaction": interaction, "resource": {"type": kind, "message": message}}
            return {"interaction": interaction}
        return message_payload(snowflake(), CHANNEL_ID, body)


class RecordingHTTP(HTTPClient):
    """The client's REST layer: records channel messages and edits, serves attachment bytes."""

    def __init__(self, recorder: Recorder, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop)
        self.recorder = recorder
        self.cdn: dict[str, bytes] = {}
        #: what GET /channels/{id}/messages answers (newest first), by channel id
        self.history: dict[int, list[dict[str, Any]]] = {}
        #: status codes to fail the next matching requests with: (method, path prefix) → code
        self.fail: dict[tuple[str, str], int] = {}

    async def request(self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        path = route.url.removeprefix(Route.BASE)
        body = _decode(kwargs.get("json"), form)
        request = Request(route.method, path, body, _files(files), via="http")
        self.recorder.requests.append(request)
        for (method, prefix), code in list(self.fail.items()):
            if method == route.method and path.startswith(prefix):
                del self.fail[(method, prefix)]
                response = _FakeResponse(code)
                raise (discord.NotFound if code == 404 else discord.Forbidden)(response, "refused")  # type: ignore[arg-type]
        if route.method == "PUT" and path.endswith("/commands"):  # bulk registration: Discord echoes them
            return [
                {**command, "id": str(snowflake()), "application_id": str(APPLICATION_ID), "version": "1"}
                for command in body or []
            ]
        if route.method == "POST" and path == "/users/@me/channels":  # a DM channel (chat dice secrets)
            recipient = int((body or {}).get("recipient_id") or 0)
            dm = {"id": str(DM_CHANNEL_BASE + recipient % 1000), "type": 1, "last_message_id": None}
            return {**dm, "recipients": [user_payload(recipient, "recipient")]}
        if route.method == "GET" and path.endswith("/messages"):
            return self.history.get(int(path.split("/")[2]), [])
        if route.method in ("POST", "PATCH") and "/messages" in path:
            channel_id = int(path.split("/")[2])
            message_id = int(path.split("/")[4]) if route.method == "PATCH" else snowflake()
            request.reply = message_payload(message_id, channel_id, body)
            return request.reply
        return None

    async def get_from_cdn(self, url: str) -> bytes:
        return self.cdn[url]


class _FakeResponse:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "refused"


class Gate:
    """Holds a service call until ``opened`` is set: a database that does not answer yet."""

    def __init__(self) -> None:
        self.opened = asyncio.Event()
        self.held = 0

    def hold(self, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def held(*args: Any, **kwargs: Any) -> Any:
            self.held += 1
            await self.opened.wait()
            return await call(*args, **kwargs)

        return held


class FakeClock:
    """Time that moves only when a test says so: ``sleep`` waits until ``advance`` passes its deadline."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, future))
        await future

    def waiting(self) -> int:
        return sum(1 for _, future in self._sleepers if not future.done())

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for item in list(self._sleepers):
            deadline, future = item
            if deadline <= self.now + 1e-9:
                self._sleepers.remove(item)
                if not future.done():
                    future.set_result(None)


@dataclass
class Member:
    id: int
    name: str
    locale: str = "ja"
    permissions: int = MEMBER_PERMISSIONS
    roles: tuple[int, ...] = ()

    def payload(self) -> dict[str, Any]:
        return {
            "user": user_payload(self.id, self.name),
            "roles": [str(r) for r in self.roles],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "permissions": str(self.permissions),
        }


@dataclass
class Result:
    """The requests one interaction made."""

    requests: list[Request]

    @property
    def response(self) -> Request:
        found = [r for r in self.requests if r.path.endswith("/callback")]
        assert len(found) == 1, self.requests
        return found[0]

    @property
    def followups(self) -> list[Request]:
        return [
            r
            for r in self.requests
            if r.method == "POST" and r.via == "webhook" and not r.path.endswith("/callback")
        ]

    @property
    def channel(self) -> list[Request]:
        return [r for r in self.requests if r.via == "http"]

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.response.embeds

    @property
    def ephemeral(self) -> bool:
        return self.response.ephemeral

    def text(self) -> str:
        return self.response.text()


class Harness:
    """A bot with recorders and a fake clock, and helpers that send it interactions."""

    def __init__(self, bot: TorideBot, recorder: Recorder, clock: FakeClock) -> None:
        self.bot = bot
        self.recorder = recorder
        self.clock = clock
        self.guild_id = GUILD_ID
        self.channel_id = CHANNEL_ID
        self.http: RecordingHTTP = bot.http  # type: ignore[assignment]
        self.adapter: RecordingAdapter | None = None

    @classmethod
    async def create(cls, service: Any, **kwargs: Any) -> Harness:
        recorder = Recorder()
        clock = FakeClock()
        bot = TorideBot(service, coalescer=Coalescer(2.0, clock=clock, sleep=clock.sleep), **kwargs)
        loop = asyncio.get_running_loop()
        http = RecordingHTTP(recorder, loop)
        # the client, its connection state and its command tree each hold the REST client
        bot.http = http
        bot._connection.http = http
        bot.tree._http = http
        await bot._async_setup_hook()
        bot._connection.application_id = APPLICATION_ID
        bot._connection.user = discord.ClientUser(
            state=bot._connection,
            data={**user_payload(BOT_ID, "Toride"), "bot": True},  # type: ignore[typeddict-item]
        )
        await bot.install()
        adapter = RecordingAdapter(recorder)
        async_context.set(adapter)
        harness = cls(bot, recorder, clock)
        harness.adapter = adapter
        return harness

    # --- payloads ----------------------------------------------------------------------------

    def _base(
        self, member: Member, kind: int, data: dict[str, Any], channel_id: int | None = None
    ) -> dict[str, Any]:
        return interaction_payload(member, kind, data, self.guild_id, channel_id or self.channel_id)

    def _command(self, path: str) -> app_commands.Command[Any, ..., Any]:
        words = path.split()
        found = self.bot.tree.get_command(words[0])
        for word in words[1:]:
            assert isinstance(found, app_commands.Group), path
            found = found.get_command(word)
        assert isinstance(found, app_commands.Command), path
        return found

    def command_data(
        self, path: str, options: Mapping[str, Any], focused: str | None = None
    ) -> dict[str, Any]:
        command = self._command(path)
        params = {p.display_name: p for p in command.parameters}
        resolved: dict[str, dict[str, Any]] = {}
        out: list[dict[str, Any]] = []
        for name, value in options.items():
            param = params[name]
            kind = param.type.value
            if isinstance(value, Member):
                resolved.setdefault("users", {})[str(value.id)] = user_payload(value.id, value.name)
                member = value.payload()
                del member["user"]
                resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            elif isinstance(value, Role):
                resolved.setdefault("roles", {})[str(value.id)] = value.payload()
                value = str(value.id)
            elif isinstance(value, Attachment):
                resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
                self.http.cdn[value.url] = value.content
                value = str(value.id)
            option: dict[str, Any] = {"name": name, "type": kind, "value": value}
            if name == focused:
                option["focused"] = True
            out.append(option)
        words = path.split()
        data: dict[str, Any] = {"id": str(snowflake()), "name": words[0], "type": 1}
        if len(words) == 1:
            data["options"] = out
        else:
            data["options"] = [{"name": words[1], "type": 1, "options": out}]
        if resolved:
            data["resolved"] = resolved
        return data

    # --- sending -----------------------------------------------------------------------------

    async def dispatch(self, payload: dict[str, Any]) -> Result:
        start = len(self.recorder.requests)
        before = asyncio.all_tasks()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle(before)
        # the live status edit a command makes at once belongs to it; later ones wait for the clock
        await self.live_quiet()
        return Result(self.recorder.requests[start:])

    async def settle(self, before: set[asyncio.Task[Any]] | None = None) -> None:
        """Wait for the tasks the interaction started (tree invoker, view dispatch), not live edits."""
        known = before or set()
        current = asyncio.current_task()
        for _ in range(100):
            pending = [
                t
                for t in asyncio.all_tasks()
                if t not in known
                and t is not current
                and not t.get_name().startswith("toride-live")
                and not t.done()
            ]
            if not pending:
                await asyncio.sleep(0)
                return
            await asyncio.wait(pending)
        raise AssertionError("interaction tasks did not settle")

    async def run(self, member: Member, path: str, channel_id: int | None = None, **options: Any) -> Result:
        return await self.dispatch(self._base(member, 2, self.command_data(path, options), channel_id))

    async def complete(self, member: Member, path: str, focused: str, **options: Any) -> list[str]:
        result = await self.dispatch(self._base(member, 4, self.command_data(path, options, focused)))
        assert result.response.type == 8
        return [c["value"] for c in result.response.choices]

    async def press(self, member: Member, custom_id: str, message_id: int | None = None) -> Result:
        message = message_payload(message_id or snowflake(), self.channel_id, {})
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._base(member, 3, data)
        payload["message"] = message
        return await self.dispatch(payload)

    def _live_tasks(self) -> list[asyncio.Task[Any]]:
        return [t for t in asyncio.all_tasks() if t.get_name().startswith("toride-live") and not t.done()]

    async def live_quiet(self) -> list[asyncio.Task[Any]]:
        """Wait until every live status task is done or waiting on the fake clock; those waiting."""
        for _ in range(20000):
            tasks = self._live_tasks()
            if len(tasks) == self.clock.waiting():
                return tasks
            await asyncio.sleep(0.0005)
        raise AssertionError("live status tasks did not come to rest")

    async def flush_live(self) -> list[Request]:
        """Run the live status edits due, moving the fake clock on by the interval while one waits."""
        start = len(self.recorder.requests)
        for _ in range(50):
            if not await self.live_quiet():
                break
            self.clock.advance(self.bot.coalescer.interval)
        return [r for r in self.recorder.requests[start:] if r.via == "http"]

    def channel_requests(self) -> Iterator[Request]:
        return (r for r in self.recorder.requests if r.via == "http")


@dataclass
class Role:
    id: int
    name: str

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "permissions": "0", "position": 1, "color": 0}


@dataclass
class Attachment:
    filename: str
    content: bytes
    id: int = field(default_factory=snowflake)

    @property
    def url(self) -> str:
        return f"https://cdn.discordapp.com/attachments/{CHANNEL_ID}/{self.id}/{self.filename}"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.content),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": "application/json",
        }


# --- the members and dice the tests share ------------------------------------------------------

GM = Member(400000000000000001, "GM太郎", locale="ja")
ALICE = Member(400000000000000002, "Alice", locale="en-US")
BOB = Member(400000000000000003, "ボブ", locale="ja")
MOD = Member(400000000000000004, "Mod", locale="ja", permissions=(1 << 4) | (1 << 11))


class Dice(ScriptedDice):
    """Scripted dice a test feeds as it goes (the service gives back the dice of a refused command)."""

    def feed(self, *values: int) -> None:
        self._values.extend(values)

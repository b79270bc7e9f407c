"""Fetching a character sheet by URL, for the front-ends, before a command reaches the service.

Safe by default: https only (certificates verified), hosts from an allow-list (the public ゆとシートⅡ,
``DEFAULT_HOSTS``; ``TORIDE_SHEET_HOSTS`` replaces it, comma-separated), no private, loopback or other
special addresses (the host is resolved first and the connection pinned to the addresses checked, so a
second lookup cannot point elsewhere), redirects followed only within the allow-list, at most 1 MB and
5 s. It is asynchronous and runs outside the channel's lock, so a slow site keeps no other channel waiting.
A ゆとシート sheet URL (``…/?id=xyz``) is fetched as its JSON output (``&mode=json``).

aiohttp is imported when a sheet is fetched, not with this module: the console starts without it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import ssl
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from bot.commands import CommandSpec, JsonRefused, OptType, SheetSource, load_json
from engine.errors import EngineError

if TYPE_CHECKING:
    from aiohttp.abc import AbstractResolver, ResolveResult

DEFAULT_HOSTS = ("yutorize.2-d.jp",)
ENV_HOSTS = "TORIDE_SHEET_HOSTS"
MAX_BYTES = 1_000_000
TIMEOUT = 5.0
MAX_REDIRECTS = 3
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


class SheetFetchError(EngineError):
    """A sheet URL refused or not fetched: ``sheet.*`` keys that say why and what is allowed."""


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """Where sheets may come from. ``allow_private`` and ``ssl`` are for tests (a local server with its own
    certificate authority); production leaves them alone and gets the system's verification."""

    hosts: frozenset[str] = frozenset(DEFAULT_HOSTS)
    max_bytes: int = MAX_BYTES
    timeout: float = TIMEOUT
    allow_private: bool = False
    ssl: ssl.SSLContext | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> FetchPolicy:
        text = (environ if environ is not None else os.environ).get(ENV_HOSTS, "")
        hosts = frozenset(h.strip().lower() for h in text.split(",") if h.strip())
        return cls(hosts=hosts or frozenset(DEFAULT_HOSTS))


def json_url(url: str) -> str:
    """A ゆとシート sheet page (``?id=…``) as its JSON output (``mode=json``); any other URL as it is."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if not any(k == "id" for k, _ in query):
        return url
    query = [(k, v) for k, v in query if k != "mode"] + [("mode", "json")]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def _host(url: str, policy: FetchPolicy, *, redirected: bool) -> tuple[str, int]:
    parts = urlsplit(url)
    try:
        host, port = (parts.hostname or "").lower(), parts.port or 443
    except ValueError:
        raise SheetFetchError("sheet.url_invalid", url=url[:200]) from None
    if parts.scheme != "https" or not host:
        raise SheetFetchError("sheet.url_not_https", url=url[:200])
    if host not in policy.hosts:
        key = "sheet.redirect_refused" if redirected else "sheet.host_not_allowed"
        raise SheetFetchError(key, host=host, hosts=", ".join(sorted(policy.hosts)))
    return host, port


def _allowed_address(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    return ip.is_global and not ip.is_multicast


async def _addresses(host: str, port: int, policy: FetchPolicy) -> list[ResolveResult]:
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        raise SheetFetchError("sheet.fetch_failed", host=host) from None
    found: list[ResolveResult] = []
    for family, _, proto, _, sockaddr in infos:
        address = str(sockaddr[0])
        if policy.allow_private or _allowed_address(address):
            found.append(
                {
                    "hostname": host, "host": address, "port": port, "family": family, "proto": proto,
                    "flags": socket.AI_NUMERICHOST,
                }
            )  # fmt: skip
    if not found:
        raise SheetFetchError("sheet.address_not_allowed", host=host)
    return found


def _pinned(pinned: str, results: list[ResolveResult]) -> AbstractResolver:
    """A resolver of the one host ``pinned`` to the addresses already checked, and nothing else."""
    from aiohttp.abc import AbstractResolver

    class _Pinned(AbstractResolver):
        async def resolve(
            self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
        ) -> list[ResolveResult]:
            if host.lower() != pinned:  # pragma: no cover - aiohttp asks only for the URL's host
                raise OSError(f"not resolved: {host}")
            return results

        async def close(self) -> None:
            return None

    return _Pinned()


async def _get(url: str, host: str, port: int, policy: FetchPolicy) -> tuple[str | None, bytes]:
    """One request: the redirect's target (None if it is not one) and the body."""
    import aiohttp

    resolver = _pinned(host, await _addresses(host, port, policy))
    connector = aiohttp.TCPConnector(resolver=resolver, use_dns_cache=False)
    verify: Any = policy.ssl if policy.ssl is not None else True
    headers = {"Accept": "application/json"}
    async with (
        aiohttp.ClientSession(connector=connector) as session,
        session.get(url, allow_redirects=False, ssl=verify, headers=headers) as reply,
    ):
        if reply.status in _REDIRECTS:
            return urljoin(url, reply.headers.get("Location", "")), b""
        if reply.status != 200:
            raise SheetFetchError("sheet.fetch_status", host=host, status=reply.status)
        too_large = SheetFetchError("sheet.too_large", max=policy.max_bytes // 1000)
        if reply.content_length is not None and reply.content_length > policy.max_bytes:
            raise too_large
        body = bytearray()
        async for chunk in reply.content.iter_chunked(65536):
            body += chunk
            if len(body) > policy.max_bytes:
                raise too_large
        return None, bytes(body)


async def fetch_sheet(url: str, policy: FetchPolicy) -> SheetSource:
    """The sheet at ``url`` as JSON text (``sheet.*`` refusals: not https, host, address, redirect, size,
    time, status, not JSON)."""
    import aiohttp

    target, redirected = json_url(url.strip()), False
    try:
        async with asyncio.timeout(policy.timeout):
            for _ in range(MAX_REDIRECTS + 1):
                host, port = _host(target, policy, redirected=redirected)
                location, body = await _get(target, host, port, policy)
                if location is None:
                    return SheetSource(_json_text(body), url.strip())
                target, redirected = location, True
    except TimeoutError:
        raise SheetFetchError("sheet.fetch_timeout", seconds=policy.timeout) from None
    except (aiohttp.ClientError, ssl.SSLError, OSError):
        raise SheetFetchError("sheet.fetch_failed", host=urlsplit(target).hostname or None) from None
    raise SheetFetchError("sheet.too_many_redirects", max=MAX_REDIRECTS)


def _json_text(body: bytes) -> str:
    try:
        text = body.decode("utf-8-sig")
        document = load_json(text)
    except JsonRefused as refused:  # too deep, a number no sheet means, a lone surrogate
        raise SheetFetchError(refused.key, option="sheet", **refused.values) from None
    except ValueError:  # not UTF-8, or not JSON
        raise SheetFetchError("sheet.fetch_not_json") from None
    if not isinstance(document, dict):
        raise SheetFetchError("sheet.fetch_not_json")
    return text


def is_url(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower().startswith(("https://", "http://"))


async def fetch_sheet_options(
    spec: CommandSpec, options: MutableMapping[str, Any], policy: FetchPolicy
) -> None:
    """Every ``sheet:`` option of ``spec`` given as a URL, fetched (the front-ends call this first)."""
    for opt in spec.options:
        if opt.type is OptType.SHEET and is_url(options.get(opt.name)):
            options[opt.name] = await fetch_sheet(str(options[opt.name]), policy)

"""The server's front door: an ASGI middleware in front of every Streamlit route.

Whatever the mode (`sudokucam ui` on 127.0.0.1 or `--lan`):

- a request whose `Host` is not one of the server's own names is refused (421), so a web
  page that rebinds its DNS name to this machine reaches nothing;
- a websocket from another origin is refused here, before Streamlit's origin check (which
  would look up this machine's addresses online: 8.8.8.8 and checkip.amazonaws.com);
- `/_stcore/host-config` advertises no embedding origins (Streamlit's default lists its
  cloud hosts), and every page says it may not be framed by other sites and sends no
  referrer (`SECURITY_HEADERS`);
- websocket messages the app has no use for (clearing every cache for everyone, git
  information, run-on-save, agent skills, debug requests) are dropped.

Under `--lan` (an access token is set), a browser gets in only with the token: a request
carrying the right `?token=` is answered with a redirect to the same address without it
and a cookie (Secure, HttpOnly) holding a key derived from the token, so reloads and
bookmarks keep working for the server's lifetime and the token never reaches a Referer
or the browser's history. Without the cookie a browser gets only the lock page (`/`, or
any page address) or a 403: no script session, no upload, no metrics, no static files.
"""

from __future__ import annotations

import hmac
import html
import json
import logging
import os
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from .access import (
    CLOSED_TEXT,
    CLOSED_TITLE,
    COOKIE_NAME,
    HOSTS_ENV,
    TOKEN_ENV,
    TOKEN_PARAM,
    access_key,
    token_ok,
)

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE_MAX_AGE_S = 30 * 24 * 3600  # the key is worthless once the server stops anyway
OPEN_PATHS = frozenset({"/_stcore/health"})  # answered without the cookie ("ok")
HOST_CONFIG_PATH = "/_stcore/host-config"
SECURITY_HEADERS = (
    (b"x-frame-options", b"SAMEORIGIN"),  # the board is an iframe of this server's own
    (b"content-security-policy", b"frame-ancestors 'self'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)
# What a browser of this app sends on its websocket; anything else is dropped.
ALLOWED_BACK_MESSAGES = frozenset(
    {"rerun_script", "app_heartbeat", "stop_script", "file_urls_request"}
)
ALLOWED_BACKEND_OPERATIONS = frozenset({"deferred_file", "dataframe_chunk"})
WS_POLICY_VIOLATION = 1008
LOCK_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;
line-height:1.5;color:#262730}}p{{background:#e8f0fe;padding:1rem;border-radius:.5rem}}</style>
</head><body><h1>{title}</h1><p>{text}</p></body></html>
"""


@dataclass(frozen=True)
class DoorConfig:
    """What the door lets in.

    hosts: the host names (no port) a request may be addressed to.
    token: the access token of `--lan`; empty: no token asked (plain `ui`).
    lock_title, lock_text: what the lock page says.
    """

    hosts: frozenset[str]
    token: str = ""
    lock_title: str = CLOSED_TITLE
    lock_text: str = field(default=CLOSED_TEXT)

    @classmethod
    def from_env(cls) -> DoorConfig:
        """What the launcher handed the server: the token and the extra host names."""
        names = [n.strip() for n in os.environ.get(HOSTS_ENV, "").split(",") if n.strip()]
        return cls(allowed_hosts(names), os.environ.get(TOKEN_ENV, ""))


class Door:
    """The ASGI middleware (module doc)."""

    def __init__(self, app: ASGIApp, config: DoorConfig) -> None:
        """Wrap `app` (Streamlit's Starlette app)."""
        self.app = app
        self.config = config
        self._key = access_key(config.token) if config.token else ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Let the request through, or answer it here."""
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """An HTTP request: host, token and lock page, then the app with our headers."""
        headers = _headers(scope)
        if not self._host_ok(headers.get("host")):
            await _respond(send, 421, b"text/plain", b"This server does not answer that name.\n")
            return
        path = str(scope.get("path", "/"))
        if self.config.token and path not in OPEN_PATHS:
            given = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            if token_ok(given.get(TOKEN_PARAM), self.config.token):
                await self._let_in(scope, send, given)
                return
            if not self._has_key(headers):
                await self._lock(scope, send)
                return
        if path == HOST_CONFIG_PATH and scope.get("method") == "GET":
            await _respond(send, 200, b"application/json", host_config(), no_cache=True)
            return
        await self.app(scope, receive, _with_headers(send))

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A websocket: same host, same origin, the cookie under --lan; filtered messages."""
        headers = _headers(scope)
        origin = headers.get("origin")
        same_origin = origin is None or urlsplit(origin).netloc == headers.get("host")
        key_ok = not self.config.token or self._has_key(headers)
        if not (self._host_ok(headers.get("host")) and same_origin and key_ok):
            log.warning("websocket refused (host %s, origin %s)", headers.get("host"), origin)
            await send({"type": "websocket.close", "code": WS_POLICY_VIOLATION})
            return
        await self.app(scope, _filtered(receive), send)

    def _host_ok(self, host: str | None) -> bool:
        """True when the Host header names this server."""
        return host_name(host) in self.config.hosts

    def _has_key(self, headers: dict[str, str]) -> bool:
        """True when the request carries the access cookie."""
        cookie: SimpleCookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # a malformed Cookie header: no key
            return False
        morsel = cookie.get(COOKIE_NAME)
        return morsel is not None and hmac.compare_digest(morsel.value, self._key)

    async def _let_in(self, scope: Scope, send: Send, query: dict[str, str]) -> None:
        """The address without the token, and the cookie that remembers this browser."""
        rest = urlencode({k: v for k, v in query.items() if k != TOKEN_PARAM})
        location = str(scope.get("path", "/")) + (f"?{rest}" if rest else "")
        cookie = (
            f"{COOKIE_NAME}={self._key}; Path=/; Max-Age={COOKIE_MAX_AGE_S}; Secure; HttpOnly; "
            "SameSite=Lax"
        )
        extra = [(b"location", location.encode("latin-1")), (b"set-cookie", cookie.encode())]
        await _respond(send, 303, b"text/plain", b"Welcome.\n", extra=extra, no_cache=True)

    async def _lock(self, scope: Scope, send: Send) -> None:
        """The lock page for a page address; a bare 403 for anything else."""
        path = str(scope.get("path", "/"))
        if scope.get("method") in ("GET", "HEAD") and "." not in path.rsplit("/", 1)[-1]:
            page = LOCK_PAGE.format(
                title=html.escape(self.config.lock_title), text=html.escape(self.config.lock_text)
            )
            await _respond(send, 403, b"text/html; charset=utf-8", page.encode(), no_cache=True)
            return
        await _respond(send, 403, b"text/plain", b"Open the link shown by sudokucam.\n")


def host_name(host: str | None) -> str:
    """The name in a Host header, lower case, without its port or brackets ('' if none)."""
    if not host:
        return ""
    try:
        name = urlsplit(f"//{host}").hostname
    except ValueError:
        return ""
    return (name or "").rstrip(".").lower()


def allowed_hosts(addresses: Iterable[object]) -> frozenset[str]:
    """This machine's loopback names and the given addresses, as Host names."""
    return frozenset({"localhost", "127.0.0.1", "::1", *(str(a).lower() for a in addresses)})


def host_config() -> bytes:
    """Streamlit's host configuration with no embedding origins allowed."""
    return json.dumps(
        {
            "allowedOrigins": [],
            "useExternalAuthToken": False,
            "enableCustomParentMessages": False,
            "enforceDownloadInNewTab": False,
            "metricsUrl": "",
            "blockErrorDialogs": False,
            "resourceCrossOriginMode": None,
        }
    ).encode()


def back_message_allowed(data: bytes) -> bool:
    """True for the websocket messages this app's pages send (see ALLOWED_BACK_MESSAGES)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    message = BackMsg()
    try:
        message.ParseFromString(data)
    except Exception:  # not a BackMsg: Streamlit says so itself
        return True
    kind = message.WhichOneof("type")
    if kind == "backend_operation_request":
        operation = message.backend_operation_request.WhichOneof("payload")
        return operation in ALLOWED_BACKEND_OPERATIONS
    return kind in ALLOWED_BACK_MESSAGES


def _filtered(receive: Receive) -> Receive:
    """`receive` without the websocket messages that are not allowed."""

    async def next_message() -> Message:
        while True:
            message = await receive()
            data = message.get("bytes")
            if message.get("type") != "websocket.receive" or not data:
                return message
            if back_message_allowed(data):
                return message
            log.warning("a websocket message of a kind this app never sends was dropped")

    return next_message


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name (the last of repeated ones)."""
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _with_headers(send: Send) -> Send:
    """`send` that adds SECURITY_HEADERS to the response's start."""

    async def sending(message: Message) -> None:
        if message.get("type") == "http.response.start":
            present = {k.lower() for k, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return sending


async def _respond(
    send: Send,
    status: int,
    content_type: bytes,
    body: bytes,
    extra: list[tuple[bytes, bytes]] | None = None,
    no_cache: bool = False,
) -> None:
    """A whole response from here, with the security headers."""
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    headers += [*SECURITY_HEADERS, *(extra or [])]
    if no_cache:
        headers.append((b"cache-control", b"no-store"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

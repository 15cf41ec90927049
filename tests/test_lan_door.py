"""The server's front door (ui/lan/door.py) as an ASGI middleware, driven in memory:
host names, the --lan token and its cookie, the lock page, headers, websocket origins
and the websocket messages the app never sends. tests/test_lan.py checks the same door
on a real server."""

from __future__ import annotations

import asyncio
import json
from http.cookies import SimpleCookie
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg

from sudokucam.ui.lan.access import CLOSED_TEXT, COOKIE_NAME, access_key
from sudokucam.ui.lan.door import (
    Door,
    DoorConfig,
    Message,
    Scope,
    allowed_hosts,
    back_message_allowed,
    host_name,
)

TOKEN = "the-token-of-this-run"
LAN = DoorConfig(allowed_hosts(["192.168.1.23"]), TOKEN)
PLAIN = DoorConfig(allowed_hosts([]))
PRIVATE_HEADERS = {
    "x-frame-options": "SAMEORIGIN",
    "content-security-policy": "frame-ancestors 'self'",
    "referrer-policy": "no-referrer",
}


class Streamlit:
    """A stand-in for Streamlit's app behind the door: records what reached it."""

    def __init__(self) -> None:
        self.reached: list[str] = []
        self.messages: list[bytes] = []

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        self.reached.append(str(scope["path"]))
        if scope["type"] == "websocket":
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return
                self.messages.append(message["bytes"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"streamlit"})


def call(
    config: DoorConfig,
    path: str = "/",
    host: str = "192.168.1.23:8501",
    method: str = "GET",
    query: str = "",
    cookie: str | None = None,
    kind: str = "http",
    origin: str | None = None,
    frames: tuple[bytes, ...] = (),
) -> tuple[int | None, dict[str, str], bytes, Streamlit]:
    """One request through the door: (status or None if closed, headers, body, app)."""
    app = Streamlit()
    headers = [(b"host", host.encode())]
    if cookie is not None:
        headers.append((b"cookie", cookie.encode()))
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    scope: Scope = {
        "type": kind,
        "path": path,
        "method": method,
        "query_string": query.encode(),
        "headers": headers,
    }
    inbox: list[Message] = [{"type": "websocket.receive", "bytes": f} for f in frames]
    inbox.append({"type": "websocket.disconnect"})
    sent: list[Message] = []

    async def receive() -> Message:
        return inbox.pop(0)

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(Door(app, config)(scope, receive, send))
    start = next((m for m in sent if m["type"] == "http.response.start"), None)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    if start is None:
        return None, {}, body, app
    got = {k.decode(): v.decode() for k, v in start["headers"]}
    return int(start["status"]), got, body, app


def key_cookie(token: str = TOKEN) -> str:
    """The Cookie header of a browser that came with the token."""
    return f"{COOKIE_NAME}={access_key(token)}"


def test_without_the_token_only_the_lock_page_and_nothing_reaches_streamlit() -> None:
    for path, method in [
        ("/", "GET"),
        ("/_stcore/upload_file/session/file", "PUT"),
        ("/_stcore/metrics", "GET"),
        ("/_stcore/host-config", "GET"),
        ("/static/js/index.js", "GET"),
        ("/media/abc.png", "GET"),
    ]:
        for cookie in (None, key_cookie("another-run's-token"), "sudokucam_access=\x00;;"):
            status, headers, _, app = call(LAN, path, method=method, cookie=cookie)
            assert status == 403 and app.reached == [], (path, cookie)
            assert {k: headers[k] for k in PRIVATE_HEADERS} == PRIVATE_HEADERS
    _, _, page, _ = call(LAN, "/")
    assert CLOSED_TEXT.encode() in page and b"<script" not in page
    status, _, _, app = call(LAN, "/", query="token=wrong")
    assert status == 403 and app.reached == []
    status, _, _, app = call(LAN, "/_stcore/stream", kind="websocket", frames=(b"x",))
    assert status is None and app.reached == []  # the websocket is closed before Streamlit


def test_the_token_sets_a_cookie_and_leaves_the_address() -> None:
    status, headers, _, app = call(LAN, "/", query=f"token={TOKEN}&embed=false")
    assert status == 303 and app.reached == []
    assert headers["location"] == "/?embed=false"  # the token is gone from the address
    cookie = SimpleCookie(headers["set-cookie"])[COOKIE_NAME]
    assert cookie.value == access_key(TOKEN) and TOKEN not in headers["set-cookie"]
    assert cookie["secure"] and cookie["httponly"] and cookie["path"] == "/"
    assert headers["referrer-policy"] == "no-referrer" and headers["cache-control"] == "no-store"
    status, headers, body, app = call(LAN, "/", cookie=f"other=1; {key_cookie()}")
    assert (status, body, app.reached) == (200, b"streamlit", ["/"])
    assert {k: headers[k] for k in PRIVATE_HEADERS} == PRIVATE_HEADERS
    status, _, _, app = call(LAN, "/_stcore/stream", kind="websocket", cookie=key_cookie())
    assert app.reached == ["/_stcore/stream"]
    status, _, body, _ = call(LAN, "/_stcore/health")  # open: says only "ok"
    assert status == 200


def test_host_config_advertises_no_embedding_origins() -> None:
    for config, cookie in ((LAN, key_cookie()), (PLAIN, None)):
        status, _, body, app = call(config, "/_stcore/host-config", "localhost", cookie=cookie)
        assert status == 200 and app.reached == []
        assert json.loads(body)["allowedOrigins"] == []


def test_a_rebinding_host_is_refused_and_so_is_a_cross_origin_websocket() -> None:
    for host in ("evil.example:8501", "evil.example", "", "127.0.0.1.evil.example", "[::2]:80"):
        status, _, _, app = call(PLAIN, "/", host=host)
        assert status == 421 and app.reached == [], host
        status, _, _, app = call(PLAIN, "/_stcore/stream", host=host, kind="websocket")
        assert status is None and app.reached == [], host
    for host in ("127.0.0.1:8501", "localhost:8501", "LOCALHOST.", "[::1]:8501"):
        status, _, _, app = call(PLAIN, "/", host=host)
        assert status == 200 and app.reached == ["/"], host
    assert call(LAN, "/", host="192.168.1.99:8501")[0] == 421
    same = "http://127.0.0.1:8501"
    ok = call(PLAIN, "/_stcore/stream", "127.0.0.1:8501", kind="websocket", origin=same)
    assert ok[3].reached == ["/_stcore/stream"]
    for origin in ("https://evil.example", "http://127.0.0.1:9999", "null"):
        _, _, _, app = call(PLAIN, "/_stcore/stream", "127.0.0.1:8501", kind="websocket",
                            origin=origin)  # fmt: skip
        assert app.reached == [], origin  # Streamlit's online origin lookup never runs


def test_websocket_messages_the_app_never_sends_are_dropped() -> None:
    rerun = BackMsg()
    rerun.rerun_script.query_string = ""
    heartbeat = BackMsg(app_heartbeat=True)
    dropped = [
        BackMsg(clear_cache=True),
        BackMsg(load_git_info=True),
        BackMsg(set_run_on_save=True),
        BackMsg(debug_shutdown_runtime=True),
    ]
    skills = BackMsg()
    skills.backend_operation_request.install_skills.SetInParent()
    dropped.append(skills)
    frames = tuple(m.SerializeToString() for m in [rerun, *dropped, heartbeat])
    _, _, _, app = call(PLAIN, "/_stcore/stream", "localhost:8501", kind="websocket",
                        frames=frames)  # fmt: skip
    assert app.messages == [rerun.SerializeToString(), heartbeat.SerializeToString()]
    assert back_message_allowed(b"\xff\xfe not a message")  # Streamlit reports those itself


def test_host_name() -> None:
    assert host_name("LocalHost:8501") == "localhost"
    assert host_name("[::1]:8501") == "::1"
    assert host_name("example.com.") == "example.com"
    assert host_name(None) == host_name("") == host_name("[bad") == ""

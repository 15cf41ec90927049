"""`sudokucam ui --lan`: the certificate, the token, the printed link and QR code, and the
served app over HTTPS with and without the token (Playwright in Debian's Chromium)."""

from __future__ import annotations

import base64
import datetime as dt
import http.client
import ipaddress
import json
import os
import re
import shutil
import ssl
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from cryptography import x509

from sudokucam.tests.browser_harness import (
    PHONE,
    chromium,
    free_port,
    missing_chromium,
    served_app,
    stop,
    wait_until_up,
)
from sudokucam.ui.cli import app as cli_app
from sudokucam.ui.cli.serve import LanServing, streamlit_command, streamlit_env
from sudokucam.ui.lan.access import COOKIE_NAME, HOSTS_ENV, TOKEN_ENV, new_token, token_ok
from sudokucam.ui.lan.cert import (
    CertConfig,
    certificate_addresses,
    config_dir,
    ensure_certificate,
    lan_addresses,
)
from sudokucam.ui.lan.gate import CLOSED_TEXT
from sudokucam.ui.lan.link import access_url, announcement, qr_text

REPO = Path(__file__).resolve().parent.parent
APP = REPO / "ui" / "streamlit_app.py"
HOME_IP = ipaddress.ip_address("192.168.1.23")
OTHER_IP = ipaddress.ip_address("10.0.0.7")
NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
WAIT_MS = 90_000
FIRST_TAB = "Solve a photo"
# connect() to an internet address: AF_INET / AF_INET6 outside loopback (strace's words).
INET_CONNECT = re.compile(r'connect\(\d+, \{sa_family=AF_INET6?, .*?"(?P<addr>[0-9a-f.:]+)"')


def load(path: Path) -> x509.Certificate:
    """The certificate in a PEM file."""
    return x509.load_pem_x509_certificate(path.read_bytes())


# ---------------------------------------------------------------------------- certificate


def test_certificate_is_made_with_private_key_and_names(tmp_path: Path) -> None:
    folder = tmp_path / "conf" / "sudokucam"
    files = ensure_certificate(folder, [HOME_IP], now=NOW)
    assert stat.S_IMODE(files.key.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    cert = load(files.cert)
    assert certificate_addresses(cert) == {HOME_IP, ipaddress.ip_address("127.0.0.1")}
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["localhost"]
    assert cert.not_valid_before_utc < NOW < cert.not_valid_after_utc
    assert cert.not_valid_after_utc - NOW == dt.timedelta(days=CertConfig().valid_days)


def test_certificate_is_reused_while_valid_for_the_same_addresses(tmp_path: Path) -> None:
    first = ensure_certificate(tmp_path, [HOME_IP], now=NOW)
    pem, key = first.cert.read_bytes(), first.key.read_bytes()
    again = ensure_certificate(tmp_path, [HOME_IP], now=NOW + dt.timedelta(days=30))
    assert again == first
    assert (again.cert.read_bytes(), again.key.read_bytes()) == (pem, key)


def test_certificate_is_remade_when_the_addresses_change(tmp_path: Path) -> None:
    first = load(ensure_certificate(tmp_path, [HOME_IP], now=NOW).cert)
    files = ensure_certificate(tmp_path, [OTHER_IP], now=NOW)
    second = load(files.cert)
    assert second.serial_number != first.serial_number
    assert OTHER_IP in certificate_addresses(second) and HOME_IP not in certificate_addresses(
        second
    )
    assert stat.S_IMODE(files.key.stat().st_mode) == 0o600


def test_certificate_is_remade_near_its_end_and_when_broken(tmp_path: Path) -> None:
    config = CertConfig(valid_days=30, renew_days=7)
    first = load(ensure_certificate(tmp_path, [HOME_IP], config, now=NOW).cert)
    late = NOW + dt.timedelta(days=25)
    second = load(ensure_certificate(tmp_path, [HOME_IP], config, now=late).cert)
    assert second.serial_number != first.serial_number
    assert second.not_valid_after_utc > late + dt.timedelta(days=7)
    (tmp_path / "lan-key.pem").write_text("not a key")
    third = load(ensure_certificate(tmp_path, [HOME_IP], config, now=late).cert)
    assert third.serial_number != second.serial_number


def test_config_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if sys.platform in ("win32", "darwin"):
        pytest.skip("XDG config folders are a Linux convention")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_dir() == tmp_path / "sudokucam"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/path")  # not absolute: ignored
    assert config_dir() == Path.home() / ".config" / "sudokucam"


def test_lan_addresses_leave_out_loopback() -> None:
    found = lan_addresses()
    assert all(not ip.is_loopback and not ip.is_link_local for ip in found)
    assert list(found) == sorted(found, key=int)


# ---------------------------------------------------------------------------- token, link


def test_token_check() -> None:
    token = new_token()
    assert len(token) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert new_token() != token
    assert token_ok(token, token)
    assert not token_ok(token[:-1], token)
    assert not token_ok(token + "x", token)
    assert not token_ok("", token) and not token_ok(None, token)
    assert not token_ok("ünïcödé ✓", token)  # non-ASCII: refused, no TypeError
    assert not token_ok(token, "")


HALF_BLOCKS = {"█": (False, False), "▀": (False, True), "▄": (True, False), " ": (True, True)}
ANSI_CELL = re.compile(r"\x1b\[38;5;(\d+);48;5;(\d+)m▀")
WHITE, BLACK = "231", "16"  # the 256-colour entries no terminal theme changes


def module_rows(line: str) -> list[list[bool]]:
    """The two rows of modules (light=True) one line of terminal text shows."""
    coloured = ANSI_CELL.findall(line)
    if coloured:
        assert {c for pair in coloured for c in pair} <= {WHITE, BLACK}, coloured
        return [[fg == WHITE for fg, _ in coloured], [bg == WHITE for _, bg in coloured]]
    return [[HALF_BLOCKS[c][0] for c in line], [HALF_BLOCKS[c][1] for c in line]]


def qr_modules(text: str) -> np.ndarray:
    """The modules (light=True) of a QR code printed as terminal text."""
    return np.array([row for line in text.splitlines() for row in module_rows(line)], bool)


def decode_modules(light: np.ndarray) -> str:
    """Read QR modules (light=True) back with OpenCV's QR decoder, with no margin but the
    code's own quiet zone."""
    image = np.kron(light.astype(np.uint8) * 255, np.ones((8, 8), np.uint8))
    value, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(value)


def decode_qr(text: str) -> str:
    """Read a QR code printed as terminal text back, with only its own quiet zone."""
    return decode_modules(qr_modules(text))


def quiet_zone(light: np.ndarray) -> int:
    """How many all-light rows and columns surround the code (the least of its 4 sides)."""
    dark_rows = np.flatnonzero(~light.all(axis=1))
    dark_cols = np.flatnonzero(~light.all(axis=0))
    return int(min(dark_rows[0], dark_cols[0], light.shape[1] - 1 - dark_cols[-1],
                   light.shape[0] - 1 - dark_rows[-1]))  # fmt: skip


def test_link_and_qr_code() -> None:
    url = access_url(HOME_IP, 8501, "a-b_c")
    assert url == "https://192.168.1.23:8501/?token=a-b_c"
    assert access_url(ipaddress.ip_address("fe80::1"), 8501, "t").startswith("https://[fe80::1]:")
    assert decode_qr(qr_text(url)) == url
    assert decode_qr(qr_text(url, colour=True)) == url
    assert "\x1b[" not in qr_text(url)
    text = announcement([HOME_IP, OTHER_IP], 8501, "tok")
    assert "https://192.168.1.23:8501/?token=tok" in text
    assert "https://10.0.0.7:8501/?token=tok" in text
    assert qr_text("https://192.168.1.23:8501/?token=tok") in text
    assert "localhost" in announcement([], 8501, "tok")


def test_terminal_qr_code_reads_on_light_and_dark_terminals() -> None:
    """Coloured, every cell is painted black or white from the 256-colour palette (never
    the terminal's own colours), so the theme does not matter; and the code keeps the
    standard's quiet zone of 4 modules, enough for a scanner with nothing around it."""
    # a fixed token of the real length: OpenCV misses about 1 random code in 60
    url = access_url(HOME_IP, 8501, "Xk2_9f-QzL0aBcDeFgHiJkLmNoPqRsTuV")
    coloured = qr_text(url, colour=True)
    for line in coloured.splitlines():
        assert ANSI_CELL.sub("", line) == "\x1b[0m"  # every cell painted, then reset
    light = qr_modules(coloured)
    assert quiet_zone(light) >= 4
    assert decode_modules(light) == url
    assert decode_modules(~light) != url  # drawn inverted (light modules in ink) it fails
    plain = qr_modules(qr_text(url))
    assert (plain == light).all()  # without colour: dark modules in ink, as on paper


def test_printed_instructions_explain_the_certificate_warning_on_phones() -> None:
    text = announcement([HOME_IP], 8501, "tok")
    assert "Safari" in text and "This Connection Is Not Private" in text
    assert "Show Details" in text and "visit this website" in text
    assert "Chrome" in text and "Your connection is not private" in text
    assert "Advanced" in text and "Proceed to 192.168.1.23 (unsafe)" in text


def test_ui_lan_saves_the_qr_code_as_png(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from sudokucam.ui.cli import serve
    from sudokucam.ui.lan import access

    started: list[list[str]] = []

    def serve_here(command: list[str], env: dict[str, str]) -> int:
        started.append(command)
        return 0

    monkeypatch.setattr(serve, "serve", serve_here)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    # one fixed token: OpenCV's QR reader misses about 1 random code in 60
    monkeypatch.setattr(access, "new_token", lambda: "Xk2_9f-QzL0aBcDeFgHiJkLmNoPqRsTuV")
    png = tmp_path / "phone.png"
    result = CliRunner().invoke(cli_app, ["ui", "--lan", "--port", "8599", "--qr", str(png)])
    assert result.exit_code == 0, result.output
    assert f"QR code saved to {png}" in result.output and len(started) == 1
    assert stat.S_IMODE(png.stat().st_mode) == 0o600  # it holds the token
    image = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    value, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    printed = re.findall(r"https://\S+:8599/\?token=\S+|https://localhost:8599/\S+", result.output)
    assert value == printed[0]
    assert image[:40].min() == 255 and image[-40:].min() == 255  # a white quiet zone
    assert not list(tmp_path.glob(".*.part"))


def test_ui_qr_is_refused_without_lan_or_where_it_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from sudokucam.ui.cli import serve

    monkeypatch.setattr(serve, "serve", lambda command, env: 0)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    result = CliRunner().invoke(cli_app, ["ui", "--qr", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "--qr needs --lan" in result.output
    missing = tmp_path / "no" / "such" / "folder" / "x.png"
    result = CliRunner().invoke(cli_app, ["ui", "--lan", "--qr", str(missing)])
    assert result.exit_code == 1
    assert result.output.startswith(f"error: cannot write the QR code to {missing}: ")
    assert "Traceback" not in result.output and len(result.output.splitlines()) == 1


def test_command_and_environment_for_lan(tmp_path: Path) -> None:
    serving = LanServing(tmp_path / "c.pem", tmp_path / "k.pem", "tok")
    cmd = streamlit_command(9123, lan=serving)
    pairs = dict(zip(cmd[5::2], cmd[6::2], strict=True))
    assert pairs["--server.address"] == "0.0.0.0"
    assert pairs["--server.sslCertFile"] == str(serving.cert)
    assert pairs["--server.sslKeyFile"] == str(serving.key)
    assert pairs["--logger.hideWelcomeMessage"] == "true"  # else Streamlit looks up its IP
    plain = dict(zip(streamlit_command(9123)[5::2], streamlit_command(9123)[6::2], strict=True))
    assert plain["--server.address"] == "127.0.0.1" and "--server.sslCertFile" not in plain
    assert streamlit_env("tok")[TOKEN_ENV] == "tok"
    assert streamlit_env("tok", ("192.168.1.23", "10.0.0.7"))[HOSTS_ENV] == "192.168.1.23,10.0.0.7"
    assert streamlit_env()[HOSTS_ENV] == ""  # loopback names only
    os.environ[TOKEN_ENV] = "left over"
    try:
        assert TOKEN_ENV not in streamlit_env()
    finally:
        del os.environ[TOKEN_ENV]


def test_ui_lan_fails_in_one_line_when_the_certificate_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    blocked = tmp_path / "file"
    blocked.write_text("a file where the config folder should be")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))
    result = CliRunner().invoke(cli_app, ["ui", "--lan", "--port", "9"])
    assert result.exit_code == 1
    assert result.output.startswith("error: cannot write the certificate in ")
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------------- the gate


def test_gate_without_a_token_shows_only_the_short_page(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv(TOKEN_ENV, "the-right-token")
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    assert not at.exception
    assert [i.value for i in at.info] == [CLOSED_TEXT]
    assert not at.tabs and not at.subheader
    at.query_params["token"] = "a-wrong-token"
    at.run()
    assert not at.exception and [i.value for i in at.info] == [CLOSED_TEXT]


def test_gate_with_the_token_opens_the_app_and_remembers(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv(TOKEN_ENV, "the-right-token")
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["token"] = "the-right-token"
    at.run()
    assert not at.exception
    assert at.subheader[0].value == FIRST_TAB
    assert CLOSED_TEXT not in [i.value for i in at.info]
    assert "token" not in at.query_params  # taken out of the address: never in a Referer
    at.run()  # the session is remembered without it
    assert at.subheader[0].value == FIRST_TAB
    assert "token" not in at.query_params


def test_gate_is_open_without_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.delenv(TOKEN_ENV, raising=False)
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    assert at.subheader[0].value == FIRST_TAB


# ---------------------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """`sudokucam ui --lan` (under strace when installed), its token, certificate and log."""
    home = tmp_path_factory.mktemp("lan_home")
    port, trace = free_port(), home / "strace.txt"
    env = dict(os.environ, XDG_CONFIG_HOME=str(home / "config"), HOME=str(home))
    prefix = ["strace", "-f", "-e", "trace=connect", "-o", str(trace)]
    command = [sys.executable, "-m", "sudokucam", "ui", "--lan", "--port", str(port)]
    server = subprocess.Popen([*(prefix if shutil.which("strace") else []), *command], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)  # fmt: skip
    try:
        cert = home / "config" / "sudokucam" / "lan-cert.pem"
        url = f"https://127.0.0.1:{port}"
        while not cert.is_file() and server.poll() is None:
            time.sleep(0.2)
        wait_until_up(url, server, context=ssl.create_default_context(cafile=str(cert)))
        token = printed_token(server)
        drain = threading.Thread(target=lambda: [None for _ in server.stdout or ()], daemon=True)
        drain.start()  # the server's log never fills the pipe
        yield {"url": url, "cert": cert, "trace": trace, "server": server, "token": token,
               "port": port}  # fmt: skip
    finally:
        stop(server)


def printed_token(server: subprocess.Popen[str]) -> str:
    """The token of the first link the launcher printed."""
    assert server.stdout is not None
    for line in server.stdout:
        found = re.search(r"https://\S+/\?token=([A-Za-z0-9_-]+)", line)
        if found:
            return found.group(1)
    raise AssertionError("no link was printed")


@pytest.mark.slow
@pytest.mark.browser
def test_lan_app_over_https_with_and_without_the_token(lan_server: dict[str, Any]) -> None:
    if missing := missing_chromium():
        pytest.skip(missing)
    url, token = lan_server["url"], lan_server["token"]
    with chromium() as browser:
        context = browser.new_context(ignore_https_errors=True, viewport=PHONE)
        page = context.new_page()
        page.goto(f"{url}/?token=wrong-{token}")
        page.get_by_text(CLOSED_TEXT).wait_for(timeout=WAIT_MS)
        assert page.get_by_role("tab").count() == 0
        page.goto(url)
        page.get_by_text(CLOSED_TEXT).wait_for(timeout=WAIT_MS)
        assert "Traceback" not in page.content()
        reply = page.goto(f"{url}/?token={token}")
        page.get_by_role("heading", name=FIRST_TAB).wait_for(timeout=WAIT_MS)
        assert page.get_by_text(CLOSED_TEXT).count() == 0
        assert token not in page.url  # taken out of the address at once: no Referer has it
        assert reply is not None and reply.headers["referrer-policy"] == "no-referrer"
        cookie = next(c for c in context.cookies() if c["name"] == COOKIE_NAME)
        assert cookie["secure"] and cookie["httpOnly"] and token not in cookie["value"]
        page.get_by_role("tab", name="Play").click()
        page.reload()  # the cookie remembers this browser: a reload still gets in
        page.get_by_role("tab", name=FIRST_TAB).wait_for(timeout=WAIT_MS)
        page.goto(url)  # and so does the bare address
        page.get_by_role("tab", name=FIRST_TAB).wait_for(timeout=WAIT_MS)
        assert page.get_by_text(CLOSED_TEXT).count() == 0
        stranger = browser.new_context(ignore_https_errors=True, viewport=PHONE).new_page()
        stranger.goto(url)  # another browser, without the link: the lock page
        stranger.get_by_text(CLOSED_TEXT).wait_for(timeout=WAIT_MS)


def https(
    server: dict[str, Any],
    path: str,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request to the LAN server over HTTPS (its certificate checked), no redirects
    followed: (status, headers by lower-case name, body)."""
    context = ssl.create_default_context(cafile=str(server["cert"]))
    connection = http.client.HTTPSConnection("127.0.0.1", server["port"], context=context,
                                             timeout=20)  # fmt: skip
    try:
        connection.request(method, path, body=body, headers=headers or {})
        reply = connection.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        connection.close()


def websocket_status(server: dict[str, Any], headers: dict[str, str]) -> int:
    """The status of a websocket handshake to the app's stream (101: accepted)."""
    upgrade = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
        **headers,
    }
    status, _, _ = https(server, "/_stcore/stream", headers=upgrade)
    return status


def outside_connections(trace: Path) -> list[str]:
    """The addresses outside loopback the traced server connected to."""
    addresses = [m["addr"] for m in INET_CONNECT.finditer(trace.read_text())]
    loopback = ("::1", "::ffff:127.0.0.1")
    return [a for a in addresses if not (a.startswith("127.") or a in loopback)]


PRIVATE_HEADERS = {
    "x-frame-options": "SAMEORIGIN",
    "content-security-policy": "frame-ancestors 'self'",
    "referrer-policy": "no-referrer",
}


@pytest.mark.slow
def test_lan_server_gives_a_stranger_only_the_lock_page(lan_server: dict[str, Any]) -> None:
    status, headers, body = https(lan_server, "/")
    assert status == 403 and CLOSED_TEXT.encode() in body
    assert {k: headers[k] for k in PRIVATE_HEADERS} == PRIVATE_HEADERS
    upload = ("/_stcore/upload_file/a-session/a-file", "PUT", b"x" * 100_000)
    for path, method, data in [upload, ("/_stcore/metrics", "GET", None),
                               ("/_stcore/host-config", "GET", None)]:  # fmt: skip
        status, _, body = https(lan_server, path, method, body=data)
        assert status == 403 and b"sudokucam" in body and b"TYPE" not in body, path
    wrong = {"Cookie": f"{COOKIE_NAME}={'0' * 64}"}
    assert https(lan_server, "/_stcore/metrics", headers=wrong)[0] == 403
    assert websocket_status(lan_server, {}) != 101
    assert websocket_status(lan_server, wrong) != 101


@pytest.mark.slow
def test_lan_server_remembers_the_browser_that_came_with_the_token(
    lan_server: dict[str, Any],
) -> None:
    status, headers, _ = https(lan_server, f"/?token={lan_server['token']}")
    assert status == 303 and headers["location"] == "/"
    assert headers["referrer-policy"] == "no-referrer"
    cookie = headers["set-cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and lan_server["token"] not in cookie
    sent = {"Cookie": cookie.split(";")[0]}
    status, headers, body = https(lan_server, "/", headers=sent)
    assert status == 200 and b"<script" in body  # Streamlit's page, without ?token=
    assert {k: headers[k] for k in PRIVATE_HEADERS} == PRIVATE_HEADERS
    status, _, body = https(lan_server, "/_stcore/host-config", headers=sent)
    assert status == 200 and json.loads(body)["allowedOrigins"] == []
    host = f"127.0.0.1:{lan_server['port']}"
    assert websocket_status(lan_server, {**sent, "Origin": f"https://{host}"}) == 101
    evil = {**sent, "Origin": "https://evil.example"}
    assert websocket_status(lan_server, evil) != 101
    assert https(lan_server, "/", headers={**sent, "Host": "evil.example"})[0] == 421
    if shutil.which("strace"):
        time.sleep(1)
        assert outside_connections(lan_server["trace"]) == []  # no online origin lookup


@pytest.mark.slow
def test_lan_server_connects_only_to_loopback(lan_server: dict[str, Any]) -> None:
    if not shutil.which("strace"):
        pytest.skip("needs strace to watch connections")
    time.sleep(3)  # let anything that would phone home try
    assert outside_connections(lan_server["trace"]) == []


# ---------------------------------------------------------------------------- plain `ui`


@pytest.fixture(scope="module")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """`sudokucam ui` on 127.0.0.1 (under strace when installed)."""
    trace = tmp_path_factory.mktemp("plain_home") / "strace.txt"
    prefix = ("strace", "-f", "-e", "trace=connect", "-o", str(trace))
    with served_app(prefix=prefix if shutil.which("strace") else ()) as app:
        yield {"port": int(app.url.rsplit(":", 1)[1]), "trace": trace}


def http_get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """(status, body) of a GET to 127.0.0.1:port; (0, b"") when nothing answers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("GET", path, headers=headers or {})
        reply = connection.getresponse()
        return reply.status, reply.read()
    except OSError:
        return 0, b""
    finally:
        connection.close()


@pytest.mark.slow
def test_plain_ui_refuses_a_rebinding_host_and_a_cross_origin_websocket(
    plain_server: dict[str, Any],
) -> None:
    port = plain_server["port"]
    assert http_get(port, "/")[0] == 200
    assert http_get(port, "/", {"Host": f"localhost:{port}"})[0] == 200
    for host in (f"evil.example:{port}", "rebind.attacker.test", f"127.0.0.1.nip.io:{port}"):
        assert http_get(port, "/", {"Host": host})[0] == 421, host
        assert http_get(port, "/_stcore/host-config", {"Host": host})[0] == 421, host
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode()}  # fmt: skip
    same = {**upgrade, "Origin": f"http://127.0.0.1:{port}"}
    assert http_get(port, "/_stcore/stream", same)[0] == 101
    for origin in ("https://evil.example", f"http://localhost:{port + 1}"):
        assert http_get(port, "/_stcore/stream", {**upgrade, "Origin": origin})[0] != 101
    status, body = http_get(port, "/_stcore/host-config")
    assert status == 200 and json.loads(body)["allowedOrigins"] == []
    if shutil.which("strace"):
        time.sleep(1)
        assert outside_connections(plain_server["trace"]) == []

"""Safe at a pub: what a stranger on the same Wi-Fi can and cannot do to the scoreboard.

Each test is one of the ways in found by probing the scoreboard as a stranger would: flooding wrong PINs
to lock the players out, uploading a huge body to exhaust the Pi's memory, numbers that crash the
parser, a rebound host name, and a PIN that changed at every restart.
"""

from __future__ import annotations

import json
import os
import select
import socket
import ssl
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from companion.cli import main
from companion.events import Claim, Event, SayGo
from companion.web.app import create_app
from companion.web.guard import FREE_TRIES, LONGEST_WAIT, MAX_BODY, PinGuard
from companion.web.hub import ScoreboardHub
from companion.web.pin import PinFile
from companion.web.server import ScoreboardServer

PIN = "48213377"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_device_that_keeps_guessing_waits_longer_and_longer() -> None:
    clock = Clock()
    guard = PinGuard(PIN, clock=clock)
    for _ in range(FREE_TRIES - 1):
        assert guard.check("00000000", "10.0.0.9").status == 403
    assert guard.waiting("10.0.0.9") == 0  # typos are free
    waits = []
    for _ in range(12):
        assert guard.check("00000000", "10.0.0.9").status == 403
        waits.append(guard.waiting("10.0.0.9"))
        assert guard.check(PIN, "10.0.0.9").status == 429  # even the right PIN waits: no oracle
        clock.now += waits[-1]
    assert waits[:4] == [1.0, 2.0, 4.0, 8.0]
    assert waits[-1] == LONGEST_WAIT
    assert guard.check(PIN, "10.0.0.9").allowed
    assert guard.waiting("10.0.0.9") == 0  # the right PIN clears the count


def test_one_devices_wrong_pins_never_hold_back_another() -> None:
    guard = PinGuard(PIN, clock=Clock())
    for _ in range(50):
        guard.check("12345678", "10.0.0.66")
    assert guard.check("12345678", "10.0.0.66").status == 429
    assert guard.check(PIN, "10.0.0.7").allowed
    assert guard.check("11111111", "10.0.0.8").status == 403  # another device still gets its own tries


def test_an_ipv6_device_cannot_dodge_the_wait_by_changing_address() -> None:
    guard = PinGuard(PIN, clock=Clock())
    for host in range(FREE_TRIES + 1):
        guard.check("00000000", f"2001:db8::{host + 1:x}")
    assert guard.check("00000000", "2001:db8::ffff").status == 429
    assert guard.check(PIN, "2001:db8:0:1::1").allowed


def serve(posted: list[Event], pin: Any = PIN, **options: Any) -> ScoreboardServer:
    return ScoreboardServer(
        create_app(ScoreboardHub(), posted.append, pin, **options), host="127.0.0.1", port=0
    )


def test_the_right_pin_gets_through_a_flood_of_wrong_ones_from_another_device() -> None:
    """The probe: a script sent wrong PINs at ~18/s while a player tried the right one 90 times."""
    posted: list[Event] = []
    with serve(posted) as server:
        stop = threading.Event()
        flood: list[int] = []

        def guess() -> None:
            transport = httpx.HTTPTransport(local_address="127.0.0.66")
            with httpx.Client(transport=transport, timeout=10) as stranger:
                while not stop.is_set():
                    reply = stranger.post(
                        f"{server.url}/api/go", json={"player": 0}, headers={"X-Table-Pin": "9999"}
                    )
                    flood.append(reply.status_code)

        thread = threading.Thread(target=guess)
        thread.start()
        try:
            while len(flood) < 20:
                time.sleep(0.01)
            transport = httpx.HTTPTransport(local_address="127.0.0.7")
            with httpx.Client(transport=transport, timeout=10) as player:
                answers = [
                    player.post(
                        f"{server.url}/api/go", json={"player": 1}, headers={"X-Table-Pin": PIN}
                    ).status_code
                    for _ in range(90)
                ]
        finally:
            stop.set()
            thread.join()
    assert answers == [202] * 90
    assert posted == [SayGo(1)] * 90
    assert set(flood) == {403, 429} and flood.count(403) <= FREE_TRIES + 10


_SERVER = """
import sys
from companion.web.app import create_app
from companion.web.hub import ScoreboardHub
from companion.web.server import ScoreboardServer
server = ScoreboardServer(create_app(ScoreboardHub(), lambda e: None, sys.argv[1]), host="127.0.0.1", port=0)
print(server.port, flush=True)
sys.stdin.read()
"""


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc status")


def _upload(port: int, head: bytes, chunk: bytes, total: int) -> tuple[bytes, int]:
    """Send ``head`` then up to ``total`` bytes of ``chunk``s until the server answers; (answer, sent)."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head)
        answer = b""
        while sent < total:
            readable, writable, _ = select.select([sock], [sock], [], 30)
            if readable:
                break
            if writable:
                try:
                    sent += sock.send(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    break
        sock.settimeout(10)
        try:
            while part := sock.recv(65536):
                answer += part
        except (ConnectionResetError, TimeoutError):
            pass
    return answer, sent


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_huge_body_with_a_wrong_pin_is_refused_unread(chunked: bool) -> None:
    """The probe: a 1 GiB POST with a wrong PIN peaked at 4.2 GB, read and parsed before the PIN check."""
    process = subprocess.Popen(
        [sys.executable, "-c", _SERVER, PIN],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline())
        gib = 1 << 30
        framing = b"Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {gib}\r\n".encode()
        head = (
            b"POST /api/claim HTTP/1.1\r\nHost: localhost\r\nX-Table-Pin: 11112222\r\n"
            b"Content-Type: application/json\r\n" + framing + b"\r\n"
        )
        block = b"7" * (1 << 20)
        chunk = (b"%x\r\n" % len(block)) + block + b"\r\n" if chunked else block
        answer, sent = _upload(port, head, chunk, gib)
        peak = _peak_rss_mb(process.pid)
    finally:
        process.communicate("", timeout=10)
    assert answer.startswith(b"HTTP/1.1 403"), answer[:80]
    assert b"wrong PIN" in answer
    assert sent < 64 << 20, f"{sent >> 20} MiB were taken in before the refusal"
    assert peak < 100, f"the server peaked at {peak:.0f} MB"


def test_a_body_too_big_for_any_change_is_refused_even_with_the_pin() -> None:
    posted: list[Event] = []
    with serve(posted) as server:
        pin = {"X-Table-Pin": PIN, "Host": "localhost"}
        said = httpx.post(f"{server.url}/api/claim", content=b" " * (MAX_BODY + 1), headers=pin)
        assert said.status_code == 413

        def pieces() -> Any:
            yield b'{"player": 0, "points": 2'
            for _ in range(MAX_BODY // 1024 + 1):
                yield b" " * 1024
            yield b"}"

        chunked = httpx.post(f"{server.url}/api/claim", content=pieces(), headers=pin)
        assert chunked.status_code == 413
        small = httpx.post(f"{server.url}/api/claim", json={"player": 0, "points": 2}, headers=pin)
        assert small.status_code == 202
    assert posted == [Claim(0, 2)]


@pytest.mark.parametrize(
    "body",
    [
        b'{"player":1e400}',
        b'{"player":-1e400,"points":2}',
        b'{"player":0,"points":1e400}',
        b'{"player":"x"}',
        b'{"player":0.5}',
        b'{"player":',
        b"[1]",
    ],
)
def test_numbers_out_of_range_are_refused_with_a_sentence_not_a_crash(body: bytes) -> None:
    posted: list[Event] = []
    with serve(posted) as server:
        for path in ("/api/go", "/api/claim"):
            reply = httpx.post(
                f"{server.url}{path}",
                content=body,
                headers={"X-Table-Pin": PIN, "Content-Type": "application/json"},
            )
            assert reply.status_code == 422, reply.text
            detail = reply.json()["detail"]
            assert isinstance(detail, str) and "inf" not in detail
    assert posted == []


def test_only_the_tables_own_names_and_addresses_are_answered() -> None:
    with serve([], hosts=["crib.local", "localhost"]) as server:

        def status(host: str) -> int:
            return httpx.get(f"{server.url}/api/state", headers={"Host": host}).status_code

        assert status("evil.example") == 400  # a name rebound to the Pi by someone else's page
        assert status("crib.local:8121") == 200
        assert status("localhost") == 200
        assert status("192.168.1.40:8121") == 200
        assert status("[fe80::1]:8121") == 200
        said = httpx.post(f"{server.url}/api/undo", headers={"Host": "evil.example", "X-Table-Pin": PIN})
        assert said.status_code == 400
        assert said.json()["detail"].startswith("this scoreboard does not answer to the name evil.example")


def test_the_pin_is_made_once_kept_private_and_stable_across_restarts(tmp_path: Path) -> None:
    first = PinFile(tmp_path / "state").current()
    assert first.isdigit() and len(first) == 8
    path = tmp_path / "state" / "scoreboard-pin"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert PinFile(tmp_path / "state").current() == first  # a restart (or a crash) keeps it
    path.chmod(0o644)
    assert PinFile(tmp_path / "state").current() == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_rotated_pin_takes_effect_without_a_restart(tmp_path: Path) -> None:
    pins = PinFile(tmp_path)
    old = pins.current()
    posted: list[Event] = []
    with serve(posted, pin=pins, hosts=["localhost"]) as server:

        def undo(pin: str) -> int:
            return httpx.post(f"{server.url}/api/undo", headers={"X-Table-Pin": pin}).status_code

        assert undo(old) == 202
        new = PinFile(tmp_path).rotate()  # another process: `crib pin --rotate`
        assert new != old and stat.S_IMODE((tmp_path / "scoreboard-pin").stat().st_mode) == 0o600
        assert undo(old) == 403
        assert undo(new) == 202


def test_crib_pin_shows_the_kept_pin_and_rotates_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "crib.db")
    assert main(["pin", "--db", db]) == 0
    shown = capsys.readouterr().out.split()[1]
    assert shown == PinFile(tmp_path).current()
    assert main(["pin", "--db", db, "--rotate"]) == 0
    rotated = capsys.readouterr().out
    assert rotated.startswith("new PIN ") and rotated.split()[2] == PinFile(tmp_path).current() != shown


def _certificate(folder: Path) -> tuple[str, str]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=crib.local",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return str(cert), str(key)


def test_the_scoreboard_can_be_served_over_https(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    posted: list[Event] = []
    hub = ScoreboardHub()
    hub.publish({"scores": [3, 4]})
    app = create_app(hub, posted.append, PIN)
    with ScoreboardServer(app, host="127.0.0.1", port=0, certfile=cert, keyfile=key) as server:
        assert server.url.startswith("https://")
        trusted = ssl.create_default_context(cafile=cert)
        trusted.check_hostname = False  # the certificate names crib.local; the test dials 127.0.0.1
        with httpx.Client(verify=trusted, timeout=10) as client:
            assert client.get(f"{server.url}/api/state", headers={"Host": "localhost"}).json()["scores"] == [
                3,
                4,
            ]
        with pytest.raises(httpx.RemoteProtocolError):
            httpx.get(server.url.replace("https", "http") + "/api/state")
    (tmp_path / "other").mkdir()
    other, _ = _certificate(tmp_path / "other")
    with pytest.raises(OSError, match="not a certificate and its key"):
        ScoreboardServer(app, host="127.0.0.1", port=0, certfile=other, keyfile=str(tmp_path / "cert.pem"))
    with pytest.raises(OSError, match="there is no file"):
        ScoreboardServer(app, host="127.0.0.1", port=0, certfile=str(tmp_path / "none.pem"), keyfile=key)


def test_the_answer_to_a_refused_change_is_json_with_one_sentence() -> None:
    with serve([]) as server:
        reply = httpx.post(f"{server.url}/api/go", content=b"{}", headers={"X-Table-Pin": "1"})
    assert reply.status_code == 403
    assert json.loads(reply.content) == {"detail": "wrong PIN: the game was not changed"}

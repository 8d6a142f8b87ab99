"""Benchmark: the scoreboard probed as a stranger on the pub's Wi-Fi would probe it.

Prints, for each of ``--runs`` runs (and their median):
- the right PIN under a flood: a stranger's address sends wrong PINs (about 18 a second) while a player's
  address gives the right PIN 90 times; how many of the 90 went through (target: all), how many of the
  stranger's tries were even checked, and the right PIN's median answer time;
- a 1 GiB upload with a wrong PIN (said length, then chunked) against a scoreboard in its own process:
  the server's peak memory (VmHWM; target under 100 MB) and how much the socket buffers took before the
  refusal (the server itself reads none of it).

Run: ``.venv/bin/python benchmarks/bench_scoreboard.py [--runs 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import select
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from companion.web.app import create_app
from companion.web.hub import ScoreboardHub
from companion.web.server import ScoreboardServer

PIN = "48213377"
PEAK_TARGET_MB = 100.0
SERVER = """
import sys
from companion.web.app import create_app
from companion.web.hub import ScoreboardHub
from companion.web.server import ScoreboardServer
server = ScoreboardServer(create_app(ScoreboardHub(), lambda e: None, sys.argv[1]), host="127.0.0.1", port=0)
print(server.port, flush=True)
sys.stdin.read()
"""


def flood() -> tuple[int, int, int, float]:
    """(right PINs accepted of 90, stranger's tries, of them checked, right PIN's median ms)."""
    server = ScoreboardServer(create_app(ScoreboardHub(), lambda e: None, PIN), host="127.0.0.1", port=0)
    stop = threading.Event()
    tries: list[int] = []
    wrong = {"X-Table-Pin": "9999", "Host": "localhost"}

    def guess() -> None:
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.66"), timeout=10) as client:
            while not stop.is_set():
                tries.append(
                    client.post(f"{server.url}/api/go", json={"player": 0}, headers=wrong).status_code
                )
                time.sleep(1 / 18)

    thread = threading.Thread(target=guess)
    thread.start()
    time.sleep(1)
    accepted, times = 0, []
    right = {"X-Table-Pin": PIN, "Host": "localhost"}
    try:
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.7"), timeout=10) as client:
            for _ in range(90):
                started = time.perf_counter()
                reply = client.post(f"{server.url}/api/go", json={"player": 1}, headers=right)
                times.append(time.perf_counter() - started)
                accepted += reply.status_code == 202
                time.sleep(0.1)
    finally:
        stop.set()
        thread.join()
        server.stop()
    return accepted, len(tries), tries.count(403), statistics.median(times) * 1000


def upload(chunked: bool) -> tuple[float, float, float]:
    """(idle MB, peak MB, MiB taken in) for a 1 GiB upload with a wrong PIN."""
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, PIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline())
        idle = _peak_mb(process.pid)
        gib = 1 << 30
        framing = b"Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {gib}\r\n".encode()
        head = b"POST /api/claim HTTP/1.1\r\nHost: localhost\r\nX-Table-Pin: 11112222\r\n" + framing + b"\r\n"
        block = b"7" * (1 << 20)
        chunk = (b"%x\r\n" % len(block)) + block + b"\r\n" if chunked else block
        sent = 0
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(head)
            while sent < gib:
                readable, writable, _ = select.select([sock], [sock], [], 30)
                if readable:
                    break
                try:
                    sent += sock.send(chunk) if writable else 0
                except (BrokenPipeError, ConnectionResetError):
                    break
            answer = sock.recv(64)
        if not answer.startswith(b"HTTP/1.1 403"):
            raise SystemExit(f"the upload was not refused: {answer!r}")
        return idle, _peak_mb(process.pid), sent / (1 << 20)
    finally:
        process.communicate("", timeout=10)


def _peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise SystemExit("no VmHWM in /proc: this benchmark needs Linux")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="end with one line of JSON holding the figures")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    accepted, peaks = [], []
    for run in range(args.runs):
        ok, tries, checked, ms = flood()
        accepted.append(ok)
        print(
            f"run {run + 1}: right PIN {ok}/90 under a flood of {tries} wrong tries ({checked} checked); "
            f"right PIN answered in {ms:.1f} ms (median)"
        )
        for chunked in (False, True):
            idle, peak, taken = upload(chunked)
            peaks.append(peak)
            kind = "chunked" if chunked else "Content-Length"
            print(
                f"run {run + 1}: 1 GiB wrong-PIN upload ({kind}): server {idle:.1f} MB idle, "
                f"peak {peak:.1f} MB, {taken:.1f} MiB sent into the socket buffers before the 403"
            )
    print(
        f"median: right PIN {statistics.median(accepted):.0f}/90; "
        f"upload peak {statistics.median(peaks):.1f} MB (target under {PEAK_TARGET_MB:.0f} MB)"
    )
    if args.json:
        figures = {
            "right PIN accepted of 90 under a wrong-PIN flood, median": statistics.median(accepted),
            "1 GiB wrong-PIN upload, server peak MB, median": round(statistics.median(peaks), 1),
            "runs": args.runs,
        }
        print(json.dumps(figures))
    return 0 if min(accepted) == 90 and max(peaks) < PEAK_TARGET_MB else 1


if __name__ == "__main__":
    sys.exit(main())

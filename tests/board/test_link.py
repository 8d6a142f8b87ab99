"""The link: handshake, retries, stale replies, reconnection and restoring the state.

Against a scripted peer over ``socket://`` (the conversation written out, nothing left over at the end),
against the virtual board (``virtual://``, also served on a real pseudo-terminal), and against ports with
no board at all.  See docs/protocol.md, "What the host does on doubt".
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

from companion.board import link as link_module
from companion.board.link import BoardError, BoardLink
from companion.board.protocol import Frame, NakReason
from companion.board.state import BoardState, Mode, Tentative
from companion.board.virtual import PtyServer, VirtualBoard

T = TypeVar("T")
STATE = BoardState.playing((37, 45), (80, 88))
NEXT = BoardState.playing((45, 51), (80, 88))
FAST = {"reply_timeout": 0.2, "connect_timeout": 2.0, "reconnect_timeout": 3.0, "heartbeat": None}


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=2) as executor:
        yield executor


def _later(pool: ThreadPoolExecutor, call: Callable[..., T], *args: Any) -> Future[T]:
    return pool.submit(call, *args)


# --- against a scripted peer -------------------------------------------------------------------------


def test_handshake_then_state(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.show, STATE)
    peer.handshake()
    peer.answer(peer.expect("STATE", ("m=game", "p0=37,45,00C0FF", "p1=80,88,FF6000")))
    done.result(timeout=5)
    assert link.info is not None and link.info.firmware == "9.9.9" and link.info.cap_ma == 1500
    assert link.shown == STATE
    peer.assert_quiet()
    link.close()


def test_hello_is_repeated_until_the_board_has_booted(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.connect)
    peer.accept()
    first = peer.expect("HELLO")  # still in the bootloader: lost
    second = peer.expect("HELLO", timeout=1.0)
    assert second.seq != first.seq
    peer.answer(second, *("proto=1", "fw=1.2.3", "tracks=2", "holes=121", "leds=242", "cap=1800"))
    info = done.result(timeout=5)
    assert (info.firmware, info.cap_ma) == ("1.2.3", 1800)
    peer.assert_quiet()
    link.close()


def test_a_ready_banner_cuts_the_wait_short(
    peer: Any, pool: ThreadPoolExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    # HELLO is repeated every 20 s here, so a second HELLO within 10 s can only be the banner's doing.
    monkeypatch.setattr(link_module, "_HELLO_INTERVAL_S", 20.0)
    link = BoardLink(peer.url, **{**FAST, "connect_timeout": 60.0})
    done = _later(pool, link.connect)
    peer.accept()
    peer.expect("HELLO")  # unanswered: the board is only now starting
    peer.send(Frame(0, "READY", ("proto=1", "fw=9.9.9")))
    peer.answer(
        peer.expect("HELLO", timeout=10.0),
        "proto=1",
        "fw=9.9.9",
        "tracks=2",
        "holes=121",
        "leds=242",
        "cap=1500",
    )
    done.result(timeout=5)
    link.close()


@pytest.mark.parametrize(
    ("hello", "message"),
    [
        (("proto=2", "fw=1", "tracks=2", "holes=121", "leds=242", "cap=1500"), "protocol 2"),
        (("proto=1", "fw=1", "tracks=2", "holes=120", "leds=240", "cap=1500"), "120 holes"),
        (("proto=1", "fw=1"), "lacks"),
    ],
)
def test_a_board_that_does_not_match_is_refused(
    peer: Any, pool: ThreadPoolExecutor, hello: tuple[str, ...], message: str
) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.connect)
    peer.accept()
    peer.answer(peer.expect("HELLO"), *hello)
    with pytest.raises(BoardError, match=message):
        done.result(timeout=5)
    link.close()


def test_a_state_without_reply_is_sent_again(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.show, STATE)
    peer.handshake()
    first = peer.expect("STATE")  # lost in a refresh: no reply
    again = peer.expect("STATE", first.args, timeout=1.0)
    assert again.seq != first.seq
    peer.answer(again)
    done.result(timeout=5)
    assert link.stats.timeouts == 1
    peer.assert_quiet()
    link.close()


@pytest.mark.parametrize("seq_of_nak", ["same", "unreadable"])
def test_a_nak_means_send_again(peer: Any, pool: ThreadPoolExecutor, seq_of_nak: str) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.show, STATE)
    peer.handshake()
    first = peer.expect("STATE")
    seq = first.seq if seq_of_nak == "same" else None
    peer.send(Frame(seq, "NAK", ("crc",)))
    peer.answer(peer.expect("STATE", first.args, timeout=1.0))
    done.result(timeout=5)
    assert (link.stats.naks, link.stats.timeouts) == (1, 0)  # sent again at once, not after a timeout
    peer.assert_quiet()
    link.close()


def test_a_stale_reply_is_discarded(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.show, STATE)
    peer.handshake()
    first = peer.expect("STATE")
    peer.send(Frame((first.seq - 1) % 256, "OK"))  # the late answer to an earlier request
    peer.send(b"@" + b"%02X" % first.seq + b" OK*00\n")  # its own answer, damaged on the way
    second = peer.expect("STATE", first.args, timeout=1.0)  # so, after the timeout, again
    peer.send(Frame(first.seq, "OK"))  # the first try's answer, late: stale now
    assert not done.done()
    peer.answer(second)
    done.result(timeout=5)
    assert link.stats.stale == 2
    peer.assert_quiet()
    link.close()


def test_noise_from_the_board_around_a_reply_is_skipped(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.show, STATE)
    peer.handshake()
    request = peer.expect("STATE")
    peer.send(b"\x00\xff garbage \r\n@3")  # line noise, and a frame cut short by the next '@'
    peer.send(Frame(request.seq, "OK").encode().replace(b"OK", b"O\rK"))
    done.result(timeout=5)
    assert (link.stats.timeouts, link.stats.requests) == (0, 2)
    peer.assert_quiet()
    link.close()


def test_giving_up_reopens_the_port_once_then_raises(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **{**FAST, "attempts": 2, "reply_timeout": 0.05})
    done = _later(pool, link.show, STATE)
    peer.handshake()
    peer.expect("STATE")
    peer.expect("STATE")
    peer.handshake()  # the port reopened: a Nano would have reset
    peer.expect("STATE")
    peer.expect("STATE")
    with pytest.raises(BoardError, match="did not take STATE after 2 tries: no reply"):
        done.result(timeout=5)
    assert peer.connections == 2
    link.close()


def test_reconnects_when_the_port_vanishes_and_comes_back(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.show, STATE)
    peer.handshake()
    peer.answer(peer.expect("STATE"))
    done.result(timeout=5)

    peer.unplug()  # the cable is pulled; the port cannot even be opened
    done = _later(pool, link.show, NEXT)
    time.sleep(0.4)
    assert not done.done()  # the link is waiting for the board, not failing
    peer.plug()
    peer.handshake()
    peer.answer(peer.expect("STATE", NEXT.to_command()))  # the new state is the full state: no restore
    done.result(timeout=5)
    peer.assert_quiet()
    link.close()


def test_a_board_that_keeps_going_away_is_given_up(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.show, STATE)
    for _ in range(4):  # a bad cable: the port opens, the board answers, then the line drops
        peer.handshake()
        peer.expect("STATE")
        peer.hang_up()
    with pytest.raises(BoardError, match="keeps going away"):
        done.result(timeout=10)
    link.close()


def test_after_a_reconnection_the_last_state_is_restored_first(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.show, STATE)
    peer.handshake()
    peer.answer(peer.expect("STATE"))
    done.result(timeout=5)

    peer.unplug()
    peer.plug()
    pinged = _later(pool, link.ping)
    peer.handshake()
    peer.answer(peer.expect("STATE", STATE.to_command()))  # what the board lost, put back
    peer.answer(peer.expect("PING"))
    pinged.result(timeout=5)
    assert link.stats.restores == 1
    peer.assert_quiet()
    link.close()


def test_a_board_that_restarts_on_its_own_gets_its_state_back(peer: Any, pool: ThreadPoolExecutor) -> None:
    link = BoardLink(peer.url, **FAST)
    done = _later(pool, link.show, STATE)
    peer.handshake()
    peer.answer(peer.expect("STATE"))
    done.result(timeout=5)

    pinged = _later(pool, link.ping)
    request = peer.expect("PING")
    peer.send(Frame(0, "READY", ("proto=1", "fw=9.9.9")))  # a brown-out: the board restarted
    peer.answer(request)
    peer.answer(peer.expect("STATE", STATE.to_command()))
    pinged.result(timeout=5)
    peer.assert_quiet()
    link.close()


def test_the_heartbeat_notices_a_board_showing_something_else(peer: Any) -> None:
    link = BoardLink(peer.url, **{**FAST, "heartbeat": 0.1})
    with ThreadPoolExecutor(max_workers=1) as executor:
        done = executor.submit(link.show, STATE)
        peer.handshake()
        peer.answer(peer.expect("STATE"))
        done.result(timeout=5)
    peer.answer(peer.expect("GET"), *STATE.to_command(full=True))  # all well
    peer.answer(peer.expect("GET"), *BoardState().to_command(full=True))  # reset, silently
    peer.answer(peer.expect("STATE", STATE.to_command()))
    peer.answer(peer.expect("GET"), *STATE.to_command(full=True))
    link.close()
    assert link.stats.restores == 1


# --- against the virtual board -----------------------------------------------------------------------


@pytest.fixture
def board(request: pytest.FixtureRequest) -> Iterator[VirtualBoard]:
    name = f"link-{request.node.name}"
    VirtualBoard.forget(name)
    yield VirtualBoard.named(name)
    VirtualBoard.forget(name)


def _url(board: VirtualBoard, query: str = "") -> str:
    (name,) = [n for n, b in VirtualBoard._registry.items() if b is board]
    return f"virtual://{name}{query}"


def test_show_on_the_virtual_board(board: VirtualBoard) -> None:
    with BoardLink(_url(board), **FAST) as link:
        link.show(STATE)
        assert board.state == STATE
        assert link.read_state() == STATE
        link.show(STATE)  # idempotent
        assert board.latched == 2
        assert 0 < link.ping() < 1.0


def test_waits_out_the_bootloader(board: VirtualBoard) -> None:
    with BoardLink(_url(board, "?boot=0.6"), **FAST) as link:
        link.show(STATE)
        assert board.state == STATE
        assert link.stats.requests >= 3  # HELLOs lost in the bootloader, then HELLO and STATE


def test_virtual_board_faults_are_retried(board: VirtualBoard) -> None:
    with BoardLink(_url(board), **FAST) as link:
        link.connect()
        board.mute(2)
        board.refuse(NakReason.CRC)
        link.show(STATE)
        assert board.state == STATE
        assert (link.stats.timeouts, link.stats.naks) == (2, 1)


def test_a_refused_state_raises_after_every_retry(board: VirtualBoard) -> None:
    with BoardLink(_url(board), **{**FAST, "attempts": 2}) as link:
        link.connect()
        board.refuse(NakReason.RANGE, 2)
        with pytest.raises(
            BoardError, match="did not take STATE after 2 tries: the board answered NAK range"
        ):
            link.show(STATE)
        assert link.stats.connects == 1  # a refusal is not cured by reopening the port


def test_unplugged_and_plugged_back_the_state_is_restored(board: VirtualBoard) -> None:
    with BoardLink(_url(board), **FAST) as link:
        link.show(STATE)
        board.unplug()
        threading.Timer(0.3, board.plug).start()
        link.show(NEXT)
        assert board.state == NEXT
        board.unplug()
        board.plug()  # comes back with its state lost
        assert board.state == BoardState()
        link.ping()
        assert board.state == NEXT


def test_a_board_away_for_long_fails_fast_and_is_restored_when_back(board: VirtualBoard) -> None:
    third = BoardState.playing((51, 60), (88, 90))
    with BoardLink(_url(board), **{**FAST, "reconnect_timeout": 2.0, "heartbeat": 0.05}) as link:
        link.show(STATE)
        board.unplug()
        started = time.monotonic()
        with pytest.raises(BoardError, match="unplugged"):
            link.show(NEXT)
        assert 2.0 <= time.monotonic() - started < 10  # waited for the cable to come back, then gave up
        assert link.offline
        started = time.monotonic()
        with pytest.raises(BoardError):
            link.show(third)
        assert time.monotonic() - started < 1.5  # offline: not the 2 s wait again
        board.plug()
        deadline = time.monotonic() + 10
        while board.state != third and time.monotonic() < deadline:
            time.sleep(0.02)
        assert board.state == third  # the heartbeat found it and put the last state back
        assert not link.offline


def test_the_heartbeat_restores_a_board_that_reset(board: VirtualBoard) -> None:
    with BoardLink(_url(board), **{**FAST, "heartbeat": 0.05}) as link:
        link.show(STATE)
        board.reset()  # power blip, nothing said
        deadline = time.monotonic() + 10
        while board.state != STATE and time.monotonic() < deadline:
            time.sleep(0.02)
        assert board.state == STATE


def test_a_self_test_is_not_repeated_by_the_heartbeat() -> None:
    # The board's clock is moved past the self-test's end (every LED in turn, 3.6 s), so the heartbeats
    # that follow find the board back in game mode: the state asked for, not one lost.
    skipped = [0.0]
    board = VirtualBoard(clock=lambda: time.monotonic() + skipped[0])
    test = BoardState(Mode.TEST, 64, STATE.pegs)
    with PtyServer(board) as server, BoardLink(server.path, **{**FAST, "heartbeat": 0.05}) as link:
        link.show(test)
        skipped[0] = 60.0
        assert board.state.mode is Mode.GAME  # the self-test has run its course
        asked = _gets(board)
        _wait_for(lambda: _gets(board) >= asked + 3, timeout=10)  # three heartbeats after it
        assert board.latched == 1 and link.stats.restores == 0


def _gets(board: VirtualBoard) -> int:
    return sum(1 for frame in list(board.received) if isinstance(frame, Frame) and frame.command == "GET")


def _wait_for(condition: Callable[[], bool], timeout: float) -> None:
    """Await something another thread does, checking often, failing after a generous ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_concurrent_callers_are_serialised(board: VirtualBoard) -> None:
    states = [BoardState.playing((0, hole), (0, 0)) for hole in range(1, 41)]
    with BoardLink(_url(board), **FAST) as link, ThreadPoolExecutor(max_workers=4) as executor:
        list(executor.map(link.show, states))
        assert board.latched == 40
        assert board.state == link.shown
        assert (link.stats.timeouts, link.stats.naks, link.stats.stale) == (0, 0, 0)


def test_close_is_idempotent_and_final(board: VirtualBoard) -> None:
    link = BoardLink(_url(board), **FAST)
    with link:
        link.show(STATE)
    link.close()
    link.close()
    with pytest.raises(BoardError, match="closed"):
        link.show(STATE)


def test_the_default_port_is_the_virtual_board() -> None:
    with BoardLink(heartbeat=None) as link:
        link.show(BoardState.playing((1, 2), (3, 4), tentative=Tentative(0, 9)))
        assert link.virtual_board is not None
        assert link.virtual_board.state.tentative == Tentative(0, 9)


def test_the_virtual_board_served_on_a_pseudo_terminal() -> None:
    with PtyServer() as server, BoardLink(server.path, **FAST) as link:
        link.show(STATE)
        assert server.board.state == STATE
        assert link.read_state() == STATE
        with pytest.raises(BoardError, match="it is in use by another program"):  # one at a time
            BoardLink(server.path, **FAST).connect()


# --- no board at all ---------------------------------------------------------------------------------


def test_loop_url_has_no_board_behind_it() -> None:
    link = BoardLink("loop://", **{**FAST, "connect_timeout": 0.3})
    with pytest.raises(BoardError, match=r"no board answered at loop:// within 0.3 s"):
        link.show(STATE)
    link.close()


def test_a_port_that_does_not_exist_fails_at_once_with_a_sentence() -> None:
    started = time.monotonic()
    with pytest.raises(BoardError) as caught:
        BoardLink("/dev/ttyUSB-no-such-port", **FAST).show(STATE)
    assert time.monotonic() - started < 2.5  # not the 3 s a board that was there is waited for
    assert str(caught.value) == "cannot open the board at /dev/ttyUSB-no-such-port: No such file or directory"
    assert isinstance(caught.value, OSError)

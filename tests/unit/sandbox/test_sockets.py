"""Finding the client end of a loopback connection in the kernel's socket tables."""

from __future__ import annotations

import os
import socket

from kit.sandbox import sockets

HEADER = ("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
          "timeout inode\n")
TABLE = HEADER + (
    "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  0 0 111 1\n"
    "   1: 0100007F:C350 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  0 0 222 1\n"
    "   2: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  0 0 333 1\n")
TABLE6 = HEADER + (
    "   0: 0000000000000000FFFF00000100007F:C351 0000000000000000FFFF00000100007F:1F90 01 "
    "00000000:00000000 00:00000000 00000000  0 0 444 1\n")


def test_the_client_end_is_the_line_from_the_peer_port_to_the_listener() -> None:
    # Port 0x1F90 = 8080 listens; 0xC350 = 50000 is the client: inode 222, not the
    # server's end (333) nor the listener (111).
    assert sockets.client_inode([TABLE], 8080, 50000) == 222
    assert sockets.client_inode([TABLE, TABLE6], 8080, 50001) == 444
    assert sockets.client_inode([TABLE], 8080, 50002) is None
    assert sockets.client_inode(["garbage\nnot a table line\n"], 8080, 50000) is None


def test_a_real_connection_is_found_and_its_holder_is_this_process() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            accepted, peer = server.accept()
            with accepted:
                tables = [open(f"/proc/net/{n}").read() for n in ("tcp", "tcp6")]  # noqa: SIM115
                inode = sockets.client_inode(tables, port, peer[1])
                assert inode == os.fstat(client.fileno()).st_ino
                assert sockets.holder(inode, [os.getpid()]) == os.getpid()


def test_outermost_stops_where_the_group_ends() -> None:
    me, up = os.getpid(), os.getppid()
    assert sockets.outermost(me, lambda pid: False) == me
    assert sockets.outermost(me, lambda pid: pid == up) == up

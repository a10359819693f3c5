#!/usr/bin/env python3
"""A TCP proxy in front of a PostgreSQL Unix socket that fails on cue, for the
head office's deadline tests. It reads the server's messages (a type byte and
a length each) to know where a session stands:

  stall-copy             once the server answers a COPY (CopyInResponse, 'G'),
                         forwards nothing more either way and keeps both
                         sockets open: a network that stopped answering.
  drop-in-transaction    once the server says it is inside a transaction
                         (ReadyForQuery 'Z' with status 'T') and a COPY has
                         begun, closes both sockets: a connection cut mid-transaction.

Usage: pg_proxy.py UNIX_SOCKET MODE. Prints "port N" once it listens on
127.0.0.1; serves connections until its stdin closes (the test that started
it has ended, however it ended) or it is killed. It speaks only the plain
protocol: clients connect with sslmode=disable and gssencmode=disable.
"""
import os
import socket
import struct
import sys
import threading


def pump_client(client, upstream, state):
    """Client to server, byte for byte, until the session is stalled or dropped."""
    try:
        while True:
            data = client.recv(65536)
            if not data or state["stalled"] or state["dropped"]:
                break
            upstream.sendall(data)
    except OSError:
        pass


def pump_server(client, upstream, mode, state):
    """Server to client, message by message, watching for the cue."""
    buffer = b""
    try:
        while True:
            data = upstream.recv(65536)
            if not data:
                break
            buffer += data
            while len(buffer) >= 5:
                kind = buffer[0:1]
                length = struct.unpack("!I", buffer[1:5])[0]
                if len(buffer) < 1 + length:
                    break
                message, buffer = buffer[: 1 + length], buffer[1 + length:]
                if state["stalled"]:
                    continue
                client.sendall(message)
                if kind == b"G":
                    state["copying"] = True
                    if mode == "stall-copy":
                        state["stalled"] = True
                if mode == "drop-in-transaction" and state["copying"] and kind == b"Z" and message[5:6] == b"T":
                    state["dropped"] = True
                    for end in (client, upstream):
                        try:
                            end.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass
                        end.close()
                    return
    except OSError:
        pass


def serve(client, path, mode):
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    upstream.connect(path)
    state = {"stalled": False, "dropped": False, "copying": False}
    threading.Thread(target=pump_client, args=(client, upstream, state), daemon=True).start()
    threading.Thread(target=pump_server, args=(client, upstream, mode, state), daemon=True).start()


def exit_when_stdin_closes():
    """Ends the proxy when the test that started it is gone."""
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


def main():
    path, mode = sys.argv[1], sys.argv[2]
    if mode not in ("stall-copy", "drop-in-transaction"):
        sys.exit(f"pg_proxy: unknown mode {mode}")
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print(f"port {listener.getsockname()[1]}", flush=True)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    while True:
        client, _ = listener.accept()
        serve(client, path, mode)


if __name__ == "__main__":
    main()

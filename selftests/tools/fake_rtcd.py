#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A stand-in for rtcd's socket, with no switch behind it, for librttr natively.

  fake_rtcd.py SOCKET [REPLY]

Listens on SOCKET (SOCK_SEQPACKET, one JSON object a message, as rtcd:
Documentation/host.md) and answers every client: "open" and "adopt" with
{"ok": true, "id": "03:09", "proxy": "198.18.3.9", "lifetime_ms": 30000,
"hops": 1}, updated with the JSON object REPLY (a key set to null is
removed: '{"burst": 4000, "delay_bound_ns": 2000000}' for a newer rtcd's
contract, '{"ok": false, "error": "delay", "hop": 2, "message": "..."}' for
a refusal); "close" with {"ok": true}; anything else with {"ok": false,
"error": "invalid"}. Prints "ready" once listening, then each request it
gets, one JSON line each. Runs until killed.
"""
import json
import os
import socket
import sys
import threading


def serve(conn, reply, lock):
    with conn:
        while True:
            try:
                msg = conn.recv(65536)
            except OSError:
                return
            if not msg:
                return
            try:
                req = json.loads(msg)
            except ValueError:
                req = {}
            with lock:
                print(json.dumps(req), flush=True)
            op = req.get("op")
            if op in ("open", "adopt"):
                ans = reply
            elif op == "close":
                ans = {"ok": True}
            else:
                ans = {"ok": False, "error": "invalid", "message": "not rtcd: a fake"}
            conn.send(json.dumps(ans).encode())


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    path = sys.argv[1]
    reply = {"ok": True, "id": "03:09", "proxy": "198.18.3.9", "lifetime_ms": 30000,
             "hops": 1}
    if len(sys.argv) == 3:
        reply.update(json.loads(sys.argv[2]))
    reply = {k: v for k, v in reply.items() if v is not None}
    if os.path.exists(path):
        os.unlink(path)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    srv.bind(path)
    srv.listen(16)
    lock = threading.Lock()
    print("ready", flush=True)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=serve, args=(conn, reply, lock), daemon=True).start()


if __name__ == "__main__":
    main()

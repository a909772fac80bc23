#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Time connection setups from an application's side of rtcd.

  rtcd_open.py SOCKET DADDR[,DADDR...] DPORT RATE COUNT each|hold [MAX_PKT [BURST]]

each: COUNT times, for each DADDR in turn, open a connection on a fresh
client socket, time the request to rtcd's answer (what rttr_open() waits
for: rtcd's SETUP, every switch on the path, the ACCEPT, the proxy
neighbour entry), then close it and wait for that answer too, so that
setups do not overlap.
hold: COUNT opens to the first DADDR back to back on one socket, all held,
then the socket closed (rtcd tears them all down): rtcd's setups per
second.

Prints one JSON object: {"mode", "n", "ok", "errors": {NAME: COUNT},
"hops": {DADDR: N}, "times_us": {DADDR: [...]} (each: one per open that
succeeded), "seconds" (hold: first request to last answer)}. RATE in
bit/s. Several destinations in one run: Python starts slowly under TCG. Talks rtcd's socket
protocol (Documentation/host.md) directly, not through a subprocess per
setup, so that what is timed is the setup, not Python or exec.
"""
import json
import socket
import sys
import time


def ask(s, req):
    s.send(json.dumps(req).encode())
    while True:
        ans = json.loads(s.recv(65536))
        if "event" not in ans:  # teardowns of others, reported unasked
            return ans


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    return s


def main():
    path, daddrs, dport, rate, count, mode = sys.argv[1:7]
    daddrs = daddrs.split(",")
    req = {"op": "open", "dport": int(dport), "rate": int(rate),
           "max_pkt": int(sys.argv[7]) if len(sys.argv) > 7 else 1514}
    if len(sys.argv) > 8:
        req["burst"] = int(sys.argv[8])
    out = {"mode": mode, "n": int(count) * (len(daddrs) if mode == "each" else 1),
           "ok": 0, "errors": {}, "hops": {}, "times_us": {d: [] for d in daddrs},
           "seconds": None}

    def record(daddr, ans, t0, t1):
        if ans.get("ok"):
            out["ok"] += 1
            out["hops"][daddr] = ans.get("hops")
            if mode == "each":
                out["times_us"][daddr].append(round((t1 - t0) / 1000, 1))
        else:
            e = ans.get("error", "?")
            out["errors"][e] = out["errors"].get(e, 0) + 1

    if mode == "each":
        for _ in range(int(count)):
            for d in daddrs:
                with connect(path) as s:
                    t0 = time.perf_counter_ns()
                    ans = ask(s, dict(req, daddr=d))
                    t1 = time.perf_counter_ns()
                    record(d, ans, t0, t1)
                    if ans.get("ok"):
                        ask(s, {"op": "close", "id": ans["id"]})
    elif mode == "hold":
        with connect(path) as s:
            start = time.perf_counter_ns()
            for _ in range(int(count)):
                record(daddrs[0], ask(s, dict(req, daddr=daddrs[0])), 0, 0)
            out["seconds"] = (time.perf_counter_ns() - start) / 1e9
    else:
        sys.exit("rtcd_open.py: mode is each or hold")
    print(json.dumps(out))


if __name__ == "__main__":
    main()

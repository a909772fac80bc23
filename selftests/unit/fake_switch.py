#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A first switch, faked on the host's veth peer, for rtcd's native tests.

  fake_switch.py IFNAME [lifetime=MS] DPORT[.N]=ACTION[,ACTION...] ...

Takes what rtcd sends to the control MAC (FF:FF:FF:FF:00:01) on IFNAME, from
a packet socket, and answers each connection as its SETUP's DPORT says,
ACTION being NAME[:LIFETIME][*COUNT]@MS, MS after the first SETUP of the connection
(its ID and cookie); DPORT.N is the Nth connection to DPORT (a connection
rtcd sets up again takes a new cookie), DPORT alone the first:

  proceeding     PROCEEDING, with HOP 1, 2... (a wait for ARP downstream)
  stray-cookie   PROCEEDING with the connection's ID and another cookie
  stray-id       PROCEEDING with the cookie and an ID that rtcd never uses
  accept         ACCEPT (LIFETIME: :LIFETIME, else lifetime=, else 30000
                 ms; HOPS 1)
  expire         TEARDOWN F_REVERSE, reason expired (the path lost it)
  reject         REJECT, reason bandwidth (for now: the network may free it)
  reject-each    the same, and to every SETUP of the connection after it
  reject-invalid REJECT, reason invalid (for good)

A retransmitted SETUP is counted, not answered, as by a switch still
waiting. Prints "listening", then one JSON object per connection once rtcd
tears it down: {"dport", "n", "id", "max_pkt", "setups", "setup_ms",
"teardown_ms", "reason", "sent": {NAME: [MS...]}}, max_pkt the first SETUP's
(null: none), every MS counted from the first SETUP,
and the SETUPs and TEARDOWN timed by the kernel as they reached IFNAME
(SO_TIMESTAMPNS), not by this program. The wire format is written again here (Documentation/
signaling.md), on purpose: not kmod/sigmsg.c checked against itself.
"""
import heapq
import json
import socket
import struct
import sys
import time

ETH_P_IP = 0x0800
PACKET_OUTGOING = 4
SO_TIMESTAMPNS = 35  # asm-generic/socket.h; Python has no name for it
SIG_PORT = 4242
CTL_MAC = bytes.fromhex("ffffffff0001")
SETUP, ACCEPT, REJECT, TEARDOWN, PROCEEDING = 1, 2, 3, 4, 7
A_DPORT, A_MAX_PKT, A_REASON, A_HOP, A_LIFETIME, A_HOPS = 2, 5, 6, 7, 8, 9
F_REVERSE = 1
R_BANDWIDTH, R_INVALID, R_EXPIRED = 1, 7, 10
STRAY_ID = 0xfffe  # ETHEREAL_ID_MAX: rtcd hands IDs out from 00:0b up
ACTIONS = ("proceeding", "stray-cookie", "stray-id", "accept", "expire",
           "reject", "reject-each", "reject-invalid")


def attrs(msg):
    """The message's attributes, {type: value bytes}."""
    out = {}
    off = 12
    while off + 4 <= len(msg):
        atype, alen = struct.unpack_from("!HH", msg, off)
        if alen < 4:
            break
        out[atype] = msg[off + 4:off + alen]
        off += (alen + 3) & ~3
    return out


def attr(atype, fmt, value):
    body = struct.pack("!" + fmt, value)
    a = struct.pack("!HH", atype, 4 + len(body)) + body
    return a + b"\0" * (-len(a) % 4)


def message(mtype, conn_id, cookie, body=b"", flags=0):
    return struct.pack("!BBHHHI", 1, mtype, 12 + len(body), conn_id, flags,
                       cookie) + body


def checksum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


class Switch:
    def __init__(self, ifname, plans, lifetime):
        self.plans = plans
        self.lifetime = lifetime
        self.nth = {}  # DPORT: connections to it so far
        self.conns = {}  # (id, cookie): its record
        self.due = []  # (time, seq, conn key, action, its argument)
        self.seq = 0
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                  socket.htons(ETH_P_IP))
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.bind((ifname, ETH_P_IP))
        self.mac = self.sock.getsockname()[4]
        self.host = None  # (MAC, IP, port) of rtcd

    def send(self, msg):
        """MSG from the control IP and port to rtcd, as the switch does."""
        mac, ip, port = self.host
        udp = struct.pack("!HHHH", SIG_PORT, port, 8 + len(msg), 0) + msg
        hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64,
                          17, 0, socket.inet_aton("198.18.0.1"), ip)
        hdr = hdr[:10] + struct.pack("!H", checksum(hdr)) + hdr[12:]
        self.sock.send(mac + self.mac + struct.pack("!H", ETH_P_IP) + hdr +
                       udp)

    def act(self, key, name, arg=None):
        c = self.conns[key]
        conn_id, cookie = key
        if name == "proceeding":
            c["hop"] += 1
            msg = message(PROCEEDING, conn_id, cookie,
                          attr(A_HOP, "B", c["hop"]))
        elif name == "stray-cookie":
            msg = message(PROCEEDING, conn_id, cookie ^ 0x5a5a5a5a,
                          attr(A_HOP, "B", 1))
        elif name == "stray-id":
            msg = message(PROCEEDING, STRAY_ID, cookie, attr(A_HOP, "B", 1))
        elif name == "accept":
            msg = message(ACCEPT, conn_id, cookie,
                          attr(A_LIFETIME, "I", self.lifetime if arg is None else arg) +
                          attr(A_HOPS, "B", 1))
        elif name == "expire":
            msg = message(TEARDOWN, conn_id, cookie,
                          attr(A_REASON, "H", R_EXPIRED), F_REVERSE)
        else:
            reason = R_INVALID if name == "reject-invalid" else R_BANDWIDTH
            msg = message(REJECT, conn_id, cookie, attr(A_REASON, "H", reason))
            if name == "reject-each":
                c["reject_each"] = True
                name = "reject"
        self.send(msg)
        c["sent"].setdefault(name, []).append(
            round((time.time() - c["t0"]) * 1000, 1))

    def on_setup(self, key, msg, t):
        c = self.conns.get(key)
        if c:
            c["setups"] += 1
            c["setup_ms"].append(round((t - c["t0"]) * 1000, 1))
            if c.get("reject_each"):
                self.act(key, "reject")
            return
        a = attrs(msg)
        dport = struct.unpack("!H", a.get(A_DPORT, b"\0\0"))[0]
        max_pkt = a.get(A_MAX_PKT, b"")
        n = self.nth[dport] = self.nth.get(dport, 0) + 1
        self.conns[key] = {"dport": dport, "n": n,
                           "id": "%02x:%02x" % divmod(key[0], 256),
                           "max_pkt": struct.unpack("!I", max_pkt)[0]
                           if len(max_pkt) == 4 else None,
                           "setups": 1, "setup_ms": [0.0], "t0": t, "hop": 0,
                           "sent": {}}
        for name, arg, count, ms in self.plans.get((dport, n), []):
            for _ in range(count):
                self.seq += 1
                heapq.heappush(self.due,
                               (t + ms / 1000, self.seq, key, name, arg))

    def on_teardown(self, key, msg, t):
        c = self.conns.pop(key, None)
        if not c:
            return
        reason = attrs(msg).get(A_REASON)
        c["teardown_ms"] = round((t - c.pop("t0")) * 1000, 1)
        c["reason"] = struct.unpack("!H", reason)[0] if reason else None
        del c["hop"]
        # Its actions still due are for a connection gone: none.
        self.due = [d for d in self.due if d[2] != key]
        heapq.heapify(self.due)
        print(json.dumps(c), flush=True)

    def receive(self):
        data, anc, _, addr = self.sock.recvmsg(2048, socket.CMSG_SPACE(16))
        if addr[2] == PACKET_OUTGOING or data[:6] != CTL_MAC:
            return
        t = time.time()
        for level, ctype, cdata in anc:
            if level == socket.SOL_SOCKET and ctype == SO_TIMESTAMPNS:
                sec, nsec = struct.unpack("qq", cdata[:16])
                t = sec + nsec / 1e9
        ip = data[14:]
        udp = ip[(ip[0] & 15) * 4:]
        if ip[9] != 17 or struct.unpack("!H", udp[2:4])[0] != SIG_PORT:
            return
        msg = udp[8:]
        if len(msg) < 12:
            return
        self.host = (data[6:12], ip[12:16], struct.unpack("!H", udp[:2])[0])
        _, mtype, _, conn_id, _, cookie = struct.unpack_from("!BBHHHI", msg)
        if mtype == SETUP:
            self.on_setup((conn_id, cookie), msg, t)
        elif mtype == TEARDOWN:
            self.on_teardown((conn_id, cookie), msg, t)

    def run(self):
        print("listening", flush=True)
        while True:
            now = time.time()
            while self.due and self.due[0][0] <= now:
                _, _, key, name, arg = heapq.heappop(self.due)
                self.act(key, name, arg)
            wait = self.due[0][0] - now if self.due else None
            self.sock.settimeout(wait)
            try:
                self.receive()
            except socket.timeout:
                pass


def main(argv):
    plans = {}
    lifetime = 30000
    for arg in argv[2:]:
        dport, actions = arg.split("=")
        if dport == "lifetime":
            lifetime = int(actions)
            continue
        dport, _, n = dport.partition(".")
        for a in actions.split(","):
            what, ms = a.split("@")
            what, _, count = what.partition("*")
            name, _, arg = what.partition(":")
            if name not in ACTIONS:
                sys.exit("fake_switch.py: unknown action '%s'" % name)
            plans.setdefault((int(dport), int(n or 1)), []).append(
                (name, int(arg) if arg else None, int(count or 1), float(ms)))
    Switch(argv[1], plans, lifetime).run()


if __name__ == "__main__":
    main(sys.argv)

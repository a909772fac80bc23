#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What bench/fig5 and fig6 need from a capture (tcpdump -w), as JSON.

  pcapstat.py iat FILE BIN       inter-arrival times of the frames captured:
                                 summary and histogram of BIN-ns bins
  pcapstat.py window FILE WINDOW STEP [CUT...]
                                 frame rate (bit/s) in the sliding window
                                 (t - WINDOW, t] every STEP ns, t absolute
                                 (ns since the epoch), and the mean frame
                                 rate between consecutive CUTs (ns)
  pcapstat.py around FILE WINDOW STEP CSV SIDE
                                 the same around another flow's lifetime,
                                 its first to last arrival in rtperf's CSV
                                 (recv -o, its rx_ns column): the rates in
                                 the SIDE ns before it, during it and in the
                                 SIDE ns after it, and first_ns and last_ns

Rates count whole frames as captured (pcap's original length: Ethernet
header and IP packet), as tc and rtperf do. Standard library only: it runs
in the VM, on any Python 3.
"""
import json
import math
import struct
import sys


def frames(path):
    """(timestamp ns, original length) of every frame of a pcap file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return []
    magic = data[:4]
    for endian in "<>":
        m = struct.unpack(endian + "I", magic)[0]
        if m in (0xA1B2C3D4, 0xA1B23C4D):
            break
    else:
        raise SystemExit(f"{path}: not a pcap file")
    frac = 1000 if m == 0xA1B2C3D4 else 1  # micro- or nanosecond stamps
    rec = struct.Struct(endian + "IIII")
    out, off = [], 24
    while off + 16 <= len(data):
        sec, sub, incl, orig = rec.unpack_from(data, off)
        out.append((sec * 1_000_000_000 + sub * frac, orig))
        off += 16 + incl
    return out


def summary(xs):
    if not xs:
        return {"n": 0, "min": None, "mean": None, "p50": None, "p99": None,
                "max": None, "sd": None}
    s = sorted(xs)
    n = len(s)
    mean = sum(s) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in s) / (n - 1)) if n > 1 else 0.0
    # nearest rank, as rtperf's percentiles
    rank = lambda p: s[max(0, math.ceil(p / 100 * n) - 1)]  # noqa: E731
    return {"n": n, "min": s[0], "mean": round(mean), "p50": rank(50),
            "p99": rank(99), "max": s[-1], "sd": round(sd)}


def iat(path, bin_ns):
    ts = sorted(t for t, _ in frames(path))
    gaps = [b - a for a, b in zip(ts, ts[1:])]
    hist = {}
    for g in gaps:
        lo = g // bin_ns * bin_ns
        hist[lo] = hist.get(lo, 0) + 1
    res = summary(gaps)
    res.update(bin_ns=bin_ns, histogram=sorted([k, v] for k, v in hist.items()))
    return res


def window(path, win, step, cuts):
    fr = sorted(frames(path))
    res = {"frames": len(fr), "window_ns": win, "step_ns": step, "series": [],
           "rates": []}
    if not fr:
        return res
    # two pointers over the frames: bytes in (t - win, t]
    series, lo, hi, acc = [], 0, 0, 0
    t = fr[0][0] + win
    while t <= fr[-1][0] + step:
        while hi < len(fr) and fr[hi][0] <= t:
            acc += fr[hi][1]
            hi += 1
        while lo < hi and fr[lo][0] <= t - win:
            acc -= fr[lo][1]
            lo += 1
        series.append([t, round(acc * 8e9 / win)])
        t += step
    res["series"] = series
    for a, b in zip(cuts, cuts[1:]):
        n = sum(length for ts, length in fr if a < ts <= b)
        res["rates"].append(round(n * 8e9 / (b - a)) if b > a else None)
    return res


def around(path, win, step, csv, side):
    with open(csv) as f:
        lines = list(f)
    col = lines[0].strip().split(",").index("rx_ns") if lines else 0
    rx = [int(line.split(",")[col]) for line in lines[1:] if line.strip()]
    if not rx:
        raise SystemExit(f"{csv}: no datagram")
    first, last = min(rx), max(rx)
    res = window(path, win, step, [first - side, first, last, last + side])
    res.update(first_ns=first, last_ns=last)
    return res


def main(argv):
    if len(argv) >= 4 and argv[1] == "iat":
        out = iat(argv[2], int(argv[3]))
    elif len(argv) >= 5 and argv[1] == "window":
        out = window(argv[2], int(argv[3]), int(argv[4]), [int(c) for c in argv[5:]])
    elif len(argv) == 7 and argv[1] == "around":
        out = around(argv[2], int(argv[3]), int(argv[4]), argv[5], int(argv[6]))
    else:
        sys.exit(__doc__)
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main(sys.argv)

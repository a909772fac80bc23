#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Plots of bench/ results: plot.py SCENARIO RESULTS.json OUT.png

One function per scenario, registered with @plot("NAME"), taking the
scenario's JSON (bench_write in bench/lib.sh: {scenario, machine,
parameters, results}) and the output path. Shared helpers: grouped_bars()
for a metric per configuration and group, subtitle() for the machine line,
save() to finish.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PLOTS = {}

# The same colour for a configuration in every plot.
CONFIG_COLORS = {
    "ethereal-paced": "tab:blue", "ethereal-cyclic": "tab:cyan",
    "plain": "tab:gray", "prio": "tab:orange", "htb": "tab:green",
    "cbs": "tab:red",
}


def plot(name):
    def register(fn):
        PLOTS[name] = fn
        return fn
    return register


def subtitle(data):
    """One line on where and when: the results are only comparable within
    one run (one machine, one VM)."""
    m = data.get("machine") or {}
    host = m.get("host") or {}
    accel = {"tcg": "QEMU TCG", "kvm": "QEMU KVM"}.get(host.get("accel"), "VM")
    return (f"Linux {m.get('kernel', '?')}, {m.get('vcpus', '?')} vCPUs, "
            f"{accel} on {host.get('cpu', '?')}, {m.get('date', '?')[:10]}")


def grouped_bars(ax, res, group_key, value, groups_label="{}", configs=None):
    """Bars of value(result) per configuration (x axis), one bar per value
    of group_key within each; returns the configurations in order."""
    configs = configs or list(dict.fromkeys(r["config"] for r in res))
    groups = sorted({r[group_key] for r in res})
    width = 0.8 / len(groups)
    for i, g in enumerate(groups):
        pts = {r["config"]: r for r in res if r[group_key] == g}
        xs = [c + i * width for c in range(len(configs))]
        ys = [value(pts[c]) if c in pts and value(pts[c]) is not None else 0
              for c in configs]
        ax.bar(xs, ys, width, label=groups_label.format(g))
    ax.set_xticks([c + width * (len(groups) - 1) / 2 for c in range(len(configs))])
    ax.set_xticklabels(configs, rotation=30, ha="right")
    return configs


def bar_panels(res, group_key, label, panels, figsize=(15, 4.4)):
    """One row of grouped_bars panels, one per (title, value) in panels;
    returns the figure and its axes."""
    fig, axes = plt.subplots(1, len(panels), figsize=figsize)
    for ax, (title, value) in zip(axes, panels):
        grouped_bars(ax, res, group_key, value, label)
        ax.set_title(title)
    return fig, axes


def save(fig, data, title, out):
    fig.suptitle(f"{title}\n{subtitle(data)}", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=100)


@plot("fig4")
def fig4(data, out):
    res = data["results"]
    fig, (bw, loss, delay) = bar_panels(res, "interferers", "{} interfering", [
        ("test flow at the receiver (Mbit/s)", lambda r: r["throughput_bps"] / 1e6),
        ("test flow loss (%)", lambda r: r["loss_pct"]),
        ("test flow one-way delay, p99 (ms)",
         lambda r: r["delay_p99_us"] and r["delay_p99_us"] / 1000)], figsize=(14, 4.2))
    bw.axhline(res[0]["reserved_bps"] / 1e6, color="black", linestyle="--",
               linewidth=1, label="reservation")
    delay.set_yscale("log")
    bw.legend(fontsize=8)
    link = data["parameters"]["link_bps"] / 1e6
    save(fig, data, f"Fig. 4: a flow reserving 50% against 100% of interference, "
         f"{link:g} Mbit/s link", out)


@plot("scale")
def scale(data, out):
    res = data["results"]
    labels = [r["config"].replace(", ", ",\n") for r in res]
    xs = range(len(res))
    fig, (rate, lat) = plt.subplots(1, 2, figsize=(12, 4.5))
    rate.bar(xs, [r["pps"] for r in res], color="tab:blue")
    rate.set_title("forwarding rate (frames/s)")
    w = 0.4
    lat.bar([x - w / 2 for x in xs], [r["delay_p50_us"] or 0 for r in res], w, label="p50")
    lat.bar([x + w / 2 for x in xs], [r["delay_p99_us"] or 0 for r in res], w, label="p99")
    lat.set_title("one-way delay (us)")
    lat.legend(fontsize=8)
    for ax in (rate, lat):
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    save(fig, data, f"Forwarding against installed connections, "
         f"{data['parameters']['frame_bytes']}-byte frames", out)


@plot("demo")
def demo(data, out):
    res = data["results"]
    p = data["parameters"]
    fig, (bw, lat) = plt.subplots(1, 2, figsize=(11, 4),
                                  gridspec_kw={"width_ratios": [2, 1]})
    for r in res:
        series = r.get("window_series") or []
        bw.plot([t / 1e9 for t, _ in series], [b / 1e6 for _, b in series],
                label=r["config"], color=CONFIG_COLORS.get(r["config"]))
    bw.axhline(p["reserved_bps"] / 1e6, color="black", linestyle="--",
               linewidth=1, label="reservation")
    bw.set_xlabel("s")
    bw.set_title("reserved stream at h4, 80 ms window (Mbit/s)")
    bw.set_ylim(bottom=0)
    bw.legend(fontsize=8)
    xs = range(len(res))
    w = 0.4
    lat.bar([x - w / 2 for x in xs], [(r["delay_p50_us"] or 0) / 1000 for r in res], w, label="p50")
    lat.bar([x + w / 2 for x in xs], [(r["delay_p99_us"] or 0) / 1000 for r in res], w, label="p99")
    lat.set_xticks(list(xs))
    lat.set_xticklabels([r["config"] for r in res])
    lat.set_title("one-way delay (ms)")
    lat.legend(fontsize=8)
    save(fig, data, f"Demo: {p['reserved_bps'] / 1e6:g} Mbit/s reserved against "
         f"{p['competing_bps'] / 1e6:g} Mbit/s of competition, "
         f"{p['link_bps'] / 1e6:g} Mbit/s link", out)

@plot("fig5")
def fig5(data, out):
    """A panel per configuration and reservation: the real-time stream's
    and TCP's 80 ms sliding-window rates over time, the paper's Fig. 5."""
    res = data["results"]
    configs = list(dict.fromkeys(r["config"] for r in res))
    pcts = sorted({r["reserved_pct"] for r in res})
    link = data["parameters"]["link_bps"] / 1e6
    fig, axes = plt.subplots(len(configs), len(pcts), sharex=True, sharey=True,
                             figsize=(max(10, 6 * len(pcts)), 1.9 * len(configs) + 1),
                             squeeze=False)
    for r in res:
        ax = axes[configs.index(r["config"])][pcts.index(r["reserved_pct"])]
        for key, label, color in (("tcp", "TCP", "tab:blue"),
                                  ("rt", "real time", "tab:red")):
            pts = r["series"][key]
            ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts],
                    color=color, linewidth=0.8, label=label)
        ax.axhline(r["reserved_bps"] / 1e6, color="tab:red", linestyle=":",
                   linewidth=0.8, label="reservation")
        ax.axhline(r["tcp"]["residual_bps"] / 1e6, color="tab:blue",
                   linestyle=":", linewidth=0.8, label="residual")
        ax.set_ylim(0, link * 1.2)
        ax.set_title(f"{r['config']}, real time {r['reserved_pct']}%", fontsize=9)
    for ax in axes[-1]:
        ax.set_xlabel("s from the real-time stream's first arrival")
    for row in axes:
        row[0].set_ylabel("Mbit/s")
    axes[0][0].legend(fontsize=7, loc="lower left", ncol=2)
    save(fig, data, f"Fig. 5: real time and greedy TCP from one host, 80 ms "
         f"sliding windows at the receiver, {link:g} Mbit/s link", out)


@plot("fig6")
def fig6(data, out):
    """Figs. 6 and 8: a panel per configuration, without and with TCP from
    the same host: histograms of the stream's inter-arrival times at the
    switch's input and at the destination."""
    res = data["results"]
    configs = list(dict.fromkeys(r["config"] for r in res))
    period = data["parameters"]["period_us"] / 1000
    # the axis: what nearly every frame saw, beyond it only the max (table)
    right = max(max(r[k]["p99_us"] or 0 for k in ("switch_in", "destination"))
                for r in res) / 1000 * 1.3
    fig, axes = plt.subplots(len(configs), 2, sharex=True,
                             figsize=(11, 1.7 * len(configs) + 1), squeeze=False)
    for r in res:
        ax = axes[configs.index(r["config"])][1 if r["tcp"] else 0]
        for key, label, color in (("switch_in", "switch input", "tab:orange"),
                                  ("destination", "destination", "tab:blue")):
            h = r[key]
            if not h.get("histogram"):
                continue
            width = h["bin_ns"] / 1e6
            ax.bar([b[0] / 1e6 for b in h["histogram"]],
                   [b[1] for b in h["histogram"]], width=width, align="edge",
                   color=color, alpha=0.6, label=label)
        ax.axvline(period, color="black", linestyle=":", linewidth=0.8,
                   label="period")
        ax.set_yscale("log")
        ax.set_xlim(0, right)
        cycle = f", cycle {r['cycle_ms']} ms" if r.get("cycle_ms") else ""
        tcp = "with" if r["tcp"] else "without"
        ax.set_title(f"{r['config']}{cycle}, {tcp} TCP", fontsize=9)
    for ax in axes[-1]:
        ax.set_xlabel("inter-arrival time (ms)")
    for row in axes:
        row[0].set_ylabel("frames")
    axes[0][0].legend(fontsize=7)
    link = data["parameters"]["link_bps"] / 1e6
    save(fig, data, f"Figs. 6 and 8: inter-arrival times of a stream of half "
         f"the link, {link:g} Mbit/s", out)


@plot("fig7")
def fig7(data, out):
    """Fig. 7: the best-effort flow's delay (p50, p99) and loss against the
    total real-time reservation, a line per configuration."""
    res = data["results"]
    configs = list(dict.fromkeys(r["config"] for r in res))
    fig, (p50, p99, loss) = plt.subplots(1, 3, figsize=(14, 4.2))
    for c in configs:
        pts = sorted((r for r in res if r["config"] == c),
                     key=lambda r: r["reserved_pct"])
        xs = [r["reserved_pct"] for r in pts]
        style = {"color": CONFIG_COLORS.get(c), "marker": "o", "label": c}
        for ax, key in ((p50, "delay_p50_us"), (p99, "delay_p99_us")):
            ax.plot(xs, [r["be"][key] / 1000 if r["be"][key] is not None
                         else float("nan") for r in pts], **style)
        loss.plot(xs, [r["be"]["loss_pct"] or 0 for r in pts], **style)
    be = data["parameters"]["be_pct"]
    for ax, title in ((p50, "best-effort one-way delay, p50 (ms)"),
                      (p99, "best-effort one-way delay, p99 (ms)"),
                      (loss, "best-effort loss (%)")):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("real-time reservation (% of the link)")
        ax.axvline(100 - be, color="black", linestyle=":", linewidth=0.8)
    p50.set_yscale("log")
    p99.set_yscale("log")
    p50.legend(fontsize=8)
    link = data["parameters"]["link_bps"] / 1e6
    save(fig, data, f"Fig. 7: best effort ({be}% of the link) against the "
         f"real-time reservations, {link:g} Mbit/s link (dotted: 100% load)", out)


def _cls(r, name):
    """The class NAME of one nto1 result, or an empty dict."""
    return next((c for c in r["classes"] if c["class"] == name), {})


def _ms(v):
    return v / 1000 if v is not None else float("nan")


@plot("nto1")
def nto1(data, out):
    res = data["results"]
    frame = max(r["frame"] for r in res)
    res = [r for r in res if r["frame"] == frame]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    # h1's stream (platinum; best effort in the control case), then the
    # six others' loss, against the load per source
    for key in dict.fromkeys((r["case"], r["config"]) for r in res):
        pts = sorted((r for r in res if (r["case"], r["config"]) == key),
                     key=lambda r: r["load_pct"])
        h1 = "be" if key[0] == "be" else "platinum"
        rest = "gold" if key[0] == "mixed" else "be"
        loads = [r["load_pct"] for r in pts]
        style = {"be": ":", "plat": "-", "mixed": "--"}[key[0]]
        kw = dict(linestyle=style, marker="o", color=CONFIG_COLORS.get(key[1]),
                  label=f"{key[0]}: {key[1]}")
        axes[0].plot(loads, [_ms(_cls(r, h1).get("delay_mean_us")) for r in pts], **kw)
        axes[1].plot(loads, [_ms(_cls(r, h1).get("jitter_us")) for r in pts], **kw)
        axes[2].plot(loads, [_cls(r, rest).get("loss_pct") or 0 for r in pts], **kw)
    titles = ("h1 (platinum; best effort in case be): mean delay (ms)",
              "h1: jitter, the delay's sd (ms)",
              "the six others (gold in mixed, else best effort): loss (%)")
    for ax, title in zip(axes, titles):
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("load per source (% of the line rate)")
        ax.axvline(100 / 7, color="grey", linewidth=0.8, linestyle=":")
    axes[0].set_yscale("log")
    axes[1].set_yscale("log")
    axes[2].legend(fontsize=7, ncol=2)
    link = res[0]["link_bps"] / 1e6
    save(fig, data, f"n-to-1 (Jacobs et al.): 7 sources into one port, {frame}-byte "
         f"frames, {link:g} Mbit/s; line: case (dotted be, solid plat, dashed mixed)", out)


@plot("alloc")
def alloc(data, out):
    res = data["results"]
    fig, (lo, hi, share) = bar_panels(res, "policy", "policy {}", [
        ("low class: allocation error (%)", lambda r: r["low"]["error_pct"]),
        ("high class: allocation error (%)", lambda r: r["high"]["error_pct"]),
        ("low class's share of what both got (%)", lambda r: r["low_share_pct"])])
    for ax in (lo, hi):
        ax.set_yscale("symlog", linthresh=1)
    for p in sorted({r["policy"] for r in res}):
        share.axhline(float(p.split("/")[1]), color="black", linestyle=":", linewidth=0.8)
    lo.legend(fontsize=8)
    link = data["parameters"]["link_bps"] / 1e6
    save(fig, data, "Bandwidth allocation under congestion (Orellana et al.): two classes "
         f"each offering {link:g} Mbit/s into a {link:g} Mbit/s port", out)


@plot("isolation")
def isolation(data, out):
    res = data["results"]
    fig, (thr, p99, bad) = bar_panels(res, "factor", "h4 at {}x its reservation", [
        ("well-behaved flows: throughput / reservation (worst)",
         lambda r: r["well"]["min_of_reservation"]),
        ("well-behaved flows: delay p99 (ms, worst)", lambda r: _ms(r["well"]["max_p99_us"])),
        ("h4: delivered / its reservation", lambda r: r["misbehaving"]["of_reservation"])])
    thr.axhline(1, color="black", linestyle="--", linewidth=1)
    bad.axhline(1, color="black", linestyle="--", linewidth=1)
    p99.set_yscale("log")
    thr.legend(fontsize=8)
    link = data["parameters"]["link_bps"] / 1e6
    save(fig, data, "Isolation: three flows at their reservation beside one at three "
         f"times its own, {link:g} Mbit/s port", out)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in PLOTS:
        sys.exit(f"usage: plot.py {'|'.join(sorted(PLOTS))} RESULTS.json OUT.png")
    with open(sys.argv[2]) as f:
        PLOTS[sys.argv[1]](json.load(f), sys.argv[3])

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Plots of bench/ results: plot.py SCENARIO RESULTS.json OUT.png...

Each SCENARIO RESULTS.json OUT.png in turn, in one process (matplotlib
takes half a second to start: make bench draws a dozen); says on stderr
where each went, or why not, and fails when one did not.

One function per scenario, registered with @plot("NAME"), taking the
scenario's JSON (bench_write in bench/lib.sh: {scenario, machine,
parameters, results}) and the output path. Shared helpers: grouped_bars()
for a metric per configuration and group (with its 95% interval, invalid
points marked), lines() for one against a parameter, cdf_panel() for
delay distributions, subtitle() for the machine line, save() to finish.
"""
import json
import sys
import traceback
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PLOTS = {}

# A point without a valid run leaves a panel empty: log scales and legends
# then warn, and the plot is still right.
warnings.filterwarnings("ignore", category=UserWarning)

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


def color(config):
    """A configuration's colour; the peers branch's new ones get the next
    free colour of the default cycle, the same in every plot."""
    if config not in CONFIG_COLORS:
        used = set(CONFIG_COLORS.values())
        free = [c for c in plt.rcParams["axes.prop_cycle"].by_key()["color"]
                if c not in used] or ["black"]
        CONFIG_COLORS[config] = free[len(CONFIG_COLORS) % len(free)]
    return CONFIG_COLORS[config]


def subtitle(data):
    """One line on where, when and what: the results are only comparable
    within one run (one machine, one VM, one commit)."""
    m = data.get("machine") or {}
    host = m.get("host") or {}
    accel = {"tcg": "QEMU TCG", "kvm": "QEMU KVM"}.get(host.get("accel"), "VM")
    quick = ", quick form" if m.get("quick") else ""
    return (f"commit {m.get('commit', '?')}{quick}, Linux {m.get('kernel', '?')}, "
            f"{m.get('vcpus', '?')} vCPUs, {accel} on {host.get('cpu', '?')}, "
            f"{m.get('date', '?')[:10]}")


def valid(r):
    """A point counts when one of its runs was valid (bench/lib-point.sh);
    results without runs (setup's) always do."""
    return r is not None and r.get("valid", 1) > 0


def est(e, scale=1.0):
    """(mean, half width of its 95% interval) of an estimate over runs
    ({mean, ci, n}: rtperf analyze), scaled; NaN and 0 when missing."""
    if not isinstance(e, dict) or e.get("mean") is None:
        return float("nan"), 0.0
    return e["mean"] * scale, (e.get("ci") or 0.0) * scale


def get(r, *path):
    """r[path[0]][path[1]]..., or None when any step is missing."""
    for k in path:
        if r is None:
            return None
        r = r.get(k) if isinstance(r, dict) else None
    return r


def ms(v):
    return v / 1000 if v is not None else float("nan")


def of_sent(flow):
    """A flow's rate received as % of what it meant to send in the window
    (its interval scaled alike)."""
    sent = get(flow, "sent_bps", "mean")
    return est(flow.get("throughput_bps"), 100 / sent) if sent else (float("nan"), 0.0)


def grouped_bars(ax, res, group_key, value, groups_label="{}", configs=None):
    """Bars of value(result) per configuration (x axis), one bar per value
    of group_key within each; value gives a number or (mean, ci) (an error
    bar). An invalid point (no valid run) is an empty hatched bar marked
    "invalid", never a value. Returns the configurations in order."""
    configs = configs or list(dict.fromkeys(r["config"] for r in res))
    groups = sorted({r[group_key] for r in res}, key=str)
    width = 0.8 / len(groups)
    for i, g in enumerate(groups):
        pts = {r["config"]: r for r in res if r[group_key] == g}
        labelled = False
        for c_i, c in enumerate(configs):
            x = c_i + i * width
            r = pts.get(c)
            if r is None:
                continue
            if not valid(r):
                # the whole height, hatched: no value, and no doubt why
                ax.axvspan(x - width / 2, x + width / 2, facecolor="none",
                           edgecolor="grey", hatch="//", linewidth=0)
                ax.text(x, 0.5, "invalid", rotation=90, fontsize=8, ha="center",
                        va="center", color="dimgrey",
                        transform=ax.get_xaxis_transform())
                continue
            v = value(r)
            m, ci = v if isinstance(v, tuple) else (v, 0.0)
            if m is None or m != m:
                continue
            # the legend from the group's first bar, wherever that is
            ax.bar(x, m, width, yerr=ci if ci else None, capsize=2,
                   color=f"C{i}", label=None if labelled else groups_label.format(g))
            labelled = True
    ax.set_xticks([c + width * (len(groups) - 1) / 2 for c in range(len(configs))])
    ax.set_xticklabels(configs, rotation=30, ha="right")
    return configs


def bar_marks(ax, res, configs, group_key, value, label):
    """A red marker at value(result) over each result's bar of grouped_bars
    (the same places), where it gives one: the other end of a search's
    bracket, say."""
    groups = sorted({r[group_key] for r in res}, key=str)
    width = 0.8 / len(groups)
    pts = [(configs.index(r["config"]) + groups.index(r[group_key]) * width, value(r))
           for r in res if r["config"] in configs and value(r)]
    if pts:
        ax.plot(*zip(*pts), "v", color="red", label=label)


def bar_panels(res, group_key, label, panels, figsize=(15, 4.4), extra=0):
    """One row of grouped_bars panels, one per (title, value) in panels,
    and EXTRA more axes after them; returns the figure and its axes."""
    fig, axes = plt.subplots(1, len(panels) + extra, figsize=figsize)
    for ax, (title, value) in zip(axes, panels):
        grouped_bars(ax, res, group_key, value, label)
        ax.set_title(title, fontsize=10)
    return fig, axes


def cdf_panel(ax, data, curves, title, key="delay_cdf_us"):
    """The delay's complementary CDF (1 - F, log scale: the tail shows),
    one curve per (label, group) in curves, group an object with KEY (the
    quantiles of rtperf analyze at the probabilities cdf_p) or None."""
    drawn = False
    for label, group, style in curves:
        if group is None or not group.get(key):
            continue
        ps = group.get("cdf_p") or data.get("cdf_p") or []
        xs = [v / 1000 for v in group[key]]
        ys = [max(1 - p, 1e-5) for p in ps]
        if len(xs) != len(ys):
            continue
        ax.step(xs, ys, where="post", label=label, **style)
        drawn = True
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(1e-4, 1.05)
    ax.set_xlabel("one-way delay (ms)")
    ax.set_ylabel("fraction of frames later")
    ax.set_title(title, fontsize=10)
    if drawn:
        ax.legend(fontsize=7)


def save(fig, data, title, out):
    fig.suptitle(f"{title}\n{subtitle(data)}", fontsize=10)
    # (the two lines of the title kept clear of the top row's titles,
    # whatever the figure's height)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / fig.get_figheight()))
    fig.savefig(out, dpi=100)
    plt.close(fig)


def with_p(r, group):
    """GROUP (a flow or class of result R) with R's CDF probabilities."""
    if not valid(r) or not isinstance(group, dict):
        return None
    return dict(group, cdf_p=r.get("cdf_p"))


def bars_with_cdf(data, res, group_key, label, panels, group_of, at, cdf_title):
    """bar_panels, then a last panel: the delay distribution of
    group_of(r) in the results where at(r), a curve per configuration."""
    fig, axes = bar_panels(res, group_key, label, panels, figsize=(19, 4.4), extra=1)
    cdf_panel(axes[-1], data, [(r["config"], with_p(r, group_of(r)), {"color": color(r["config"])})
                               for r in res if at(r)], cdf_title)
    return fig, axes


@plot("fig4")
def fig4(data, out):
    res = data["results"]
    n = max(r["interferers"] for r in res)
    fig, axes = bars_with_cdf(data, res, "interferers", "{} interfering", [
        ("test flow received / sent (%)", lambda r: of_sent(r["test"])),
        ("test flow loss (%)", lambda r: est(r["test"]["loss_pct"])),
        ("test flow one-way delay, p99 (ms)", lambda r: ms(get(r, "test", "delay_us", "p99")))],
        lambda r: r["test"], lambda r: r["interferers"] == n,
        f"test flow's delay, {n} interfering (all runs' frames)")
    axes[0].axhline(100, color="black", linestyle="--", linewidth=1)
    axes[2].set_yscale("log")
    axes[0].legend(fontsize=8)
    link = data["parameters"]["link_bps"] / 1e6
    save(fig, data, f"Fig. 4: a flow reserving 50% against 100% of interference, "
         f"{link:g} Mbit/s link", out)


@plot("scale")
def scale(data, out):
    res = data["results"]
    labels = [r["config"].replace(", ", ",\n") for r in res]
    xs = range(len(res))
    fig, (rate, lat) = plt.subplots(1, 2, figsize=(12, 4.5))
    m = [est(r["pps"]) for r in res]
    rate.bar(xs, [v[0] for v in m], yerr=[v[1] for v in m], capsize=3, color="tab:blue")
    rate.set_title("forwarding rate (frames/s)")
    w = 0.4
    lat.bar([x - w / 2 for x in xs], [get(r, "latency", "delay_us", "p50") or 0 for r in res], w,
            label="p50")
    lat.bar([x + w / 2 for x in xs], [get(r, "latency", "delay_us", "p99") or 0 for r in res], w,
            label="p99")
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
    fig, (bw, lat, cdf) = plt.subplots(1, 3, figsize=(15, 4),
                                       gridspec_kw={"width_ratios": [2, 1, 1.3]})
    for r in res:
        series = r.get("window_series") or []
        bw.plot([t / 1e9 for t, _ in series], [b / 1e6 for _, b in series],
                label=r["config"], color=color(r["config"]))
    bw.axhline(p["reserved_bps"] / 1e6, color="black", linestyle="--",
               linewidth=1, label="reservation")
    bw.set_xlabel("s")
    bw.set_title("reserved stream at h4, 80 ms window (Mbit/s), a run")
    bw.set_ylim(bottom=0)
    bw.legend(fontsize=8)
    xs = range(len(res))
    w = 0.4
    lat.bar([x - w / 2 for x in xs], [ms(get(r, "rt", "delay_us", "p50")) for r in res], w, label="p50")
    lat.bar([x + w / 2 for x in xs], [ms(get(r, "rt", "delay_us", "p99")) for r in res], w, label="p99")
    lat.set_xticks(list(xs))
    lat.set_xticklabels([r["config"] for r in res])
    lat.set_title("one-way delay (ms)")
    lat.legend(fontsize=8)
    cdf_panel(cdf, data, [(r["config"], with_p(r, r["rt"]), {"color": color(r["config"])})
                          for r in res], "the stream's delay")
    save(fig, data, f"Demo: {p['reserved_bps'] / 1e6:g} Mbit/s reserved against "
         f"{p['competing_bps'] / 1e6:g} Mbit/s of competition, "
         f"{p['link_bps'] / 1e6:g} Mbit/s link", out)


@plot("fig5")
def fig5(data, out):
    """A panel per configuration and reservation: the real-time stream's
    and TCP's 80 ms sliding-window rates over time (the first valid run),
    the paper's Fig. 5; below, per reservation, the stream's delay
    distribution in each configuration (every valid run)."""
    res = data["results"]
    configs = list(dict.fromkeys(r["config"] for r in res))
    pcts = sorted({r["reserved_pct"] for r in res})
    link = data["parameters"]["link_bps"] / 1e6
    fig = plt.figure(figsize=(max(10, 6 * len(pcts)), 1.9 * len(configs) + 4))
    gs = fig.add_gridspec(len(configs) + 1, len(pcts),
                          height_ratios=[1] * len(configs) + [1.8])
    first = fig.add_subplot(gs[0, 0])
    axes = [[first if (i, j) == (0, 0) else fig.add_subplot(gs[i, j], sharex=first, sharey=first)
             for j in range(len(pcts))] for i in range(len(configs))]
    for j, pct in enumerate(pcts):
        cdf_panel(fig.add_subplot(gs[len(configs), j]), data,
                  [(r["config"], with_p(r, r["rt"]), {"color": color(r["config"])})
                   for r in res if r["reserved_pct"] == pct],
                  f"the stream's delay, {pct}% reserved")
    for r in res:
        ax = axes[configs.index(r["config"])][pcts.index(r["reserved_pct"])]
        if not valid(r):
            ax.text(0.5, 0.5, "invalid: no valid run", transform=ax.transAxes,
                    ha="center", color="grey")
        for key, label, col in (("tcp", "TCP", "tab:blue"),
                                ("rt", "real time", "tab:red")):
            pts = r["series"][key]
            ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts],
                    color=col, linewidth=0.8, label=label)
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
    switch's input and at the destination (the first valid run); below,
    the stream's delay distribution (every valid run)."""
    res = data["results"]
    configs = list(dict.fromkeys(r["config"] for r in res))
    period = data["parameters"]["period_us"] / 1000
    # the axis: what nearly every frame saw, beyond it only the max (table)
    right = max([max(r[k].get("p99_us") or 0 for k in ("switch_in", "destination"))
                 for r in res] + [period]) / 1000 * 1.3
    fig = plt.figure(figsize=(11, 1.7 * len(configs) + 4))
    gs = fig.add_gridspec(len(configs) + 1, 2, height_ratios=[1] * len(configs) + [2.2])
    first = fig.add_subplot(gs[0, 0])
    axes = [[first if (i, j) == (0, 0) else fig.add_subplot(gs[i, j], sharex=first)
             for j in range(2)] for i in range(len(configs))]
    for j, tcp in enumerate((False, True)):
        cdf_panel(fig.add_subplot(gs[len(configs), j]), data,
                  [(r["config"], with_p(r, r.get("rt")), {"color": color(r["config"])})
                   for r in res if bool(r["tcp"]) == tcp],
                  f"the stream's one-way delay, {'with' if tcp else 'without'} TCP")
    for r in res:
        ax = axes[configs.index(r["config"])][1 if r["tcp"] else 0]
        for key, label, col in (("switch_in", "switch input", "tab:orange"),
                                ("destination", "destination", "tab:blue")):
            h = r[key]
            if not h.get("histogram"):
                continue
            width = h["bin_ns"] / 1e6
            ax.bar([b[0] / 1e6 for b in h["histogram"]],
                   [b[1] for b in h["histogram"]], width=width, align="edge",
                   color=col, alpha=0.6, label=label)
        if not valid(r):
            ax.text(0.5, 0.5, "invalid: no valid run", transform=ax.transAxes,
                    ha="center", color="grey")
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


def lines(ax, res, key_x, value, configs, style=None):
    """A line per configuration of value(r) (number or (mean, ci)) against
    r[key_x]; invalid points left out, marked with an x on the axis."""
    for c in configs:
        pts = sorted((r for r in res if r["config"] == c), key=lambda r: r[key_x])
        xs, ys, es = [], [], []
        for r in pts:
            if not valid(r):
                ax.plot(r[key_x], 0, marker="x", color=color(c))
                continue
            v = value(r)
            m, ci = v if isinstance(v, tuple) else (v, 0.0)
            xs.append(r[key_x])
            ys.append(m)
            es.append(ci)
        ax.errorbar(xs, ys, yerr=es, capsize=2, marker="o", label=c, color=color(c),
                    **(style or {}))


@plot("fig7")
def fig7(data, out):
    """Fig. 7: the best-effort flow's delay (p50, p99) and loss against the
    total real-time reservation, a line per configuration, and its delay's
    distribution, and the real-time class's, at the highest reservation
    below 100% load."""
    res = data["results"]
    configs = list(dict.fromkeys(r["config"] for r in res))
    be = data["parameters"]["be_pct"]
    fig, (p50, p99, loss, cdf, rtcdf) = plt.subplots(1, 5, figsize=(22, 4.2))
    lines(p50, res, "reserved_pct", lambda r: ms(get(r, "be", "delay_us", "p50")), configs)
    lines(p99, res, "reserved_pct", lambda r: ms(get(r, "be", "delay_us", "p99")), configs)
    lines(loss, res, "reserved_pct", lambda r: est(get(r, "be", "loss_pct")), configs)
    for ax, title in ((p50, "best-effort one-way delay, p50 (ms)"),
                      (p99, "best-effort one-way delay, p99 (ms)"),
                      (loss, "best-effort loss (%)")):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("real-time reservation (% of the link)")
        ax.axvline(100 - be, color="black", linestyle=":", linewidth=0.8)
    p50.set_yscale("log")
    p99.set_yscale("log")
    p50.legend(fontsize=8)
    top = max([r["reserved_pct"] for r in res if r["reserved_pct"] <= 100 - be] or [0])
    cdf_panel(cdf, data, [(r["config"], with_p(r, r["be"]), {"color": color(r["config"])})
                          for r in res if r["reserved_pct"] == top],
              f"best effort's delay, {top}% reserved")
    cdf_panel(rtcdf, data, [(r["config"], with_p(r, r.get("rt")), {"color": color(r["config"])})
                            for r in res if r["reserved_pct"] == top],
              f"real time's delay, {top}% reserved")
    link = data["parameters"]["link_bps"] / 1e6
    save(fig, data, f"Fig. 7: best effort ({be}% of the link) against the "
         f"real-time reservations, {link:g} Mbit/s link (dotted: 100% load)", out)


def _cls(r, name):
    """The class NAME of one nto1 result, or an empty dict."""
    return next((c for c in r["classes"] if c["class"] == name), {})


@plot("nto1")
def nto1(data, out):
    res = data["results"]
    frame = max(r["frame"] for r in res)
    res = [r for r in res if r["frame"] == frame]
    fig, axes = plt.subplots(1, 4, figsize=(19, 4.6))
    # h1's stream (platinum; best effort in the control case), then the
    # six others' loss, against the load per source
    for key in dict.fromkeys((r["case"], r["config"]) for r in res):
        pts = sorted((r for r in res if (r["case"], r["config"]) == key),
                     key=lambda r: r["load_pct"])
        h1 = "be" if key[0] == "be" else "platinum"
        rest = "gold" if key[0] == "mixed" else "be"
        style = {"be": ":", "plat": "-", "mixed": "--"}[key[0]]
        sub = [dict(r, config=f"{key[0]}: {key[1]}") for r in pts]
        CONFIG_COLORS.setdefault(f"{key[0]}: {key[1]}", color(key[1]))
        lines(axes[0], sub, "load_pct", lambda r: est(_cls(r, h1).get("delay_mean_us"), 1e-3),
              [sub[0]["config"]], {"linestyle": style})
        lines(axes[1], sub, "load_pct", lambda r: est(_cls(r, h1).get("jitter_us"), 1e-3),
              [sub[0]["config"]], {"linestyle": style})
        lines(axes[2], sub, "load_pct", lambda r: est(_cls(r, rest).get("loss_pct")),
              [sub[0]["config"]], {"linestyle": style})
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
    top = max(r["load_pct"] for r in res)
    cdf_panel(axes[3], data, [(f"{r['case']}: {r['config']}", with_p(r, _cls(r, "platinum")),
                               {"color": color(r["config"]),
                                "linestyle": "-" if r["case"] == "plat" else "--"})
                              for r in res if r["load_pct"] == top and r["case"] != "be"],
              f"platinum's delay at {top}% per source")
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
    top = max(r["factor"] for r in res)
    fig, axes = bars_with_cdf(data, res, "factor", "h4 at {}x its reservation", [
        ("well-behaved flows: received / sent (worst)",
         lambda r: r["well"]["min_of_offered"]),
        ("well-behaved flows: delay p99 (ms)", lambda r: ms(get(r, "well", "delay_us", "p99"))),
        ("h4: delivered / its reservation", lambda r: r["misbehaving"]["of_reservation"])],
        lambda r: r["well"], lambda r: r["factor"] == top,
        f"well-behaved flows' delay, h4 at {top}x")
    axes[0].axhline(1, color="black", linestyle="--", linewidth=1)
    axes[2].axhline(1, color="black", linestyle="--", linewidth=1)
    axes[1].set_yscale("log")
    axes[0].legend(fontsize=8)
    link = data["parameters"]["link_bps"] / 1e6
    save(fig, data, "Isolation: three flows at their reservation beside one at three "
         f"times its own, {link:g} Mbit/s port", out)


@plot("latency")
def latency(data, out):
    res = data["results"]
    configs = list(dict.fromkeys(r["config"] for r in res))
    size = [r for r in res if r["sweep"] == "size"]
    load = [r for r in res if r["sweep"] == "load"]
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(17, 4.4))
    for ax, pts, key in ((a, size, "frame"), (b, load, "load_pct")):
        lines(ax, pts, key, lambda r: ms(get(r, "probe", "delay_us", "p50")), configs)
        lines(ax, pts, key, lambda r: ms(get(r, "probe", "delay_us", "p99")), configs,
              {"linestyle": ":"})
        ax.set_yscale("log")
    a.set_xscale("log")
    a.set_xlabel("probe frame (bytes)")
    a.set_title(f"probe delay against its size, background "
                f"{data['parameters']['size_load_pct']}% (ms; solid p50, dotted p99)", fontsize=9)
    b.set_xlabel("background load (% of the link)")
    b.set_title("probe delay against the background load (ms; solid p50, dotted p99)",
                fontsize=9)
    b.axvline(100, color="grey", linewidth=0.8, linestyle=":")
    handles, labels = a.get_legend_handles_labels()
    a.legend(handles[:len(configs)], labels[:len(configs)], fontsize=7)
    top = max([r["load_pct"] for r in load] or [0])
    cdf_panel(c, data, [(r["config"], with_p(r, r["probe"]), {"color": color(r["config"])})
                        for r in load if r["load_pct"] == top],
              f"probe's delay, background {top}%")
    save(fig, data, f"Latency of a {data['parameters']['probe_fps']} frames/s probe, "
         f"{data['parameters']['link_bps'] / 1e6:g} Mbit/s link", out)


@plot("throughput")
def throughput(data, out):
    res = data["results"]
    frame = max(r["frame"] for r in res)
    res = [dict(r, valid=1) for r in res if r["frame"] == frame]
    fig, ax = plt.subplots(1, 1, figsize=(9, 4.4))
    # below the search's lower end: 0; no verdict at all: no bar
    configs = grouped_bars(ax, res, "case",
                           lambda r: 0 if r.get("below_lo") else r["throughput_pct"], "{}")
    bar_marks(ax, res, configs, "case", lambda r: r.get("lost_pct"), "lowest lost")
    ax.axhline(100, color="black", linestyle="--", linewidth=1)
    ax.set_ylim(0, 105)
    ax.set_title(f"lossless throughput, % of the link ({frame}-byte frames; 0: below "
                 f"{res[0]['lo_pct']}%; no bar: no verdict)", fontsize=10)
    ax.legend(fontsize=8)
    save(fig, data, "Lossless throughput of an output port (RFC 2544)", out)


@plot("burst")
def burst(data, out):
    res = [dict(r, one=1, valid=1) for r in data["results"]]
    fig, (n, d, cdf) = plt.subplots(1, 3, figsize=(19, 4.4))
    configs = grouped_bars(n, res, "one", lambda r: r["frames"], "frames")
    bar_marks(n, res, configs, "one", lambda r: r.get("frames_lost"), "shortest lost")
    n.legend(fontsize=8)
    n.axhline(data["parameters"]["max_frames"], color="grey", linestyle=":", linewidth=0.8)
    n.set_title("longest lossless burst (frames; dotted: the most tried)", fontsize=10)
    grouped_bars(d, res, "one", lambda r: ms(get(r, "at", "rt", "delay_us", "p99")), "p99")
    d.set_title("the flow's delay p99 at that burst (ms)", fontsize=10)
    cdf_panel(cdf, data, [(r["config"], with_p(r.get("at") or {}, get(r, "at", "rt")),
                           {"color": color(r["config"])}) for r in data["results"]],
              "the flow's delay at its longest lossless burst")
    p = data["parameters"]
    save(fig, data, f"Back-to-back bursts of a {p['rate_bps'] / 1e6:g} Mbit/s class, the port "
         f"full of best effort, {p['link_bps'] / 1e6:g} Mbit/s (RFC 2544)", out)


@plot("path")
def path(data, out):
    res = data["results"]
    cs = "loaded" if any(r["case"] == "loaded" for r in res) else res[0]["case"]
    fig, axes = bars_with_cdf(data, res, "case", "{}", [
        ("test flow received / sent (%)", lambda r: of_sent(r["test"])),
        ("test flow delay end to end, p99 (ms)", lambda r: ms(get(r, "test", "delay_us", "p99"))),
        ("test flow delay end to end, mean (ms)",
         lambda r: est(get(r, "test", "delay_mean_us"), 1e-3))],
        lambda r: r["test"], lambda r: r["case"] == cs, f"test flow's delay end to end, {cs}")
    axes[1].set_yscale("log")
    axes[0].legend(fontsize=8)
    save(fig, data, "A data path through three switches, "
         f"{data['parameters']['link_bps'] / 1e6:g} Mbit/s links", out)


def main(args):
    if not args or len(args) % 3 or any(n not in PLOTS for n in args[::3]):
        sys.exit(f"usage: plot.py {'|'.join(sorted(PLOTS))} RESULTS.json OUT.png...")
    failed = 0
    for name, results, out in zip(args[::3], args[1::3], args[2::3]):
        try:
            with open(results) as f:
                PLOTS[name](json.load(f), out)
            print(f"{name}: plot in {out}", file=sys.stderr)
        except Exception as e:  # one broken plot must not cost the others
            plt.close("all")
            traceback.print_exc()
            print(f"{name}: no plot: {e}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

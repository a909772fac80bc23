#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Plots of bench/ results: plot.py SCENARIO RESULTS.json OUT.png"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def fig4(data, out):
    res = data["results"]
    configs = list(dict.fromkeys(r["config"] for r in res))
    ns = sorted({r["interferers"] for r in res})
    width = 0.8 / len(ns)
    fig, (bw, loss) = plt.subplots(1, 2, figsize=(11, 4))
    for i, n in enumerate(ns):
        xs = [c + i * width for c in range(len(configs))]
        pts = {r["config"]: r for r in res if r["interferers"] == n}
        bw.bar(xs, [pts[c]["received_bps"] / 1e6 for c in configs], width,
               label=f"{n} interfering")
        loss.bar(xs, [pts[c]["loss_pct"] for c in configs], width,
                 label=f"{n} interfering")
    reserved = res[0]["reserved_bps"] / 1e6
    bw.axhline(reserved, color="black", linestyle="--", linewidth=1,
               label="reservation")
    for ax, title in ((bw, "test flow at the receiver (Mbit/s)"),
                      (loss, "test flow loss (%)")):
        ax.set_xticks([c + width * (len(ns) - 1) / 2 for c in range(len(configs))])
        ax.set_xticklabels(configs, rotation=30, ha="right")
        ax.set_title(title)
    bw.legend(fontsize=8)
    fig.suptitle(f"Fig. 4: a 50% flow against 100% of interference, "
                 f"{res[0]['link_bps'] / 1e6:g} Mbit/s link ({data['date']})")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


PLOTS = {"fig4": fig4}

if __name__ == "__main__":
    with open(sys.argv[2]) as f:
        PLOTS[sys.argv[1]](json.load(f), sys.argv[3])

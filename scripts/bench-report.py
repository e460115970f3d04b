#!/usr/bin/env python3
"""Summarize the guest outputs of "make bench" (bench.sh).

usage: bench-report.py RUNS_DIR OUT_DIR

RUNS_DIR holds NN-VARIANT.txt, one per boot, with "bench: NAME VALUE UNIT"
lines.  Prints the table (per figure: median of stock and patched over the
boots, patched/stock, the relative spread (max - min) / median of each,
base and patched/base), and writes OUT_DIR/bench.json (every value of every
boot, and the same summary) and OUT_DIR/cgroup-read.dat (the
/proc/self/cgroup read cost against depth, for gnuplot).
"""
import json
import os
import re
import statistics
import sys

VARIANTS = ("stock", "patched", "base")
LINE = re.compile(r"^bench: (\S+) (\S+) ?(.*)$")


def parse(path):
    """{figure: (value or None, unit or skip reason)} and the figure order."""
    figs, order = {}, []
    with open(path) as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if not m or m.group(1) == "done":
                continue
            name, val, rest = m.groups()
            try:
                figs[name] = (float(val), rest)
            except ValueError:  # "skip ..." (an "error" stops bench.sh earlier)
                figs[name] = (None, f"{val} {rest}")
            order.append(name)
    return figs, order


def summary(values):
    if not values:
        return None
    med = statistics.median(values)
    return {
        "values": values,
        "median": med,
        "min": min(values),
        "max": max(values),
        "spread": (max(values) - min(values)) / med if med else 0.0,
    }


def fmt(v, unit):
    if v is None:
        return "-"
    return f"{v:.0f}" if unit == "ns" or v >= 1000 else f"{v:.1f}"


def fmt_ratio(r):
    return f"{r:.3f}" if r else "-"


def fmt_spread(s):
    return f"{100 * s['spread']:.2f}%" if s else "-"


def ratio(a, b):
    return a["median"] / b["median"] if a and b and b["median"] else None


def main():
    runs_dir, out_dir = sys.argv[1], sys.argv[2]
    boots, order, units = [], [], {}
    vals = {v: {} for v in VARIANTS}
    for fn in sorted(os.listdir(runs_dir)):
        m = re.match(r"^\d+-(\w+)\.txt$", fn)
        if not m or m.group(1) not in VARIANTS:
            continue
        variant = m.group(1)
        figs, names = parse(os.path.join(runs_dir, fn))
        boots.append({"variant": variant, "file": fn, "figures": len(figs)})
        for name in names:
            if name not in order:
                order.append(name)
            val, unit = figs[name]
            if val is not None:
                units[name] = unit
                vals[variant].setdefault(name, []).append(val)

    table, figures = [], {}
    for name in order:
        unit = units.get(name, "")
        s = {v: summary(vals[v].get(name, [])) for v in VARIANTS}
        figures[name] = dict(unit=unit, **s,
                             patched_over_stock=ratio(s["patched"], s["stock"]),
                             patched_over_base=ratio(s["patched"], s["base"]))
        table.append((name, unit, s))

    w = max(len(n) for n in order)
    head = (f"{'figure':<{w}} {'unit':<5} {'stock':>9} {'patched':>9} {'p/stock':>8}"
            f" {'spread s':>9} {'spread p':>9} {'base':>9} {'p/base':>7}")
    print(head)
    print("-" * len(head))
    for name, unit, s in table:
        st, pa, ba = s["stock"], s["patched"], s["base"]
        r = figures[name]["patched_over_stock"]
        rb = figures[name]["patched_over_base"]
        print(f"{name:<{w}} {unit:<5} {fmt(st and st['median'], unit):>9}"
              f" {fmt(pa and pa['median'], unit):>9} {fmt_ratio(r):>8}"
              f" {fmt_spread(st):>9} {fmt_spread(pa):>9}"
              f" {fmt(ba and ba['median'], unit):>9} {fmt_ratio(rb):>7}")
    n = {v: sum(b["variant"] == v for b in boots) for v in VARIANTS}
    print(f"(medians over {n['stock']} stock, {n['patched']} patched, {n['base']} base boots;"
          " spread = (max - min) / median; '-': skipped, no cgroup namespaces)")

    with open(os.path.join(out_dir, "bench.json"), "w") as f:
        json.dump({"boots": boots, "figures": figures}, f, indent=1)
        f.write("\n")

    # depth, then stock/patched/base medians of the init, nsroot, dotdot reads
    kinds = ("init", "nsroot", "dotdot")
    depths = sorted({int(m.group(1)) for n in order
                     for m in [re.match(r"^cgroup_read_\w+?_d(\d+)$", n)] if m})
    with open(os.path.join(out_dir, "cgroup-read.dat"), "w") as f:
        f.write("# depth " + " ".join(f"{v}_{k}" for k in kinds for v in VARIANTS) + "\n")
        for d in depths:
            row = [str(d)]
            for k in kinds:
                for v in VARIANTS:
                    s = figures.get(f"cgroup_read_{k}_d{d}", {}).get(v)
                    row.append(f"{s['median']:.1f}" if s else "?")
            f.write(" ".join(row) + "\n")


if __name__ == "__main__":
    main()

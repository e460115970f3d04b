#!/usr/bin/env python3
"""Summarize the guest outputs of "make bench" (bench.sh).

usage: bench-report.py RUNS_DIR OUT_DIR

RUNS_DIR holds NN-VARIANT.txt, one per boot, with "bench: NAME VALUE UNIT"
lines.  Prints two tables and a verdict:

- the figures of the short paths and the namespace operations: per
  figure the median of stock and patched over the boots, patched/stock,
  the relative spread (max - min) / median of each, base and
  patched/base;
- the long-path figures (KIND_long_L<length>_n<name length>_d<depth>,
  KIND cgroup, mountinfo or cpuset), grouped by file: the path's length
  (depth x (name length + 1)), the medians of stock, patched and base,
  patched/stock, base/stock, patched/base, the largest spread, and the
  length of the path each kernel printed (KIND_..._bytes; "full" when it
  is the whole path, "refused" when the read failed as it must on a
  kernel that shows no cut path: "bench: NAME refused ERRNO");
- the largest patched/stock over every cost figure (all but the lengths
  read, *_bytes) and whether it is within the project's acceptance,
  1.005.

With boots of a fixes kernel (stock + the tree's fixes series) the tables
also hold its medians, fixes/stock and its spread (long paths: the length
it read), and a second verdict gives the largest fixes/stock against the
same acceptance; with boots of a next kernel (fixes + the tree's next
series) the same for next, after fixes (next/stock).

Writes OUT_DIR/bench.json (every value of every boot, the same summary
with patched/stock, patched/base, base/stock, fixes/stock and next/stock
per figure, and the verdicts), OUT_DIR/cgroup-read.dat (the /proc/self/cgroup read
cost against depth) and OUT_DIR/long-path.dat (the long-path read costs
against the path's length, one block per name length), for gnuplot; the
.dat files hold stock, patched and base (the plots' columns).
"""
import json
import os
import re
import statistics
import sys

VARIANTS = ("stock", "patched", "base", "fixes", "next")
# The kernels of a tree's other series, each reported against stock in
# columns of its own when it was booted: (variant, its letter in the
# column heads).
MORE = (("fixes", "f"), ("next", "n"))
DAT_VARIANTS = ("stock", "patched", "base")  # the columns the plots read
LINE = re.compile(r"^bench: (\S+) (\S+) ?(.*)$")
LONG = re.compile(r"^(cgroup|mountinfo|cpuset)_long_L\w+?_n(\d+)_d(\d+)(_bytes)?$")
LONG_KINDS = (("cgroup", "/proc/self/cgroup, initial namespace"),
              ("mountinfo", "/proc/self/mountinfo, the root field of a bind mount of the level"),
              ("cpuset", "/proc/self/cpuset, cpuset enabled at every level"))
ACCEPT = 1.005  # no figure above 1.005x stock


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


def med(s):
    return s["median"] if s else None


def long_figures(order):
    """The long-path time figures: (name, kind, name length, depth, path length)."""
    rows = []
    for name in order:
        m = LONG.match(name)
        if m and not m.group(4):
            n, d = int(m.group(2)), int(m.group(3))
            rows.append((name, m.group(1), n, d, d * (n + 1)))
    return rows


def long_table(order, figures, more):
    """The long-path figures, one block per file; with the kernels of more
    (MORE's that were booted), their columns too."""
    rows = long_figures(order)
    if not rows:
        return
    w = max(len(r[0]) for r in rows)
    head = (f"{'figure':<{w}} {'length':>7} {'stock':>10} {'patched':>10} {'p/stock':>7}"
            f" {'base':>10} {'b/stock':>7} {'p/base':>7} {'spread':>6}"
            f" {'read s':>7} {'read p':>7} {'read b':>7}")
    for v, c in more:
        head += f" {v:>10} {c + '/stock':>7} {'read ' + c:>7}"
    print()
    print("long paths: ns per open+read+close; length = depth x (name length + 1) bytes;"
          " read X = the path's length as X printed it")
    for kind, title in LONG_KINDS:
        krows = [r for r in rows if r[1] == kind]
        if not krows:
            continue
        print()
        print(f"{kind}: {title}")
        print(head)
        print("-" * len(head))
        for name, _, _, _, length in krows:
            f, fb = figures[name], figures.get(name + "_bytes", {})
            spreads = [f[v]["spread"] for v in VARIANTS if f.get(v)]
            spread = f"{100 * max(spreads):.2f}%" if spreads else "-"

            def read(v):
                s = fb.get(v)
                if not s:
                    return "refused" if f.get("refused", {}).get(v) else "-"
                return "full" if s["median"] == length else f"{s['median']:.0f}"
            line = (f"{name:<{w}} {length:>7} {fmt(med(f['stock']), 'ns'):>10}"
                    f" {fmt(med(f['patched']), 'ns'):>10} {fmt_ratio(f['patched_over_stock']):>7}"
                    f" {fmt(med(f['base']), 'ns'):>10} {fmt_ratio(f['base_over_stock']):>7}"
                    f" {fmt_ratio(f['patched_over_base']):>7} {spread:>6}"
                    f" {read('stock'):>7} {read('patched'):>7} {read('base'):>7}")
            for v, _ in more:
                line += (f" {fmt(med(f[v]), 'ns'):>10} {fmt_ratio(f[v + '_over_stock']):>7}"
                         f" {read(v):>7}")
            print(line)


def write_long_dat(path, order, figures):
    """Per name length a block (gnuplot index 0, 1, ...): length, depth and
    the stock/patched/base medians of each kind."""
    rows = long_figures(order)
    by = {(k, n, d): figures[name] for name, k, n, d, _ in rows}
    chains = {}
    for _, _, n, d, _ in rows:
        chains.setdefault(n, set()).add(d)
    kinds = [k for k, _ in LONG_KINDS]
    with open(path, "w") as f:
        f.write("# one block per name length n; length = d x (n + 1) bytes\n")
        f.write("# length depth " + " ".join(f"{v}_{k}" for k in kinds for v in DAT_VARIANTS) + "\n")
        for n in sorted(chains, reverse=True):
            f.write(f"# n={n}\n")
            for d in sorted(chains[n]):
                row = [str(d * (n + 1)), str(d)]
                for k in kinds:
                    fig = by.get((k, n, d), {})
                    for v in DAT_VARIANTS:
                        s = fig.get(v)
                        row.append(f"{s['median']:.1f}" if s else "?")
                f.write(" ".join(row) + "\n")
            f.write("\n\n")


def largest(figures, order, variant):
    """The verdict on VARIANT/stock: the largest over every cost figure
    (the lengths read, *_bytes, excepted) and whether it is within the
    acceptance; printed, and returned for the JSON (None: no figure)."""
    key = f"{variant}_over_stock"
    costs = [(figures[x][key], x) for x in order
             if not x.endswith("_bytes") and figures[x][key]]
    if not costs:
        print(f"largest {variant}/stock: - (no figure measured on both stock and {variant})")
        return None
    worst, worst_name = max(costs)
    ok = worst <= ACCEPT
    print(f"largest {variant}/stock: {worst:.4f}, {worst_name}"
          f" (over {len(costs)} cost figures, lengths read excluded):"
          f" {'within' if ok else 'ABOVE'} the acceptance of {ACCEPT}")
    return {"figure": worst_name, key: worst,
            "figures": len(costs), "limit": ACCEPT, "within": ok}


def main():
    runs_dir, out_dir = sys.argv[1], sys.argv[2]
    boots, order, units, refused = [], [], {}, {}
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
            elif unit.startswith("refused"):
                refused.setdefault(name, {})[variant] = unit.split()[-1]

    table, figures = [], {}
    for name in order:
        unit = units.get(name, "")
        s = {v: summary(vals[v].get(name, [])) for v in VARIANTS}
        figures[name] = dict(unit=unit, **s,
                             patched_over_stock=ratio(s["patched"], s["stock"]),
                             patched_over_base=ratio(s["patched"], s["base"]),
                             base_over_stock=ratio(s["base"], s["stock"]),
                             fixes_over_stock=ratio(s["fixes"], s["stock"]),
                             next_over_stock=ratio(s["next"], s["stock"]))
        if name in refused:
            figures[name]["refused"] = refused[name]
        m = LONG.match(name)
        if m:
            figures[name]["path_length"] = int(m.group(3)) * (int(m.group(2)) + 1)
        else:
            table.append((name, unit, s))

    n = {v: sum(b["variant"] == v for b in boots) for v in VARIANTS}
    more = [(v, c) for v, c in MORE if n[v] > 0]
    w = max(len(x) for x, _, _ in table) if table else len("figure")
    head = (f"{'figure':<{w}} {'unit':<5} {'stock':>9} {'patched':>9} {'p/stock':>8}"
            f" {'spread s':>9} {'spread p':>9} {'base':>9} {'p/base':>7}")
    for v, c in more:
        head += f" {v:>9} {c + '/stock':>8} {'spread ' + c:>9}"
    print(head)
    print("-" * len(head))
    for name, unit, s in table:
        st, pa, ba = s["stock"], s["patched"], s["base"]
        r = figures[name]["patched_over_stock"]
        rb = figures[name]["patched_over_base"]
        line = (f"{name:<{w}} {unit:<5} {fmt(st and st['median'], unit):>9}"
                f" {fmt(pa and pa['median'], unit):>9} {fmt_ratio(r):>8}"
                f" {fmt_spread(st):>9} {fmt_spread(pa):>9}"
                f" {fmt(ba and ba['median'], unit):>9} {fmt_ratio(rb):>7}")
        for v, _ in more:
            x = s[v]
            line += (f" {fmt(x and x['median'], unit):>9}"
                     f" {fmt_ratio(figures[name][v + '_over_stock']):>8} {fmt_spread(x):>9}")
        print(line)
    long_table(order, figures, more)
    nmore = "".join(f" {n[v]} {v}," for v, _ in more)
    print(f"(medians over {n['stock']} stock, {n['patched']} patched,{nmore} {n['base']} base boots;"
          " spread = (max - min) / median;"
          " '-': skipped (no cgroup namespaces) or no boot of that kernel)")

    verdict = largest(figures, order, "patched")
    verdicts = {f"largest_{v}_over_stock": largest(figures, order, v) if n[v] > 0 else None
                for v, _ in MORE}
    with open(os.path.join(out_dir, "bench.json"), "w") as f:
        json.dump({"boots": boots, "figures": figures, "largest_patched_over_stock": verdict,
                   **verdicts},
                  f, indent=1)
        f.write("\n")

    # depth, then stock/patched/base medians of the init, nsroot, dotdot reads
    kinds = ("init", "nsroot", "dotdot")
    depths = sorted({int(m.group(1)) for n in order
                     for m in [re.match(r"^cgroup_read_\w+?_d(\d+)$", n)] if m})
    with open(os.path.join(out_dir, "cgroup-read.dat"), "w") as f:
        f.write("# depth " + " ".join(f"{v}_{k}" for k in kinds for v in DAT_VARIANTS) + "\n")
        for d in depths:
            row = [str(d)]
            for k in kinds:
                for v in DAT_VARIANTS:
                    s = figures.get(f"cgroup_read_{k}_d{d}", {}).get(v)
                    row.append(f"{s['median']:.1f}" if s else "?")
            f.write(" ".join(row) + "\n")
    write_long_dat(os.path.join(out_dir, "long-path.dat"), order, figures)


if __name__ == "__main__":
    main()

"""Medians and ratios of scripts/checkpoint-vs-fio.sh runs, as a Markdown table."""
import json, statistics, sys

rows = {}
for line in open(sys.argv[1]):
    label, run, times, out = line.rstrip("\n").split("\t")
    wall, user, sys_ = (float(x) for x in times.split())
    cpu = user + sys_
    phase = label.split("-")[0]  # write or read
    if label.rsplit(" ", 1)[1].startswith("fio"):  # fio, fio-refill
        text = open(out).read()
        j = json.loads(text[text.index("{"):])["jobs"][0][phase]  # fio prints notes first
        bw, nbytes = j["bw_bytes"], j["io_bytes"]
        own_cpu = None
    else:
        c = json.load(open(out))["checkpoint"][phase]
        bw, nbytes = c["bytes_per_s"], c["bytes"]
        own_cpu = c["cpu_s_per_gib"]
    rows.setdefault(label, []).append((bw, cpu / (nbytes / 2**30), own_cpu))


def med(label, i):
    return statistics.median(v[i] for v in rows[label])


cases = sorted({l.rsplit(" ", 1)[0] for l in rows})
print("| case | tool | MiB/s (median) | CPU s per GiB | ÷ fio's bandwidth | ÷ fio's CPU per GiB |")
print("|---|---|---|---|---|---|")
for case in cases:
    phase, n = case.split("-")
    what = f"write, {n} rank(s) / numjobs={n}, fsync" if phase == "write" else "restore, 1 rank, cold"
    f = f"{case} fio"
    print(f"| {what} | fio | {med(f, 0) / 2**20:.0f} | {med(f, 1):.3f} | | |")
    # fio --refill_buffers generates every block as dlsize does; dlsize-noverify reads as fio does.
    for tool in ("fio-refill", "dlsize", "dlsize-noverify"):
        d = f"{case} {tool}"
        if d not in rows:
            continue
        own = f" (writer/reader threads: {med(d, 2):.3f})" if rows[d][0][2] is not None else ""
        print(f"| | {tool} | {med(d, 0) / 2**20:.0f} | {med(d, 1):.3f}{own} | "
              f"{med(d, 0) / med(f, 0):.3f} | {med(d, 1) / med(f, 1):.3f} |")
print(f"\n{len(next(iter(rows.values())))} runs each, the order alternating; CPU from /usr/bin/time "
      "(user + sys of the whole process, mpiexec included) and, for dlsize, its report's own.")

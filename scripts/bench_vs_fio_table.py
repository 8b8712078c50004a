"""Medians and ratios of scripts/bench-vs-fio.sh runs, as a Markdown table."""
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, run, wall, user, sys_, out = line.rstrip("\n").split("\t")[0:2] + line.split("\t")[2].split() + [line.rstrip("\n").split("\t")[3]]
    cpu = float(user) + float(sys_)
    if label.endswith("fio"):
        text = open(out).read()
        j = json.loads(text[text.index("{"):])["jobs"][0]["read"]  # fio prints notes first
        bw, nbytes, ios = j["bw_bytes"], j["io_bytes"], j["total_ios"]
        files_s = ios / (j["runtime"] / 1000.0) if j["runtime"] else 0
    else:
        r = json.load(open(out.replace(".out", ".json")))
        s = r["summary"]
        bw, nbytes = s["read_bytes_per_s"], s["read_bytes"]
        files_s = s["files_per_s"] or 0
    rows.setdefault(label, []).append((bw, cpu / (nbytes / 2**30), files_s))
med = lambda label, i: statistics.median(v[i] for v in rows[label])
print("| case | tool | MiB/s (median) | files/s | CPU s per GiB | dlsize/fio bandwidth | dlsize/fio files/s | dlsize/fio CPU per GiB |")
print("|---|---|---|---|---|---|---|---|")
for case, fio_label, mine in [("(a) shards, sequential, 1 MiB, QD 16", "a-qd16 fio", ["a-qd16 dlsize"]),
                              ("(a) shards, sequential, 1 MiB, QD 32", "a-qd32 fio", ["a-qd32 dlsize"]),
                              ("(b) 112 KiB files, random, QD 16", "b fio", ["b-keep dlsize", "b-per-sample dlsize"])]:
    whole = case.startswith("(b)")  # files/s only where each request is one whole file
    fs = lambda label: f"{med(label,2):.0f}" if whole else "–"
    print(f"| {case} | fio | {med(fio_label,0)/2**20:.0f} | {fs(fio_label)} | {med(fio_label,1):.3f} | | | |")
    for m in mine:
        print(f"| | {m} | {med(m,0)/2**20:.0f} | {fs(m)} | {med(m,1):.3f} | {med(m,0)/med(fio_label,0):.3f} | "
              f"{(f'{med(m,2)/med(fio_label,2):.3f}') if whole else '–'} | {med(m,1)/med(fio_label,1):.3f} |")
print(f"\n{len(rows[fio_label])} runs each, alternating fio and dlsize; CPU from /usr/bin/time (user + sys of the whole process).")

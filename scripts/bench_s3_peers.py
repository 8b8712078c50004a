#!/usr/bin/env python3
"""The peers of scripts/bench-s3.sh.

  bench_s3_peers.py keys ENDPOINT BUCKET PREFIX OUT      list the dataset's objects into OUT
  bench_s3_peers.py boto3 ENDPOINT BUCKET KEYS THREADS   download every key, THREADS at once
  bench_s3_peers.py curl ENDPOINT BUCKET KEYS PROCS      PROCS curl processes, each its share
  bench_s3_peers.py table RESULTS BYTES SAMPLES          medians and ratios of the results
  bench_s3_peers.py list ENDPOINT BUCKET PREFIX THREADS  list PREFIX/ (bench-s3-index.sh): with
                                                         THREADS 0 one list_objects_v2 paginator
                                                         over all of it (`aws s3 ls --recursive`);
                                                         else THREADS threads, one paginator a
                                                         common prefix (Delimiter /), as dlsize
  bench_s3_peers.py list-table RESULTS OBJECTS           medians and ratios of the listings

boto3 reads each object with get_object and Body.read() from a ThreadPoolExecutor, the way a
loader does (one download per object); its CPU is taken by getrusage around the downloads
alone (after the interpreter, boto3's import and the client exist), and written to stdout;
the listings' likewise.
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def s3_client(endpoint):
    import boto3
    from botocore.config import Config
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                        config=Config(max_pool_connections=64, retries={"max_attempts": 1}))


def list_keys(endpoint, bucket, prefix, out):
    c = s3_client(endpoint)
    keys = []
    for page in c.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix + "/"):
        keys += [o["Key"] for o in page.get("Contents", []) if o["Key"].endswith(".rec")]
    with open(out, "w") as f:
        f.write("\n".join(keys) + "\n")


def boto3_run(endpoint, bucket, keys_file, threads):
    from concurrent.futures import ThreadPoolExecutor
    keys = open(keys_file).read().split()
    c = s3_client(endpoint)

    def get(k):
        return len(c.get_object(Bucket=bucket, Key=k)["Body"].read())

    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.monotonic()
    with ThreadPoolExecutor(threads) as pool:
        total = sum(pool.map(get, keys))
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    print(f"{wall} {r1.ru_utime - r0.ru_utime} {r1.ru_stime - r0.ru_stime} {total}")


def curl_run(endpoint, bucket, keys_file, procs):
    keys = open(keys_file).read().split()
    user = f"{os.environ['AWS_ACCESS_KEY_ID']}:{os.environ['AWS_SECRET_ACCESS_KEY']}"
    children = []
    for i in range(procs):
        args = ["curl", "-sf", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", user,
                "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD"]
        for k in keys[i::procs]:
            args += ["-o", "/dev/null", f"{endpoint}/{bucket}/{k}"]
        children.append(subprocess.Popen(args))
    for c in children:
        if c.wait() != 0:
            sys.exit("bench_s3_peers: a curl failed")


def table(results, nbytes, samples):
    rows = {}
    for line in open(results):
        tool, _run, times = line.split("\t")[:3]  # times: "wall user sys" (timed.sh)
        wall, user, sys_s = times.split()
        rows.setdefault(tool, []).append((float(wall), float(user) + float(sys_s)))
    gib = nbytes / 2**30
    med = {}
    print(f"{'tool':<10} {'MB/s':>8} {'CPU s/GiB':>10} {'samples/CPU s':>14}  (medians of {len(next(iter(rows.values())))})")
    for tool, runs in rows.items():
        bw = statistics.median(nbytes / w / 1e6 for w, _ in runs)
        cpu = statistics.median(c / gib for _, c in runs)
        sps = statistics.median(samples / c for _, c in runs)
        med[tool] = (bw, cpu, sps)
        print(f"{tool:<10} {bw:8.1f} {cpu:10.3f} {sps:14.0f}")
    if {"dlsize", "boto3", "curl"} <= med.keys():
        print(f"dlsize CPU/GiB ÷ boto3's: {med['dlsize'][1] / med['boto3'][1]:.3f} (goal ≤ 0.2)")
        print(f"dlsize MB/s ÷ parallel curl's: {med['dlsize'][0] / med['curl'][0]:.3f} (goal ≥ 0.95)")


def list_run(endpoint, bucket, prefix, threads):
    """Prints wall, user and sys seconds of the listing alone, and the objects listed."""
    import queue
    import threading
    c = s3_client(endpoint)

    def pages(p, delimiter):
        extra = {"Delimiter": "/"} if delimiter else {}
        return c.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=p, **extra)

    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.monotonic()
    count = 0
    if threads == 0:
        for page in pages(prefix + "/", False):
            count += len(page.get("Contents", []))
    else:
        todo, lock, counts = queue.Queue(), threading.Lock(), []
        todo.put(prefix + "/")

        def worker():
            n = 0
            while True:
                p = todo.get()
                if p is None:
                    break
                for page in pages(p, True):
                    n += len(page.get("Contents", []))
                    for cp in page.get("CommonPrefixes", []):
                        todo.put(cp["Prefix"])
                todo.task_done()
            with lock:
                counts.append(n)

        pool = [threading.Thread(target=worker) for _ in range(threads)]
        for t in pool:
            t.start()
        todo.join()
        for _ in pool:
            todo.put(None)
        for t in pool:
            t.join()
        count = sum(counts)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    print(f"{wall} {r1.ru_utime - r0.ru_utime} {r1.ru_stime - r0.ru_stime} {count}")


def list_table(results, objects):
    rows = {}
    for line in open(results):
        tool, _run, times = line.split("\t")[:3]  # times: "wall user sys" (timed.sh)
        wall, user, sys_s = (float(x) for x in times.split())
        rows.setdefault(tool, []).append((wall, user + sys_s))
    n = len(next(iter(rows.values())))
    print(f"| tool | objects/s (median of {n}) | CPU s (median) | objects per CPU s | objects/s vs "
          f"boto3 paginator | runs (s) |")
    print("|---|---|---|---|---|---|")
    base = statistics.median(objects / w for w, _ in rows.get("boto3-paginator", rows[tool]))
    for tool, runs in rows.items():
        rate = statistics.median(objects / w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        walls = ", ".join(f"{w:.2f}" for w, _ in runs)
        print(f"| {tool} | {rate:,.0f} | {cpu:.3f} | {objects / cpu:,.0f} | {rate / base:.2f} | "
              f"{walls} |")


if __name__ == "__main__":
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "keys":
        list_keys(*a)
    elif cmd == "boto3":
        boto3_run(a[0], a[1], a[2], int(a[3]))
    elif cmd == "curl":
        curl_run(a[0], a[1], a[2], int(a[3]))
    elif cmd == "table":
        table(a[0], int(a[1]), int(a[2]))
    elif cmd == "list":
        list_run(a[0], a[1], a[2], int(a[3]))
    elif cmd == "list-table":
        list_table(a[0], int(a[1]))
    else:
        sys.exit(f"bench_s3_peers: unknown command {cmd}")

#!/usr/bin/env python3
"""The peer of scripts/bench-s3-checkpoint.sh: boto3's multipart upload of a checkpoint's bytes.

  bench_s3_checkpoint_peer.py upload ENDPOINT BUCKET SOURCE_KEY KEY PART_SIZE THREADS
      reads SOURCE_KEY (a shard dlsize wrote) into memory, then times upload_fileobj of those
      bytes to KEY with TransferConfig(multipart_threshold=multipart_chunksize=PART_SIZE,
      max_concurrency=THREADS), deletes KEY, and prints "wall user sys bytes" of the upload alone
      (getrusage of the process around it: boto3's threads included)
  bench_s3_checkpoint_peer.py table RESULTS
      medians of bandwidth and CPU seconds per GiB per tool, and dlsize's ratios to boto3's
"""
import io
import resource
import statistics
import sys
import time


def s3_client(endpoint):
    import boto3
    from botocore.config import Config
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                        config=Config(max_pool_connections=64, retries={"max_attempts": 1}))


def upload(endpoint, bucket, source_key, key, part_size, threads):
    from boto3.s3.transfer import TransferConfig
    c = s3_client(endpoint)
    data = c.get_object(Bucket=bucket, Key=source_key)["Body"].read()
    cfg = TransferConfig(multipart_threshold=part_size, multipart_chunksize=part_size,
                         max_concurrency=threads, use_threads=True)
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.monotonic()
    c.upload_fileobj(io.BytesIO(data), bucket, key, Config=cfg)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    c.delete_object(Bucket=bucket, Key=key)
    print(f"{wall} {r1.ru_utime - r0.ru_utime} {r1.ru_stime - r0.ru_stime} {len(data)}")


def table(results):
    rows = {}
    for line in open(results):
        tool, _run, wall, cpu, nbytes = line.split()
        rows.setdefault(tool, []).append((float(wall), float(cpu), int(nbytes)))
    med = {}
    n = len(next(iter(rows.values())))
    print(f"{'tool':<14} {'MB/s':>8} {'CPU s/GiB':>10}  (medians of {n})")
    for tool, runs in rows.items():
        bw = statistics.median(b / w / 1e6 for w, _, b in runs)
        cpu = statistics.median(c / (b / 2**30) for _, c, b in runs)
        med[tool] = (bw, cpu)
        print(f"{tool:<14} {bw:8.1f} {cpu:10.3f}")
    for tool in ("dlsize", "dlsize-upload"):
        if {tool, "boto3"} <= med.keys():
            print(f"{tool} CPU/GiB ÷ boto3's: {med[tool][1] / med['boto3'][1]:.3f} (goal ≤ 0.2)")
    if {"dlsize", "boto3"} <= med.keys():
        print(f"dlsize MB/s ÷ boto3's: {med['dlsize'][0] / med['boto3'][0]:.3f} (goal ≥ 0.95)")


if __name__ == "__main__":
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "upload":
        upload(a[0], a[1], a[2], a[3], int(a[4]), int(a[5]))
    elif cmd == "table":
        table(a[0])
    else:
        sys.exit(f"bench_s3_checkpoint_peer: unknown command {cmd}")

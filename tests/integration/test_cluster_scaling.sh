#!/usr/bin/env bash
# Scale-out on the cluster bed (scripts/cluster-bed.sh): 1, 2 and 4 hosts, each behind its own
# 40 Mbit/s data NIC and reading as fast as its NIC lets it, read 1, 2 and 4 times as much per
# second (within 10 %), from a file store (GlusterFS) and from S3 (radosgw), served from a
# storage host whose own NIC is not the limit. The storage side's aggregate follows the hosts'
# NICs, as the seeds' "storage throughput grows linearly with the systems" claims.
# labels: cluster mpi
# cluster-stores: s3 gluster
source "$(dirname "$0")/lib.sh"
require_cluster s3 gluster
bucket=scaling-$$-$RANDOM
bed_bucket "$bucket"
hosts=(h1 h2 h3 h4)
trap 'for h in "${hosts[@]}" st; do bed cap $h none; done; bed exec h1 rm -rf "$DLSIZE_BED_GLUSTER/scaling"; rm -rf "$SCRATCH"' EXIT
for h in "${hosts[@]}" st; do bed cap "$h" none; done
data=(--workload resnet50 --files 12 --records-per-file 36 --quiet)
expect_rc 0 "datagen on GlusterFS" -- bed exec h1 "$DLSIZE" datagen "${data[@]}" --dataset "$DLSIZE_BED_GLUSTER/scaling/ds"
expect_rc 0 "datagen on S3" -- bed exec h1 "$DLSIZE" datagen "${data[@]}" --dataset "s3://$bucket/ds" \
  --s3-endpoint "$DLSIZE_S3_ENDPOINT"
for h in "${hosts[@]}"; do bed cap "$h" 40mbit; done

for store in gluster s3; do
  [[ $store == gluster ]] && where=(--dataset "$DLSIZE_BED_GLUSTER/scaling/ds") \
    || where=(--dataset "s3://$bucket/ds" --s3-endpoint "$DLSIZE_S3_ENDPOINT")
  rates=()
  for n in 1 2 4; do
    list=$(IFS=,; echo "${hosts[*]:0:n}")
    timeout -k 5 90 "$BED_SH" mpiexec -hosts "$list" -np "$n" -ppn 1 "$DLSIZE" bench "${where[@]}" \
      --workload resnet50 --accelerator emulated:h100 --batch-size 16 --compute-time 20ms \
      --epochs 100 --time-limit 3s --readers 2 --nic-bandwidth eth0=40Mb/s --rank-timeout 3s --quiet \
      --out "$SCRATCH/$store-$n.json" >"$SCRATCH/$store-$n.out" 2>&1
    r=$SCRATCH/$store-$n.json
    if [[ $(json "$r" "r['status'] == 'complete' and r['topology']['nodes'] == $n and len(r['hosts']) == $n") == True ]]; then
      rates+=("$(json "$r" "r['summary']['read_bytes_per_s']")")
      pass "$store, $n host(s): $(json "$r" "round(r['summary']['read_bytes_per_s'] / 1e6, 2)") MB/s"
    else
      fail "$store, $n host(s): $(cat "$SCRATCH/$store-$n.out") $(json "$r" "(r['status'], r['topology'])" 2>&1)"
      rates+=(0)
    fi
  done
  for i in 1 2; do
    n=$((1 << i))
    x=$("$PY" -c "print(round(${rates[i]} / max(${rates[0]}, 1), 2))")
    [[ $("$PY" -c "print(abs($x / $n - 1) < 0.10)") == True ]] \
      && pass "$store: $n hosts read $x x what 1 host read (linear: $n)" \
      || fail "$store: $n hosts read $x x what 1 host read; linear is $n"
  done
done
finish

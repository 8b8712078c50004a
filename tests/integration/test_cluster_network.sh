#!/usr/bin/env bash
# Hosts reading one GlusterFS volume over their own capped NICs (scripts/cluster-bed.sh,
# docs/cluster.md): each host's row names its host and its ranks; each host's NIC counters in
# the report show what its data NIC carried, at the rate of its own cap (within 10 %), with the
# declared rate beside the NIC's reported speed; with the hosts at their caps, limited_by names
# the client network, the host and the NIC; behind a capped storage NIC the aggregate follows
# that cap. Asserts only what a host owns (its NIC counters, its ranks, its hostname).
# labels: cluster mpi
# cluster-stores: gluster
source "$(dirname "$0")/lib.sh"
require_cluster gluster
ds=$DLSIZE_BED_GLUSTER/network/ds
trap 'bed heal; for h in $DLSIZE_BED_HOSTS st; do bed cap $h none; done; bed exec h1 rm -rf "$DLSIZE_BED_GLUSTER/network"; rm -rf "$SCRATCH"' EXIT
for h in $DLSIZE_BED_HOSTS st; do bed cap "$h" none; done
expect_rc 0 "datagen by 2 ranks on 2 hosts" -- timeout -k 5 120 "$BED_SH" mpiexec -np 2 -ppn 1 \
  "$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 256MiB --quiet
# bench_on HOSTS NAME OPTION...: one rank per host, an emulated h100 each whose demand (16
# samples of about 110 KB every 20 ms) is far above the caps, reading for a few seconds of one
# epoch (no epoch barrier makes a host wait for the other).
bench_on() {
  local hosts=$1 name=$2 n
  shift 2
  n=$(tr ',' '\n' <<<"$hosts" | wc -l)
  timeout -k 5 90 "$BED_SH" mpiexec -hosts "$hosts" -np "$n" -ppn 1 "$DLSIZE" bench --workload resnet50 \
    --dataset "$ds" --accelerator emulated:h100 --batch-size 16 --compute-time 20ms --epochs 1 \
    --time-limit 4s --readers 2 \
    --rank-timeout 3s --quiet --out "$SCRATCH/$name.json" "$@" >"$SCRATCH/$name.out" 2>&1
  # The report decides, not mpiexec's status: a rank whose MPI_Finalize hangs over TCP leaves
  # after the rank timeout without it, which hydra may count as a failure.
  [[ $(json "$SCRATCH/$name.json" "r['status']" 2>/dev/null) == complete ]]
}

# Two hosts at different caps: h1 at 80 Mbit/s, h2 at 160 Mbit/s.
bed cap h1 80mbit
bed cap h2 160mbit
bench_on h1,h2 caps --nic-bandwidth "h1:eth0=80Mb/s,h2:eth0=160Mb/s"
[[ $? -eq 0 ]] && pass "2 hosts at 80 and 160 Mbit/s: complete" || fail "2 hosts: $(cat "$SCRATCH/caps.out")"
r=$SCRATCH/caps.json
[[ $(json "$r" "sorted((h['host'], h['ranks']) for h in r['hosts']) == [('h1', [0]), ('h2', [1])] and [x['host'] for x in r['ranks']] == ['h1', 'h2']") == True ]] \
  && pass "the host rows name h1 and h2, each with its rank" || fail "host rows: $(json "$r" "[(h['host'], h['ranks']) for h in r['hosts']]")"
# eth0's received bytes over the run at its cap: the tbf counts what the counter counts.
nic() { json "$r" "[n for h in r['hosts'] if h['host'] == '$1' for n in h['nics'] if n['name'] == '$2'][0]['$3']"; }
for hc in h1:80 h2:160; do
  h=${hc%:*} cap=${hc#*:}
  rx=$(nic "$h" eth0 rx_bytes_per_s)
  [[ $("$PY" -c "print(abs($rx * 8 / ($cap * 1e6) - 1) < 0.10)") == True ]] \
    && pass "$h eth0 received at its $cap Mbit/s cap ($(("${rx%.*}" * 8 / 1000000)) Mbit/s)" \
    || fail "$h eth0 received $rx B/s, its cap is $cap Mbit/s"
  [[ $(nic "$h" eth0 declared_bits_per_s) == "${cap}000000.0" && $(nic "$h" eth0 speed_bits_per_s) != None ]] \
    && pass "$h eth0: the declared $cap Mb/s beside the reported speed ($(nic "$h" eth0 speed_bits_per_s))" \
    || fail "$h eth0: declared $(nic "$h" eth0 declared_bits_per_s), speed $(nic "$h" eth0 speed_bits_per_s)"
  [[ $(json "$r" "[h['read_bytes'] for h in r['hosts'] if h['host'] == '$h'][0] <= [n['rx_bytes'] for h in r['hosts'] if h['host'] == '$h' for n in h['nics'] if n['name'] == 'eth0'][0]") == True ]] \
    && pass "$h: its NIC carried every byte its ranks read" || fail "$h: read more than eth0 received"
done
# Per-host read rates follow the per-host caps: h2 reads twice what h1 reads (within 10 %).
ratio=$(json "$r" "round(sorted((h['host'], h['read_bytes_per_s']) for h in r['hosts'])[1][1] / sorted((h['host'], h['read_bytes_per_s']) for h in r['hosts'])[0][1], 3)")
[[ $("$PY" -c "print(abs($ratio / 2 - 1) < 0.10)") == True ]] && pass "h2 read $ratio x what h1 read (caps 2:1)" \
  || fail "h2 read $ratio x what h1 read; the caps are 2:1"
# The hosts sat at their NICs' rates: the client network, named with the host and NIC.
verdict=$(json "$r" "r['summary']['limited_by']['verdict'] + ' | ' + r['summary']['limited_by']['reason']")
[[ $verdict == "client | "*"the client network: h"[12]" eth0 carried "*"% of its "*"0 Mbit/s"* ]] \
  && pass "limited_by names the client network, the host and the NIC: $verdict" \
  || fail "limited_by: $verdict"

# Two hosts uncapped behind a storage NIC of 120 Mbit/s: the aggregate follows that cap.
bed cap h1 none
bed cap h2 none
bed cap st 120mbit
bench_on h1,h2 storage_nic --nic-bandwidth storage:120Mb/s
[[ $? -eq 0 ]] && pass "2 hosts behind a 120 Mbit/s storage NIC: complete" || fail "storage NIC: $(cat "$SCRATCH/storage_nic.out")"
r=$SCRATCH/storage_nic.json
agg=$(json "$r" "sum(n['rx_bytes_per_s'] for h in r['hosts'] for n in h['nics'] if n['name'] == 'eth0')")
[[ $("$PY" -c "print(abs($agg * 8 / 120e6 - 1) < 0.10)") == True ]] \
  && pass "the hosts' eth0 together received at the storage NIC's 120 Mbit/s ($(("${agg%.*}" * 8 / 1000000)) Mbit/s)" \
  || fail "the hosts received $agg B/s together behind a 120 Mbit/s storage NIC"
[[ $(json "$r" "r['storage']['network_bits_per_s'] == 120e6 and any(s['name'] == 'storage_network' and s['side'] == 'storage' for s in r['summary']['limited_by']['signs'])") == True ]] \
  && pass "limited_by has the storage network's sign: $(json "$r" "r['summary']['limited_by']['reason']")" \
  || fail "no storage network sign: $(json "$r" "r['summary']['limited_by']")"
finish

#!/usr/bin/env bash
# labels: faults
# Hostile JSON inputs (issue 12 item 2): nesting 100000 deep, a key given twice, a report whose
# summary is an array, a folder, /dev/zero and pipes, given to bench --config, bench --replay,
# size, compare, validate and export. Each is refused with its own exit code (2; validate 1 for
# a document of the wrong shape) and a message naming the file, never the library's exception
# text, never a crash (exit >= 128) or a hang (each run under a 20 s timeout).
source "$(dirname "$0")/lib.sh"
template="$(dirname "$0")/../../results/quickstart-resnet50-emulated-a100.json"
[[ -f $template ]] || { echo "skip: $template is missing"; exit 77; }
h=$SCRATCH/h
mkdir -p "$h/folder.json"
/usr/bin/python3 - "$template" "$h" <<'PY' || { echo "could not make the inputs"; exit 1; }
import json, sys
t, h = json.load(open(sys.argv[1])), sys.argv[2]
open(f"{h}/deep.json", "w").write("[" * 100000 + "]" * 100000)
open(f"{h}/dup.json", "w").write('{"schema": "dlsize.report/1", "summary": {"samples": 1, "samples": 2}}')
json.dump(t, open(f"{h}/good.json", "w"))
neg = json.loads(json.dumps(t))
neg["summary"]["read_bytes_per_s"] = -5e8
json.dump(neg, open(f"{h}/neg.json", "w"))
# Partial and hostile reports (round three): a required block gone, figures beyond physical
# sense, a number too large for a double.
for key in ("summary", "epochs", "topology", "config", "status"):
    r = json.loads(json.dumps(t)); r.pop(key)
    json.dump(r, open(f"{h}/no-{key}.json", "w"))
huge = json.loads(json.dumps(t))
huge["summary"]["read_bytes_per_s"] = 1e308
json.dump(huge, open(f"{h}/huge.json", "w"))
huge["summary"]["read_bytes_per_s"] = 123456789.125
open(f"{h}/inf.json", "w").write(json.dumps(huge).replace("123456789.125", "1e400"))
open(f"{h}/sizing.json", "w").write('{"schema": "dlsize.sizing/1", "series": []}')
t["summary"] = [1, 2]
json.dump(t, open(f"{h}/arr.json", "w"))
t["config"] = [1]
json.dump(t, open(f"{h}/cfgarr.json", "w"))
PY

# check NAME WANT_RC TEXT -- command...: the exit code, TEXT in the message, no library text,
# no crash, and the time it took.
check() {
  local name=$1 want=$2 text=$3
  shift 4
  local t0 t1
  t0=$(date +%s.%N)
  ERR=$(timeout 20 "$@" 2>&1 >"$SCRATCH/stdout" </dev/null)
  local rc=$?
  t1=$(date +%s.%N)
  OUT=$(cat "$SCRATCH/stdout")
  local secs
  secs=$(/usr/bin/python3 -c "print(f'{$t1 - $t0:.2f}')")
  if [[ $rc -eq $want && "$ERR$OUT" == *"$text"* && "$ERR$OUT" != *json.exception* ]]; then
    pass "$name: exit $rc in $secs s, names '$text'"
  else
    fail "$name: exit $rc (wanted $want) in $secs s; wanted '$text' and no json.exception: $ERR"
  fi
}

for f in deep dup folder; do
  p=$h/$f.json
  check "bench --config $f" 2 "$p" -- "$DLSIZE" bench --config "$p"
  check "bench --replay $f" 2 "$p" -- "$DLSIZE" bench --replay "$p"
  check "validate $f" 2 "$p" -- "$DLSIZE" validate "$p"
done
for f in deep dup; do
  p=$h/$f.json
  check "size $f" 2 "$p" -- "$DLSIZE" size "$p" --out "$SCRATCH/size-$f"
  check "compare $f" 2 "$p" -- "$DLSIZE" compare "$h/good.json" "$p"
  check "export $f" 2 "$p" -- "$DLSIZE" export "$p" --csv -
done
check "deep JSON is refused at the nesting limit" 2 "nested deeper than 64 levels" -- "$DLSIZE" size "$h/deep.json" --out "$SCRATCH/size-deep"
check "a duplicate key is named with its path" 2 "/summary/samples: the key \"samples\" is given twice" -- "$DLSIZE" compare "$h/good.json" "$h/dup.json"
check "size on a folder without reports" 2 "$h/folder.json: no dlsize bench or checkpoint reports" -- "$DLSIZE" size "$h/folder.json" --out "$SCRATCH/size-folder"

# The issue's case: compare on a report whose summary is an array.
check "compare, summary an array" 2 "$h/arr.json: /summary: [1,2] is not of type \"object\"" -- "$DLSIZE" compare "$h/good.json" "$h/arr.json"
check "size, summary an array" 2 "$h/arr.json: /summary: [1,2] is not of type" -- "$DLSIZE" size "$h/good.json" "$h/arr.json" --out "$SCRATCH/size-arr"
check "export, summary an array" 2 "$h/arr.json: /summary: [1,2] is not of type" -- "$DLSIZE" export "$h/arr.json" --csv -
check "validate, summary an array" 1 "/summary" -- "$DLSIZE" validate "$h/arr.json"
check "compare, a negative bandwidth" 2 "$h/neg.json: /summary/read_bytes_per_s: -500000000.0 is below the minimum 0" -- "$DLSIZE" compare "$h/good.json" "$h/neg.json"
check "size, a negative bandwidth" 2 "$h/neg.json: /summary/read_bytes_per_s" -- "$DLSIZE" size "$h/neg.json" --out "$SCRATCH/size-neg"
check "bench --replay, config an array" 2 "$h/cfgarr.json: /config: [1] is not of type \"object\"" -- "$DLSIZE" bench --replay "$h/cfgarr.json"

# Each input is checked against its schema first (round three): a report without one of its
# blocks, a figure beyond physical sense, a file of another dlsize kind, named as such.
for key in summary epochs topology config status; do
  check "size, no $key" 2 "$h/no-$key.json: /: required field '$key' is missing" -- "$DLSIZE" size "$h/no-$key.json" --out "$SCRATCH/size-no"
  check "compare, no $key" 2 "$h/no-$key.json: /: required field '$key' is missing" -- "$DLSIZE" compare "$h/good.json" "$h/no-$key.json"
  check "export, no $key" 2 "$h/no-$key.json: /: required field '$key' is missing" -- "$DLSIZE" export "$h/no-$key.json" --csv -
done
check "bench --replay, no config" 2 "$h/no-config.json: /: required field 'config' is missing" -- "$DLSIZE" bench --replay "$h/no-config.json"
check "size, 1e308 B/s" 2 "$h/huge.json: /summary/read_bytes_per_s: 1e+308 is above the maximum 1e+15" -- "$DLSIZE" size "$h/huge.json" --out "$SCRATCH/size-huge"
check "compare, 1e308 B/s" 2 "$h/huge.json: /summary/read_bytes_per_s: 1e+308 is above the maximum 1e+15" -- "$DLSIZE" compare "$h/good.json" "$h/huge.json"
check "export, 1e308 B/s" 2 "/summary/read_bytes_per_s: 1e+308 is above the maximum" -- "$DLSIZE" export "$h/huge.json" --csv -
check "compare, a figure past a double (1e400)" 2 "$h/inf.json: /summary/read_bytes_per_s" -- "$DLSIZE" compare "$h/good.json" "$h/inf.json"
ckpt="$(dirname "$0")/../unit/data/checkpoint_report.json"
check "bench --replay of a checkpoint report" 2 "this is a dlsize checkpoint report (dlsize.report/1, kind checkpoint), not a bench report" -- "$DLSIZE" bench --replay "$ckpt"
check "compare of a sizing report" 2 "$h/sizing.json: this is a dlsize sizing report" -- "$DLSIZE" compare "$h/good.json" "$h/sizing.json"
check "bench --replay of a sizing report" 2 "$h/sizing.json: this is a dlsize sizing report" -- "$DLSIZE" bench --replay "$h/sizing.json"
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --files 2 --quiet >/dev/null && "$DLSIZE" index "$ds" --out "$h/ix.json" --quiet >/dev/null \
  || fail "could not make an index"
for cmd in "size --out $SCRATCH/size-ix" compare export; do
  args=("$h/ix.json")
  [[ $cmd == compare ]] && args=("$h/good.json" "$h/ix.json")
  [[ $cmd == export ]] && args+=(--csv -)
  # shellcheck disable=SC2086
  check "$cmd of an index" 2 "$h/ix.json: this is a dlsize dataset index" -- "$DLSIZE" $cmd "${args[@]}"
done
check "bench --replay of an index" 2 "$h/ix.json: this is a dlsize dataset index" -- "$DLSIZE" bench --replay "$h/ix.json"
[[ $ERR != *"parse error"* ]] && pass "not a JSON parser's error" || fail "a parser error for an index: $ERR"
cp "$ds/dlsize-dataset.json" "$SCRATCH/manifest.bak"
/usr/bin/python3 - "$ds/dlsize-dataset.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["dataset_id"] = "../../etc/passwd"
json.dump(m, open(sys.argv[1], "w"))
PY
check "a manifest's dataset_id that is a path" 2 "dlsize-dataset.json: dataset_id: \"../../etc/passwd\" is not this dataset's id" -- "$DLSIZE" verify "$ds"
check "the same under bench" 2 "dataset_id: \"../../etc/passwd\"" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --quiet --out "$SCRATCH/b-id.json"
cp "$SCRATCH/manifest.bak" "$ds/dlsize-dataset.json"

for cmd in "bench --config" "bench --replay" validate; do
  # shellcheck disable=SC2086
  check "$cmd /dev/zero" 2 "'/dev/zero' is a character device" -- "$DLSIZE" $cmd /dev/zero
done
check "size /dev/zero" 2 "'/dev/zero' is a character device" -- "$DLSIZE" size /dev/zero --out "$SCRATCH/size-zero"
check "compare /dev/zero" 2 "'/dev/zero' is a character device" -- "$DLSIZE" compare "$h/good.json" /dev/zero

# Pipes: read, with the byte cap of their kind; what they carry is checked as a file's would be.
check "a config pipe past 1 MiB" 2 "over the 1.00 MiB limit for a config" -- "$DLSIZE" bench --config <(head -c 2000000 /dev/zero | tr '\0' ' ')
check "a config pipe with a duplicate key" 2 "/readers: the key \"readers\" is given twice" -- "$DLSIZE" bench --config <(echo '{"readers": 2, "readers": 4}')
check "a report pipe nested too deep" 2 "nested deeper than 64 levels" -- "$DLSIZE" compare "$h/good.json" <(cat "$h/deep.json")
check "a report pipe with the summary an array" 2 "/summary: [1,2] is not of type" -- "$DLSIZE" size <(cat "$h/arr.json") --out "$SCRATCH/size-pipe"
mkfifo "$h/fifo.json"
(head -c 3000000 /dev/zero | tr '\0' ' ' >"$h/fifo.json") 2>/dev/null &
check "a named FIFO past the limit" 2 "$h/fifo.json' is more than that (read from a pipe), over the 1.00 MiB limit" -- "$DLSIZE" bench --config "$h/fifo.json"
wait

# Item 7: a config key given an array, an object or text where one number is expected.
check "a config array for a number" 2 "readers: [1,2] is an array. valid: an integer from 1 to 256" -- "$DLSIZE" bench --config <(echo '{"readers": [1, 2]}')
check "a config object for a number" 2 "readers: {\"a\":1} is an object. valid: an integer from 1 to 256" -- "$DLSIZE" bench --config <(echo '{"readers": {"a": 1}}')
check "config text for a number" 2 "readers: \"many\" is text. valid: an integer" -- "$DLSIZE" bench --config <(echo '{"readers": "many"}')
[[ ! -e $SCRATCH/size-arr.json && ! -e $SCRATCH/size-deep.json ]] && pass "a refused size writes nothing" || fail "a refused size left files"
rm -rf "$h" # the hostile inputs are this test's, not documents dlsize made to validate
finish

# Sourced by the scripts that time dlsize against a peer tool (bench-vs-fio.sh,
# checkpoint-vs-fio.sh). They set $scratch (a work folder) and $results (a TSV file) first.
# timed LABEL RUN OUTFILE command...: runs the command and appends its wall, user and sys seconds
# to $results; a failing command ends the script with its stderr.
timed() {
  local label=$1 run=$2 out=$3
  shift 3
  /usr/bin/time -f "%e %U %S" -o "$scratch/time.txt" "$@" >"$scratch/stdout.txt" 2>"$scratch/err.txt" || {
    echo "$(basename "$0" .sh): $label failed:" >&2; cat "$scratch/err.txt" >&2; exit 1; }
  echo "$label	$run	$(cat "$scratch/time.txt")	$out" >>"$results"
}

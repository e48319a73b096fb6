#!/usr/bin/env bash
# Run the fuzz targets for a bounded time each and report what each found.
#
#   fuzz/run.sh --minutes N [TARGET...]    N minutes per target (default: all six, one after another)
#   fuzz/run.sh --seconds N [TARGET...]    the same in seconds (CI uses this)
#   fuzz/run.sh --parallel ...             run the targets at once instead of one after another
#   fuzz/run.sh --keep-corpus ...          afterwards, minimise fuzz/corpus/TARGET again to the smallest
#                                          set of inputs (stored, seeds, new) that keeps all coverage
#
# Targets: parse_text parse_dict printers migrate log_line fix. Needs atheris and, for fix, LibCST
# and black (pip install '.[fuzz]').
# Each target starts from fuzz/corpus/TARGET (kept small: the inputs that earned coverage) and from
# seeds written by fuzz/make_seeds.py (real texts from tests/data and texts drawn from the grammar),
# with the words of fuzz/TARGET.dict where there is one.
# A crash is written to fuzz/artifacts/ and makes the exit status 1; make it a regression test in
# tests/test_fuzz_regressions.py. Logs go to fuzz/logs/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
parallel=0
keep=0
targets=()
while (($#)); do
    case "$1" in
        --minutes) seconds=$(($2 * 60)); shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --parallel) parallel=1; shift ;;
        --keep-corpus) keep=1; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz/run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
((${#targets[@]})) || targets=(parse_text parse_dict printers migrate log_line fix)
for target in "${targets[@]}"; do
    [[ -f "fuzz/fuzz_$target.py" ]] || { echo "fuzz/run.sh: no fuzz target $target" >&2; exit 2; }
done
python -c "import atheris" 2>/dev/null || { echo "fuzz/run.sh: atheris is not installed: pip install '.[fuzz]'" >&2; exit 2; }
if [[ " ${targets[*]} " == *" fix "* ]]; then
    python -c "import libcst, black" 2>/dev/null || { echo "fuzz/run.sh: fix needs LibCST and black: pip install '.[fuzz]'" >&2; exit 2; }
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p fuzz/artifacts fuzz/logs
echo "== seeds"
python fuzz/make_seeds.py "$work/seeds"

run_one() {
    local target=$1 log="fuzz/logs/$1.log" words=()
    mkdir -p "$work/new/$target" "fuzz/corpus/$target"
    # fuzz/TARGET.dict: words libFuzzer inserts whole (Python's and TVM's, for fix)
    [[ -f "fuzz/$target.dict" ]] && words=(-dict="$target.dict")
    # The first directory gets the inputs libFuzzer finds; the stored corpus is only read.
    (cd fuzz && python "fuzz_$target.py" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=4096 -print_final_stats=1 -artifact_prefix="artifacts/$target-" "${words[@]}" \
        "$work/new/$target" "$work/seeds/$target" "corpus/$target") >"$log" 2>&1
}

summary() {
    local target=$1 status=$2 log="fuzz/logs/$1.log"
    local runs cov ft
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    if ((status == 0)); then
        echo "fuzz_$target: ${runs} runs in ${seconds} s, coverage ${cov} edges, ${ft} features: no findings"
    else
        echo "fuzz_$target: FAILED after ${runs} runs (status $status); the input is in fuzz/artifacts/, the log in $log:"
        grep -v '^#\|^INFO\|^MERGE' "$log" | tail -25
    fi
}

echo "== fuzzing ${targets[*]} for ${seconds} s each"
failed=0
if ((parallel)); then
    declare -A pids
    for target in "${targets[@]}"; do run_one "$target" & pids[$target]=$!; done
    for target in "${targets[@]}"; do
        status=0; wait "${pids[$target]}" || status=$?
        summary "$target" "$status"; ((status == 0)) || failed=1
    done
else
    for target in "${targets[@]}"; do
        status=0; run_one "$target" || status=$?
        summary "$target" "$status"; ((status == 0)) || failed=1
    done
fi
if ((keep && !failed)); then
    echo "== minimising fuzz/corpus"
    for target in "${targets[@]}"; do
        fresh="$work/kept/$target"
        mkdir -p "$fresh"
        (cd fuzz && "./fuzz_$target.py" -merge=1 -max_len=4096 "$fresh" "corpus/$target" "$work/new/$target" \
            "$work/seeds/$target") >"fuzz/logs/$target.merge.log" 2>&1
        rm -rf "fuzz/corpus/$target" && mv "$fresh" "fuzz/corpus/$target"
        echo "fuzz/corpus/$target: $(ls "fuzz/corpus/$target" | wc -l) inputs, $(cat "fuzz/corpus/$target"/* | wc -c) bytes"
    done
fi
exit $failed

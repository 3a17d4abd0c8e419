#!/bin/bash
# OTP 25.2.3's own emulator test suites (erts/emulator/test/*_SUITE.erl) run through common_test's
# ct_run, one suite per VM process, on erl or on beamvm; results compared in a per-suite table.
#
#   tools/otp_ct_suites.sh setup                 copy the suites, their _data dirs and helper
#                                                modules into $OTP_CT_WORK/suites and compile them
#   tools/otp_ct_suites.sh run VM [SUITE...]     run the suites (default: every `run` line of
#                                                tools/otp_ct_suites.txt) with VM (erl, or the path
#                                                of beamvm); one line per suite in
#                                                $OTP_CT_WORK/results/TAG.tsv (TAG = basename of VM)
#   tools/otp_ct_suites.sh both VM_A VM_B [SUITE...]   each suite on VM_A, then on VM_B, then the
#                                                next suite (so a partial run compares like with like)
#   tools/otp_ct_suites.sh recount TAG           recount results/TAG.tsv from the logs
#   tools/otp_ct_suites.sh table [TAG_A TAG_B]   markdown table from two result files (erl beamvm)
#
# Environment: OTP_CT_WORK (work dir, default /tmp/otp-ct; never inside the repository),
#   OTP_SRC (default /work/otp-ext/src/erlang-25.2.3+dfsg, read only), SUITE_LIMIT (wall-clock
#   seconds per suite, default 300; the VM is killed after it and the cases logged so far count).
# Counting: a case is a line of the suite's suite.log that is not init/end_per_suite/group;
# passed = its result is ok. "status" is done (ct printed TEST COMPLETE), limit (killed at
# SUITE_LIMIT) or crash (the VM ended without TEST COMPLETE).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${OTP_CT_WORK:-/tmp/otp-ct}
SRC=${OTP_SRC:-/work/otp-ext/src/erlang-25.2.3+dfsg}
LIMIT=${SUITE_LIMIT:-300}
LIST=$HERE/otp_ct_suites.txt
NO_OPT_FLAGS="+no_copt +no_postopt +no_ssa_opt +no_bsm_opt"
HELPERS="tracer_test long_timers_test ignore_cores dgawd_handler random_iolist erts_test_utils
         erts_test_destructor crypto_reference literal_area_collector_test"

setup() {
    local t=$SRC/erts/emulator/test
    [ -f "$t/process_SUITE.erl" ] || { echo "no OTP source at $SRC" >&2; exit 1; }
    mkdir -p "$WORK/suites"
    for h in $HELPERS; do cp -p "$t/$h.erl" "$WORK/suites/"; done
    # The suites' suite() installs the hook ts_install_cth, part of OTP's test_server
    # installation tool, which binary packages of common_test leave out.
    for h in ts_install_cth.erl ts_lib.erl ts.hrl; do cp -p "$SRC/lib/common_test/test_server/$h" "$WORK/suites/"; done
    grep -v '^#' "$LIST" | while read -r suite what rest; do
        [ "$what" = run ] || continue
        case "$rest" in
            base=*) base=${rest#base=}; base=${base%% *}
                    sed -e "s;-module(${base});-module(${suite});" "$t/$base.erl" > "$WORK/suites/$suite.erl" ;;
            *) cp -p "$t/$suite.erl" "$WORK/suites/"
               [ -d "$t/${suite}_data" ] && { rm -rf "$WORK/suites/${suite}_data"; cp -rp "$t/${suite}_data" "$WORK/suites/"; } ;;
        esac
    done
    # Compiled in place (ct_run -dir/-suite finds the beams beside the sources and does not
    # recompile them), from inside suites/ so stack frames name plain file names as OTP's do.
    cd "$WORK/suites" || exit 1
    for f in *.erl; do
        local flags=""
        case $f in *_no_opt_SUITE.erl) flags=$NO_OPT_FLAGS;; esac
        # shellcheck disable=SC2086
        erlc -W0 $flags "$f" > "$WORK/compile_${f%.erl}.txt" 2>&1 && rm -f "$WORK/compile_${f%.erl}.txt" \
            || echo "$f does not compile (see $WORK/compile_${f%.erl}.txt)"
    done
    echo "$(ls "$WORK"/suites/*_SUITE.beam | wc -l) suites compiled in $WORK/suites"
}

# count_suite LOG: "cases passed" from one suite.log
count_suite() {
    awk '/^=case/ {c=$2; conf = (c ~ /:(init|end)_per_(suite|group)$/)}
         /^=result/ {if (!conf) {n++; if ($2 ~ /^ok:?$/) ok++}}
         END {printf "%d\t%d\n", n, ok}' "$1"
}

run() {
    local vm=$1; shift
    # A path to beamvm (not a command on PATH such as erl) is made absolute: the suites run
    # from their own directory.
    case "$vm" in */*) vm=$(realpath "$vm") ;; esac
    local tag; tag=$(basename "${vm%% *}")
    local suites=("$@")
    [ ${#suites[@]} -gt 0 ] || mapfile -t suites < <(grep -v '^#' "$LIST" | awk '$2 == "run" {print $1}')
    mkdir -p "$WORK/results" "$WORK/logs/$tag"
    local out=$WORK/results/$tag.tsv
    touch "$out"
    for s in "${suites[@]}"; do
        local logdir=$WORK/logs/$tag/$s
        rm -rf "$logdir"; mkdir -p "$logdir"
        local t0; t0=$(date +%s)
        # shellcheck disable=SC2086
        (cd "$logdir" && timeout -k 10 "$LIMIT" $vm -noshell -pa "$WORK/suites" \
            -s ct_run script_start -suite "$WORK/suites/$s" -logdir "$logdir" -s erlang halt \
            > "$logdir/console.txt" 2>&1)
        local rc=$? t1; t1=$(date +%s)
        local status=done
        grep -q 'TEST COMPLETE' "$logdir/console.txt" || status=crash
        [ $rc -eq 124 ] || [ $rc -eq 137 ] && status=limit
        local log; log=$(ls "$logdir"/ct_run.*/*.logs/run.*/suite.log 2>/dev/null | head -1)
        local counts="0	0"
        [ -n "$log" ] && counts=$(count_suite "$log")
        grep -v -P "^\Q$s\E\t" "$out" > "$out.tmp"; mv "$out.tmp" "$out"
        printf '%s\t%s\t%s\t%s\n' "$s" "$counts" "$status" "$((t1 - t0))" | tee -a "$out"
    done
}

# recount TAG: counts of results/TAG.tsv again from the logs (after a change of count_suite)
recount() {
    local out=$WORK/results/$1.tsv
    while IFS=$'\t' read -r s _ _ status secs; do
        local log; log=$(ls "$WORK/logs/$1/$s"/ct_run.*/*.logs/run.*/suite.log 2>/dev/null | head -1)
        local counts="0	0"
        [ -n "$log" ] && counts=$(count_suite "$log")
        printf '%s\t%s\t%s\t%s\n' "$s" "$counts" "$status" "$secs"
    done < "$out" > "$out.tmp" && mv "$out.tmp" "$out"
}

table() {
    local a=$WORK/results/${1:-erl}.tsv b=$WORK/results/${2:-beamvm}.tsv
    echo "| suite | cases | passed on ${1:-erl} | passed on ${2:-beamvm} | ${2:-beamvm} status |"
    echo "|---|---:|---:|---:|---|"
    join -t $'\t' -a 1 -e - -o 0,1.2,1.3,1.4,2.2,2.3,2.4 <(sort "$a") <(sort "$b") |
        awk -F'\t' '{st = ($7 == "done") ? "" : $7; if ($4 != "done") st = st " (" $4 " on erl)";
                     printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $6, st;
                     c += $2; pa += $3; pb += ($6 == "-") ? 0 : $6; n++}
             END {printf "| **total (%d suites)** | **%d** | **%d** | **%d** | |\n", n, c, pa, pb}'
}

case ${1:-} in
    setup) setup ;;
    run) shift; [ $# -ge 1 ] || { echo "usage: $0 run VM [SUITE...]" >&2; exit 2; }; run "$@" ;;
    both) shift; [ $# -ge 2 ] || { echo "usage: $0 both VM_A VM_B [SUITE...]" >&2; exit 2; }
          a=$1 b=$2; shift 2; suites=("$@")
          [ ${#suites[@]} -gt 0 ] || mapfile -t suites < <(grep -v '^#' "$LIST" | awk '$2 == "run" {print $1}')
          for s in "${suites[@]}"; do run "$a" "$s"; run "$b" "$s"; done ;;
    recount) shift; recount "${1:-erl}" ;;
    table) shift; table "$@" ;;
    *) sed -n '2,23p' "$0"; exit 2 ;;
esac

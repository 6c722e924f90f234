#!/usr/bin/env bash
# Runs the same command-line runs with two builds of `oncall-sim` and reports any difference:
# every scenario under every policy with actions, the comparisons, a rollback pressed twice,
# tuned policy parameters, the elastic configuration's check and export, and bad input.
# For refactors that must not change a single number.
#
# Usage: scripts/same-output.sh OLD_BINARY NEW_BINARY
set -uo pipefail

old=$1
new=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cfg="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/sim/tests/data/elastic-config.jsonc"
printf '{"dashboard": {"port": 8080, "list": [1, 2.0, "a", null, true]}, "token": "x", "max_nodes": 9.0}' >"$work/ignored.json"
printf '{"max_nodes": 0}' >"$work/bad.json"

runs=()
for scenario in free-play bad-deploy viral-surge cache-flush; do
    for policy in target-tracking cloud-run elastic hpa kpa; do
        runs+=("run --scenario $scenario --seed 7 --minutes 300 --set autoscaler=$policy --action 5:rollback --action 20:min_instances=15 --action 30:warm_cache --action 40:autoscaling=off --action 50:autoscaling=on")
    done
    runs+=("compare --scenario $scenario --seed 11")
done
runs+=(
    "run --scenario bad-deploy --seed 7 --minutes 40 --action 14:rollback --action 16:rollback"
    "run --scenario viral-surge --seed 3 --minutes 300 --set autoscaler=kpa --set kpa.panic_window_percentage=33.3 --set kpa.stable_window_s=61"
    "run --scenario viral-surge --seed 4 --minutes 300 --set autoscaler=hpa --set hpa.sync_period_s=7 --set hpa.scale_down_stabilization_s=33"
    "run --scenario cache-flush --seed 5 --minutes 180 --set autoscaler=cloud-run --set cloud_run.window_s=7 --set cloud_run.long_window_s=13 --set cloud_run.scale_in_after_s=9"
    "run --scenario free-play --seed 6 --minutes 900 --set autoscaler=elastic --set elastic.max_requests=16 --set elastic.drain_timeout=7.25"
    "run --scenario free-play --seed 1 --minutes 60 --format csv"
    "config check $cfg"
    "config export $cfg"
    "config export $work/ignored.json"
    "config check $work/bad.json"
    "run --scenario nope --seed 1 --minutes 2"
    "run --scenario free-play --seed 1 --minutes 2 --set nope=1"
    "run --scenario free-play --seed 1 --minutes 2 --set cloud_run.act_cpu_low=0.95"
    "run --scenario free-play --seed 1 --minutes 2 --action 1:teleport"
    "compare --scenario free-play --seed 1 --policies hpa,magic"
    "queue --servers 160 --arrival-rate 897.978 --service-time 0.178 --within 2"
    "help"
)

differ=0
for args in "${runs[@]}"; do
    # shellcheck disable=SC2086
    a=$("$old" $args 2>&1; echo "exit $?")
    # shellcheck disable=SC2086
    b=$("$new" $args 2>&1; echo "exit $?")
    if [ "$a" != "$b" ]; then
        echo "differs: oncall-sim $args"
        differ=$((differ + 1))
    fi
done
echo "${#runs[@]} commands, ${differ} with different output"
[ "$differ" -eq 0 ]

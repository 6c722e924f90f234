"""Runs the same M/M/c workload through oncall-sim des, SimPy and Ciw a few times each and
prints customers per second (medians) and the ratios, beside Erlang C's P(wait) and mean wait
for the workload so that the three are seen to simulate the same queue."""

import json
import math
import statistics
import subprocess
import sys
import time

HERE = sys.path[0]


def erlang_c(a, n):
    # Erlang B by its recursion, then C = B / (1 − ρ(1 − B)).
    b = 1.0
    for k in range(1, n + 1):
        b = a * b / (k + a * b)
    rho = a / n
    return b / (1.0 - rho * (1.0 - b))


def run_oncall(binary, servers, rate, service, customers, seed):
    args = [binary, "des", "--servers", str(servers), "--arrival-rate", str(rate),
            "--service-time", str(service), "--customers", str(customers), "--seed", str(seed)]
    started = time.perf_counter()
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - started
    v = json.loads(out)
    return {"engine": "oncall-sim", "customers": customers, "seconds": seconds,
            "customers_per_s": customers / seconds, "mean_wait_s": v["mean_wait_s"],
            "p_wait": v["p_wait"]}


def run_python(script, servers, rate, service, customers, seed):
    out = subprocess.run([sys.executable, f"{HERE}/{script}", str(servers), str(rate),
                          str(service), str(customers), str(seed)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    binary, servers, rate, service, runs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), \
        float(sys.argv[4]), int(sys.argv[5])
    counts = {"oncall-sim": int(sys.argv[6]), "simpy": int(sys.argv[7]), "ciw": int(sys.argv[8])}
    a = rate * service
    c = erlang_c(a, servers)
    wait = c * service / (servers - a)
    print(f"M/M/{servers}, a = {a:g} (λ = {rate:g}/s, S = {service:g} s): "
          f"Erlang C P(wait) = {c:.4f}, mean wait = {wait:.4f} s")
    medians = {}
    for engine in ["oncall-sim", "simpy", "ciw"]:
        results = []
        for seed in range(1, runs + 1):
            if engine == "oncall-sim":
                r = run_oncall(binary, servers, rate, service, counts[engine], seed)
            else:
                r = run_python(f"{engine}_mmc.py", servers, rate, service, counts[engine], seed)
            results.append(r)
            print(f"  {engine:10s} run {seed}: {r['customers']:>10,} customers in "
                  f"{r['seconds']:8.3f} s = {r['customers_per_s']:>12,.0f} /s  "
                  f"(P(wait) {r['p_wait']:.4f}, mean wait {r['mean_wait_s']:.4f} s)")
        medians[engine] = statistics.median(r["customers_per_s"] for r in results)
    print()
    print(f"{'engine':12s} {'customers/s (median of ' + str(runs) + ')':>30s}")
    for engine, m in medians.items():
        print(f"{engine:12s} {m:>30,.0f}")
    print()
    print(f"oncall-sim / SimPy = {medians['oncall-sim'] / medians['simpy']:,.1f}x")
    print(f"oncall-sim / Ciw   = {medians['oncall-sim'] / medians['ciw']:,.1f}x")
    ok = medians["oncall-sim"] >= 100.0 * medians["simpy"]
    print(f"target >= 100x SimPy: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Least request as Envoy draws it, simulated apart from the engine: Poisson arrivals,
exponential services, N single-worker FIFO instances; each request draws `d` instances
uniformly WITH replacement and joins the one holding the fewest requests (the one in service
counted), a tie going to the first drawn. Prints the mean time in the system.

usage: least-request-reference.py N LOAD CUSTOMERS [SEED] [D]
"""
import collections
import random
import sys


def run(n, load, customers, seed=1, d=2):
    rng = random.Random(seed)
    rate = load * n  # service time 1
    # Each instance's departure times, in order (FIFO, one worker).
    departures = [collections.deque() for _ in range(n)]
    t = 0.0
    warmup = customers // 10
    total = 0.0
    counted = 0
    for k in range(customers + warmup):
        t += rng.expovariate(rate)
        best, best_held = None, None
        for _ in range(d):
            i = rng.randrange(n)
            q = departures[i]
            while q and q[0] <= t:
                q.popleft()
            if best is None or len(q) < best_held:
                best, best_held = i, len(q)
        q = departures[best]
        start = q[-1] if q else t
        end = max(start, t) + rng.expovariate(1.0)
        q.append(end)
        if k >= warmup:
            total += end - t
            counted += 1
    return total / counted


if __name__ == "__main__":
    n, load, customers = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    d = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    print(f"{run(n, load, customers, seed, d):.4f}")

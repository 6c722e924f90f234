"""M/M/c in SimPy: Poisson arrivals at rate LAMBDA, exponential service of mean S, c workers in
one FIFO queue. Prints one JSON object: customers, wall-clock seconds, customers per second,
and the mean wait and P(wait) (to check it is the same workload as the others)."""

import json
import random
import sys
import time

import simpy


def run(servers, arrival_rate, service_s, customers, seed):
    rng = random.Random(seed)
    env = simpy.Environment()
    workers = simpy.Resource(env, capacity=servers)
    stats = {"waited": 0, "wait_sum": 0.0, "done": 0}

    def customer(env):
        arrived = env.now
        with workers.request() as slot:
            yield slot
            wait = env.now - arrived
            stats["wait_sum"] += wait
            if wait > 0.0:
                stats["waited"] += 1
            yield env.timeout(rng.expovariate(1.0 / service_s))
        stats["done"] += 1

    def source(env):
        for _ in range(customers):
            yield env.timeout(rng.expovariate(arrival_rate))
            env.process(customer(env))

    env.process(source(env))
    started = time.perf_counter()
    env.run()
    seconds = time.perf_counter() - started
    return {
        "engine": "simpy",
        "customers": stats["done"],
        "seconds": seconds,
        "customers_per_s": stats["done"] / seconds,
        "mean_wait_s": stats["wait_sum"] / stats["done"],
        "p_wait": stats["waited"] / stats["done"],
    }


if __name__ == "__main__":
    servers, rate, service, customers, seed = sys.argv[1:6]
    print(json.dumps(run(int(servers), float(rate), float(service), int(customers), int(seed))))

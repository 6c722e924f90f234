"""M/M/c in Ciw: one node, Poisson arrivals at rate LAMBDA, exponential service of mean S,
c servers. Prints one JSON object like simpy_mmc.py."""

import json
import sys
import time

import ciw


def run(servers, arrival_rate, service_s, customers, seed):
    network = ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(rate=arrival_rate)],
        service_distributions=[ciw.dists.Exponential(rate=1.0 / service_s)],
        number_of_servers=[servers],
    )
    ciw.seed(seed)
    sim = ciw.Simulation(network)
    started = time.perf_counter()
    sim.simulate_until_max_customers(customers, method="Finish")
    seconds = time.perf_counter() - started
    records = sim.get_all_records()
    waits = [r.waiting_time for r in records]
    done = len(records)
    return {
        "engine": "ciw",
        "customers": done,
        "seconds": seconds,
        "customers_per_s": done / seconds,
        "mean_wait_s": sum(waits) / done,
        "p_wait": sum(1 for w in waits if w > 0.0) / done,
    }


if __name__ == "__main__":
    servers, rate, service, customers, seed = sys.argv[1:6]
    print(json.dumps(run(int(servers), float(rate), float(service), int(customers), int(seed))))

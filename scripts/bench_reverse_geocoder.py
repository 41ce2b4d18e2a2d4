#!/usr/bin/env python3
"""reverse_geocoder's side of the gazetteer benchmark (run by scripts/bench.py).

Usage: bench_reverse_geocoder.py POINTS_FILE
POINTS_FILE holds little-endian float64 (latitude, longitude) pairs. Prints one JSON object:
load time (building its k-d tree over GeoNames cities1000), single-core query time and
throughput on all points, and peak memory.

reverse_geocoder (PyPI) is a C k-d tree (SciPy's cKDTree) under Python; mode=1 is its
single-threaded mode. It queries in plain latitude/longitude degrees, so its answers are not
exact on the sphere; only its speed is compared here.
"""
import json
import resource
import sys
import time

import numpy as np
import reverse_geocoder


def main():
    points = np.fromfile(sys.argv[1], dtype="<f8").reshape(-1, 2)
    start = time.perf_counter()
    geocoder = reverse_geocoder.RGeocoder(mode=1, verbose=False)
    load = time.perf_counter() - start
    start = time.perf_counter()
    _, indices = geocoder.tree.query(points, k=1)  # the k-d tree lookup itself
    tree_seconds = time.perf_counter() - start
    start = time.perf_counter()
    geocoder.query([tuple(p) for p in points[:200_000]])  # its public call, with result records
    query_seconds = time.perf_counter() - start
    print(json.dumps({
        "loadSeconds": load,
        "points": len(points),
        "treeSeconds": tree_seconds,
        "treePerSecond": len(points) / tree_seconds,
        "queryPerSecond": 200_000 / query_seconds,
        "peakMegabytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "checksum": int(indices.sum() % 1_000_000),
    }))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""reverse_geocoder's side of the end-to-end `where` benchmark (run by scripts/bench.py).

Usage: where_reverse_geocoder.py POINTS_TXT OUT_JSONL [MODE]
Does the job `geotrip where < POINTS_TXT > OUT_JSONL` does, with the PyPI package
reverse_geocoder: reads one LAT,LON a line, looks every coordinate up with
`RGeocoder(mode=MODE).query` (mode 1, the default here, is its single-process mode; mode 2,
its own default, queries on every core), and writes one JSON object a
line (`json.dumps`, UTF-8 kept), in input order; a line that is not a coordinate gets an object
with its line number, the line and the error, as geotrip's does. Prints one JSON object with
its load time (building the k-d tree), so bench.py can say how much of the run that was.
"""
import json
import sys
import time

import reverse_geocoder


def main():
    source, target = sys.argv[1], sys.argv[2]
    mode = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    start = time.perf_counter()
    geocoder = reverse_geocoder.RGeocoder(mode=mode, verbose=False)
    load = time.perf_counter() - start
    points, errors = [], {}
    with open(source, encoding="utf-8", errors="replace", newline="\n") as lines:
        for number, line in enumerate(lines, 1):
            text = line.rstrip("\r\n")
            try:
                latitude, longitude = (float(part) for part in text.split(","))
                if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
                    raise ValueError(f"{text!r} is out of range")
                points.append((latitude, longitude))
            except ValueError as error:
                errors[number] = {"line": number, "input": text, "error": str(error)}
    answers = iter(geocoder.query(points))
    with open(target, "w", encoding="utf-8") as out:
        for number in range(1, len(points) + len(errors) + 1):
            out.write(json.dumps(errors.get(number) or next(answers), ensure_ascii=False) + "\n")
    print(json.dumps({"loadSeconds": load, "seconds": time.perf_counter() - start}))


if __name__ == "__main__":
    main()

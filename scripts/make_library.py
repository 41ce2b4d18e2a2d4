#!/usr/bin/env python3
"""A realistic photo library for `make bench` (issue 15): years of trips, never committed.

Usage: make_library.py FOLDER [--photos N] [--seed S]     (scripts/bench.py --library calls it)

Every photo is a tiny JPEG (16x12 pixels, about 1 KB) whose EXIF exiftool wrote once, into a
template; each file is the template with its capture time, offset and GPS values patched in
place, so a million files take a minute or two to write and exiftool reads every one as
written (the bench checks a sample). The library:

* home: a city where most days are spent, with a few photos on many ordinary days;
* trips: 3 to 16 days each, 4 to 9 a year over ten years (2016-2025), each in a region with
  its own time zone (Lisbon, Kyoto, New York, Cape Town, ...), a few places a day, photos
  seconds to minutes apart, each with a distinct capture time and position;
* without GPS: about 1 in 700 photos (a camera without a receiver), from a second template;
* videos timed by their movie header alone: about 1 in 2,000 files, a compact camera's (its
  wall clock) and a phone's (UTC and its position) in turn;
* Live Photos: 1 in 20 photos with GPS has its moving part beside it (`IMG_NNNNNNN.MOV`, an
  iPhone's, with Apple's creation date a second before the still and a content identifier of
  its own), as a phone's library has; a day added has them too.

Folders are `YYYY/YYYY-MM-DD Region/` for trips and `YYYY/home/` for home days; names are
`IMG_NNNNNNN.JPG`. The same seed and count give the same library (the files' times differ).
"""
import argparse
import datetime
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zoneinfo
from pathlib import Path

# (name, latitude, longitude, IANA zone): trip regions, and home (the first).
REGIONS = [
    ("Home", 52.3702, 4.8952, "Europe/Amsterdam"),
    ("Lisboa", 38.7223, -9.1393, "Europe/Lisbon"),
    ("Kyoto", 35.0116, 135.7681, "Asia/Tokyo"),
    ("New York", 40.7128, -74.0060, "America/New_York"),
    ("Cape Town", -33.9249, 18.4241, "Africa/Johannesburg"),
    ("Sydney", -33.8688, 151.2093, "Australia/Sydney"),
    ("Reykjavik", 64.1466, -21.9426, "Atlantic/Reykjavik"),
    ("Mexico City", 19.4326, -99.1332, "America/Mexico_City"),
    ("Bangkok", 13.7563, 100.5018, "Asia/Bangkok"),
    ("Istanbul", 41.0082, 28.9784, "Europe/Istanbul"),
    ("Vancouver", 49.2827, -123.1207, "America/Vancouver"),
    ("Marrakesh", 31.6295, -7.9811, "Africa/Casablanca"),
    ("Delhi", 28.6139, 77.2090, "Asia/Kolkata"),
    ("Buenos Aires", -34.6037, -58.3816, "America/Argentina/Buenos_Aires"),
    ("Rome", 41.9028, 12.4964, "Europe/Rome"),
    ("Auckland", -36.8485, 174.7633, "Pacific/Auckland"),
]
NO_GPS_ONE_IN = 700
# Videos timed by their movie header alone (`mvhd`): about 1 in 2,000 files, in turn a compact
# camera's (its wall clock in mvhd, no position) and a phone's (UTC, with its position). Their
# templates are the test suite's video fixtures (made by scripts/make-video-fixtures.sh).
VIDEO_ONE_IN = 2000
VIDEO_FIXTURES = Path(__file__).resolve().parent.parent / "Tests" / "GeoTripCoreTests" / "Fixtures" / "videos"
# Live Photos: 1 in 20 photos with GPS (the test suite's iPhone fixture as the template).
LIVE_ONE_IN = 20
# The library's shape: bump when the generator writes other files, so bench.py makes it again.
VERSION = "3"


def make_templates(folder):
    """Two JPEGs with EXIF written by exiftool: one with GPS, one without."""
    from PIL import Image  # only the templates need it
    with_gps, without = folder / "gps.jpg", folder / "plain.jpg"
    Image.new("RGB", (16, 12), (120, 140, 160)).save(with_gps, quality=80)
    shutil.copyfile(with_gps, without)
    common = ["-q", "-overwrite_original", "-Make=geotrip", "-Model=LibraryBench",
              "-DateTimeOriginal=2011:11:11 11:11:11", "-OffsetTimeOriginal=+11:11"]
    subprocess.run(["exiftool", *common, "-GPSLatitude=11.1111", "-GPSLatitudeRef=N",
                    "-GPSLongitude=22.2222", "-GPSLongitudeRef=E", str(with_gps)], check=True)
    subprocess.run(["exiftool", *common, str(without)], check=True)
    return with_gps.read_bytes(), without.read_bytes()


class Template:
    """Where a template's patchable values are: the time and offset strings, and (with GPS)
    the latitude and longitude references and rationals, found by walking its TIFF IFDs."""

    def __init__(self, data):
        self.data = data
        self.time = data.index(b"2011:11:11 11:11:11")
        self.offset = data.index(b"+11:11")
        self.gps = None
        tiff = data.index(b"Exif\0\0") + 6
        order = "<" if data[tiff:tiff + 2] == b"II" else ">"
        u16 = lambda at: struct.unpack_from(order + "H", data, tiff + at)[0]
        u32 = lambda at: struct.unpack_from(order + "I", data, tiff + at)[0]
        ifd0 = u32(4)
        for entry in range(u16(ifd0)):
            at = ifd0 + 2 + 12 * entry
            if u16(at) == 0x8825:
                gps = u32(at + 8)
                fields = {}
                for g in range(u16(gps)):
                    e = gps + 2 + 12 * g
                    fields[u16(e)] = e
                self.order = order
                self.gps = {
                    "latRef": tiff + fields[1] + 8, "lat": tiff + u32(fields[2] + 8),
                    "lonRef": tiff + fields[3] + 8, "lon": tiff + u32(fields[4] + 8),
                }

    def photo(self, local, offset_minutes, latitude=None, longitude=None):
        data = bytearray(self.data)
        data[self.time:self.time + 19] = local.strftime("%Y:%m:%d %H:%M:%S").encode()
        sign = "+" if offset_minutes >= 0 else "-"
        data[self.offset:self.offset + 6] = f"{sign}{abs(offset_minutes) // 60:02d}:{abs(offset_minutes) % 60:02d}".encode()
        if self.gps and latitude is not None:
            for key, value, refs in (("lat", latitude, b"NS"), ("lon", longitude, b"EW")):
                data[self.gps[key + "Ref"]] = refs[0] if value >= 0 else refs[1]
                value = abs(value)
                degrees = int(value)
                minutes = int((value - degrees) * 60)
                seconds = round(((value - degrees) * 60 - minutes) * 60 * 10000)
                struct.pack_into(self.order + "IIIIII", data, self.gps[key], degrees, 1, minutes, 1, seconds, 10000)
        return bytes(data)


class VideoTemplate:
    """An MP4 whose mvhd creation time (seconds since 1904, UTC by the specification) and, for
    a phone's, the position string of its `©xyz` box are patched in place."""
    EPOCH = datetime.datetime(1904, 1, 1)

    def __init__(self, data):
        self.data = data
        self.mvhd = data.index(b"mvhd")
        self.xyz = data.find(b"+38.6979-009.2067/")

    def video(self, created, latitude=None, longitude=None):
        data = bytearray(self.data)
        # Version 0: creation time 4 bytes after the version and flags.
        struct.pack_into(">I", data, self.mvhd + 8, int((created - self.EPOCH).total_seconds()))
        if self.xyz >= 0 and latitude is not None:
            data[self.xyz:self.xyz + 18] = f"{latitude:+08.4f}{longitude:+09.4f}/".encode()
        return bytes(data)


class LiveTemplate:
    """An iPhone's Live Photo video whose mvhd time (UTC), Apple creation date (the wall clock
    with its offset), content identifier and position string are patched in place."""
    EPOCH = datetime.datetime(1904, 1, 1)

    def __init__(self, data):
        self.data = data
        self.mvhd = data.index(b"mvhd")
        self.created = data.index(b"2025-06-13T13:45:30+0200")
        self.identifier = data.index(b"1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9")
        self.xyz = data.index(b"+40.415179-003.684831")

    def video(self, local, offset_minutes, latitude, longitude, rng):
        data = bytearray(self.data)
        local = local - datetime.timedelta(seconds=1)  # the clip starts before the still
        utc = local - datetime.timedelta(minutes=offset_minutes)
        struct.pack_into(">I", data, self.mvhd + 8, int((utc - self.EPOCH).total_seconds()))
        sign = "+" if offset_minutes >= 0 else "-"
        data[self.created:self.created + 24] = (local.strftime("%Y-%m-%dT%H:%M:%S")
                                                + f"{sign}{abs(offset_minutes) // 60:02d}{abs(offset_minutes) % 60:02d}").encode()
        data[self.identifier:self.identifier + 36] = "{:08X}-{:04X}-4{:03X}-{:04X}-{:012X}".format(
            rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12), 0x8000 | rng.getrandbits(14), rng.getrandbits(48)).encode()
        data[self.xyz:self.xyz + 21] = f"{latitude:+010.6f}{longitude:+011.6f}".encode()
        return bytes(data)


def offset_minutes(zone, local):
    return int(local.replace(tzinfo=zoneinfo.ZoneInfo(zone)).utcoffset().total_seconds() // 60)


def plan(photos, rng):
    """(folder, local time, zone, latitude, longitude) for every photo, in time order."""
    trips_share = 0.85
    days = [datetime.date(2016, 1, 1) + datetime.timedelta(d) for d in range(3653)]
    trips = []
    day = 0
    while True:
        day += rng.randint(20, 70)
        length = rng.randint(3, 16)
        if day + length >= len(days):
            break
        trips.append((day, day + length, rng.choice(REGIONS[1:])))
        day += length
    trip_days = sum(end - start for start, end, _ in trips)
    per_trip_day = max(1, round(photos * trips_share / trip_days))
    in_trip = set()
    for start, end, _ in trips:
        in_trip.update(range(start, end))
    home_days = [d for d in range(len(days)) if d not in in_trip and rng.random() < 0.5]
    per_home_day = max(1, round(photos * (1 - trips_share) / max(1, len(home_days))))
    stops = []
    for start, end, (name, lat, lon, zone) in trips:
        folder = f"{days[start]:%Y}/{days[start]:%Y-%m-%d} {name}"
        places = [(lat + rng.uniform(-0.3, 0.3), lon + rng.uniform(-0.3, 0.3)) for _ in range(rng.randint(4, 12))]
        for d in range(start, end):
            stops.append((d, folder, zone, [rng.choice(places) for _ in range(rng.randint(2, 5))], per_trip_day))
    name, lat, lon, zone = REGIONS[0]
    home_places = [(lat + rng.uniform(-0.05, 0.05), lon + rng.uniform(-0.05, 0.05)) for _ in range(30)]
    for d in home_days:
        stops.append((d, f"{days[d]:%Y}/home", zone, [rng.choice(home_places)], per_home_day))
    stops.sort()
    shots = []
    for d, folder, zone, places, count in stops:
        moment = datetime.datetime.combine(days[d], datetime.time(8, 0)) + datetime.timedelta(minutes=rng.randint(0, 90))
        per_place = max(1, count // len(places))
        # Photos closer together on busier days, so a day's photos end before the next day's
        # begin: at a million photos a trip day has 1,200, and four minutes apart at most ran
        # them into the following days, interleaving places into visits of two photos.
        # (240 s at 200,000 photos, as before.)
        apart = min(240, max(10, 60_000 // count))
        for lat, lon in places:
            for _ in range(per_place):
                moment += datetime.timedelta(seconds=rng.randint(5, apart))
                shots.append((folder, moment, zone, lat + rng.gauss(0, 0.0007), lon + rng.gauss(0, 0.0007)))
                if len(shots) == photos:
                    return shots
            moment += datetime.timedelta(minutes=rng.randint(30, 120))
    while len(shots) < photos:  # the plan fell a little short: more at home, later on
        folder, moment, zone, lat, lon = shots[-1]
        shots.append((folder, moment + datetime.timedelta(seconds=rng.randint(5, 240)), zone, lat, lon))
    return shots


def write_library(folder, photos, seed=2026):
    folder = Path(folder)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as scratch:
        with_gps, without = (Template(t) for t in make_templates(Path(scratch)))
    camera = VideoTemplate((VIDEO_FIXTURES / "video-camera-local.mp4").read_bytes())
    phone = VideoTemplate((VIDEO_FIXTURES / "video-android.mp4").read_bytes())
    live = LiveTemplate((VIDEO_FIXTURES / "video-iphone.mov").read_bytes())
    live_rng = random.Random(seed + 1)  # its own, so the photos are as they were
    shots = plan(photos, rng)
    made = set()
    for number, (sub, local, zone, lat, lon) in enumerate(shots):
        target = folder / sub
        if sub not in made:
            target.mkdir(parents=True, exist_ok=True)
            made.add(sub)
        minutes = offset_minutes(zone, local)
        if number % VIDEO_ONE_IN == VIDEO_ONE_IN // 2:
            if (number // VIDEO_ONE_IN) % 2 == 0:
                (target / f"MVI_{number:07d}.MP4").write_bytes(camera.video(local))
            else:
                utc = local - datetime.timedelta(minutes=minutes)
                (target / f"PXL_{number:07d}.mp4").write_bytes(phone.video(utc, lat, lon))
            continue
        if number % NO_GPS_ONE_IN == NO_GPS_ONE_IN - 1:
            data = without.photo(local, minutes)
        else:
            data = with_gps.photo(local, minutes, lat, lon)
            if number % LIVE_ONE_IN == LIVE_ONE_IN // 3:
                (target / f"IMG_{number:07d}.MOV").write_bytes(live.video(local, minutes, lat, lon, live_rng))
        (target / f"IMG_{number:07d}.JPG").write_bytes(data)
    return shots


def add_day(folder, count, seed=7, round=0):
    """`count` photos of one new day after the library's last (a new trip's first day).
    Each `round` is another day, a month later, in another region, with other photos: a day
    added again after it was taken away would find its rows, visits and names kept, which is
    not what adding a new day costs."""
    rng = random.Random(seed + round)
    with tempfile.TemporaryDirectory() as scratch:
        with_gps = Template(make_templates(Path(scratch))[0])
    live = LiveTemplate((VIDEO_FIXTURES / "video-iphone.mov").read_bytes())
    name, lat, lon, zone = REGIONS[2 + round % (len(REGIONS) - 2)]
    day = datetime.date(2026, 3, 14) + datetime.timedelta(days=30 * round)
    target = Path(folder) / "2026" / f"{day.isoformat()} {name}"
    target.mkdir(parents=True, exist_ok=True)
    moment = datetime.datetime(day.year, day.month, day.day, 9, 0)
    for index in range(count):
        moment += datetime.timedelta(seconds=rng.randint(5, 120))
        latitude, longitude = lat + rng.gauss(0, 0.01), lon + rng.gauss(0, 0.01)
        data = with_gps.photo(moment, offset_minutes(zone, moment), latitude, longitude)
        (target / f"NEW_{index:05d}.JPG").write_bytes(data)
        if index % LIVE_ONE_IN == LIVE_ONE_IN // 3:
            (target / f"NEW_{index:05d}.MOV").write_bytes(live.video(moment, offset_minutes(zone, moment), latitude, longitude, rng))
    return target


def edit_photos(folder, count, seed=11):
    """Moves `count` photos' capture times by an hour (a clock fixed in another tool), chosen
    at random over the whole library: a few days of nearly every trip."""
    rng = random.Random(seed)
    files = sorted(Path(folder).glob("*/*/IMG_*.JPG"))
    return move_times(rng.sample(files, min(count, len(files))), datetime.timedelta(hours=1))


def resave_photos(folder, count, seed=13):
    """Writes a rating into `count` photos chosen at random over the whole library, with
    exiftool, as a photo manager does: each file is rewritten (another size and time), its
    capture time, position and pixels as they were."""
    rng = random.Random(seed)
    files = sorted(Path(folder).glob("*/*/IMG_*.JPG"))
    chosen = rng.sample(files, min(count, len(files)))
    with tempfile.NamedTemporaryFile("w", suffix=".args") as arguments:
        arguments.write("".join(f"{path}\n" for path in chosen))
        arguments.flush()
        subprocess.run(["exiftool", "-q", "-overwrite_original", f"-Rating={rng.randint(1, 5)}", "-@", arguments.name], check=True)
    return chosen


def edit_trip_photos(folder, count, seed=11):
    """Moves `count` photos taken one after another on one trip by 20 minutes: a camera's
    clock put right for the part of a trip it was wrong. Returns the trip's folder."""
    rng = random.Random(seed)
    # The trips' folders (`YYYY/YYYY-MM-DD Place`), not home's or geotrip's output; one with
    # at least `count` photos when there is one.
    trips = sorted(p for p in Path(folder).glob("[0-9][0-9][0-9][0-9]/*") if p.is_dir() and p.name != "home")
    large = [trip for trip in trips if len(list(trip.glob("IMG_*.JPG"))) >= count]
    trip = rng.choice(large or trips)
    files = sorted(trip.glob("IMG_*.JPG"))
    start = rng.randrange(max(1, len(files) - count))
    move_times(files[start:start + count], datetime.timedelta(minutes=20))
    return trip


def move_times(chosen, by):
    """Moves the capture time of each photo in `chosen` by `by`, in place."""
    for path in chosen:
        data = bytearray(path.read_bytes())
        found = re.search(rb"\d{4}:\d\d:\d\d \d\d:\d\d:\d\d", data)
        at = found.start()
        text = found.group().decode()
        moved = datetime.datetime.strptime(text, "%Y:%m:%d %H:%M:%S") + by
        data[at:at + 19] = moved.strftime("%Y:%m:%d %H:%M:%S").encode()
        path.write_bytes(bytes(data))
    return chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--photos", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.folder.exists() and any(args.folder.iterdir()):
        sys.exit(f"{args.folder} is not empty")
    shots = write_library(args.folder, args.photos, args.seed)
    print(f"{len(shots):,} photos in {len({s[0] for s in shots}):,} folders under {args.folder}")


if __name__ == "__main__":
    main()

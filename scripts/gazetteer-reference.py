#!/usr/bin/env python3
"""A small, independent reader of gazetteer.bin (format: scripts/gazetteer-format.md).

It shares no code with make-gazetteer.py and needs only the standard library, so the Swift
tests' expectations can be checked by hand against it:

    python3 scripts/gazetteer-reference.py info
    python3 scripts/gazetteer-reference.py nearest 35.0116 135.7681
    python3 scripts/gazetteer-reference.py search "München"
    python3 scripts/gazetteer-reference.py --file PATH ...

`info` checks the header (magic, fileLength, CRC-32) and prints the counts. `nearest` finds the
nearest place by brute force over every record (smallest chord between unit vectors, which is
the same as the smallest great-circle distance) and prints the great-circle distance on a sphere
of radius 6371.0088 km (the IUGG mean radius). `search` folds the query and lists every place
with exactly that key, largest population first.
"""
import argparse
import math
import struct
import sys
import unicodedata
import zlib
from pathlib import Path

DEFAULT = Path(__file__).resolve().parent.parent / "Sources" / "GeoTripCore" / "Resources" / "gazetteer.bin"
EARTH_RADIUS_KM = 6371.0088
SPECIAL = dict(zip("łŁøØđĐðÐæÆœŒßı", ["l", "l", "o", "o", "d", "d", "d", "d",
                                       "ae", "ae", "oe", "oe", "ss", "i"]))
SPECIAL.update({"þ": "th", "Þ": "th"})


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text)
    out = []
    for ch in decomposed:
        if unicodedata.category(ch) in ("Mn", "Cf"):
            continue
        out.append(" " if unicodedata.category(ch) == "Pd" else SPECIAL.get(ch, ch))
    return " ".join("".join(out).lower().split())


class Gazetteer:
    def __init__(self, path):
        self.data = data = Path(path).read_bytes()
        if len(data) < 64 or data[:8] != b"GTGAZ\x00\x00\x01":
            raise SystemExit("bad magic")
        (self.n_places, self.n_countries, self.n_admin1, self.n_zones, self.o_places,
         self.o_countries, self.o_admin1, self.o_zones, self.o_strings, self.l_strings,
         self.o_keys, self.l_keys, self.file_length, self.crc) = struct.unpack_from("<14I", data, 8)
        if self.file_length != len(data):
            raise SystemExit(f"fileLength {self.file_length} but the file has {len(data)} bytes")
        if zlib.crc32(data[64:]) != self.crc:
            raise SystemExit("CRC-32 mismatch")

    def string(self, off, length):
        start = self.o_strings + off
        return self.data[start:start + length].decode("utf-8")

    def place(self, i):
        lat, lon, pop, noff, nlen, a1, zone, country, axis = struct.unpack_from(
            "<iiIIHHHBB", self.data, self.o_places + 24 * i)
        return {"index": i, "lat": lat / 1e5, "lon": lon / 1e5, "population": pop,
                "name": self.string(noff, nlen), "admin1": self.admin1(a1),
                "zone": self.zone(zone), "country": self.country(country), "axis": axis}

    def country(self, i):
        if i == 0xFF:
            return None
        code, length, off = struct.unpack_from("<2sHI", self.data, self.o_countries + 8 * i)
        return code.decode("ascii"), self.string(off, length)

    def admin1(self, i):
        if i == 0xFFFF:
            return None
        off, length, _country, _zero = struct.unpack_from("<IHBB", self.data, self.o_admin1 + 8 * i)
        return self.string(off, length)

    def zone(self, i):
        if i == 0xFFFF:
            return None
        off, length, _zero = struct.unpack_from("<IHH", self.data, self.o_zones + 8 * i)
        return self.string(off, length)

    def nearest(self, lat, lon):
        qx, qy, qz = unit(lat, lon)
        best, best_i = float("inf"), -1
        for i, (la, lo) in enumerate(struct.iter_unpack("<ii16x", self.data[self.o_places:self.o_places + 24 * self.n_places])):
            x, y, z = unit(la / 1e5, lo / 1e5)
            d = (x - qx) ** 2 + (y - qy) ** 2 + (z - qz) ** 2
            if d < best:
                best, best_i = d, i
        p = self.place(best_i)
        p["km"] = great_circle_km(lat, lon, p["lat"], p["lon"])
        return p

    def search(self, text):
        key = fold(text).encode("utf-8")
        hits, pos, end = [], self.o_keys, self.o_keys + self.l_keys
        while pos < end:
            index, n = struct.unpack_from("<IB", self.data, pos)
            if self.data[pos + 5:pos + 5 + n] == key and (not hits or hits[-1] != index):
                hits.append(index)
            pos += 5 + n
        return sorted((self.place(i) for i in hits), key=lambda p: (-p["population"], p["index"]))


def unit(lat, lon):
    la, lo = math.radians(lat), math.radians(lon)
    return math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la)


def great_circle_km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def describe(p):
    country = f"{p['country'][1]} ({p['country'][0]})" if p["country"] else "-"
    text = (f"#{p['index']} {p['name']} | admin1: {p['admin1'] or '-'} | {country} | "
            f"zone: {p['zone'] or '-'} | pop {p['population']} | {p['lat']:.5f}, {p['lon']:.5f}")
    if "km" in p:
        text += f" | {p['km']:.2f} km"
    return text


def main():
    ap = argparse.ArgumentParser(description="independent reader of gazetteer.bin")
    ap.add_argument("--file", default=DEFAULT)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("info")
    n = sub.add_parser("nearest")
    n.add_argument("lat", type=float)
    n.add_argument("lon", type=float)
    s = sub.add_parser("search")
    s.add_argument("text")
    args = ap.parse_args()

    g = Gazetteer(args.file)
    if args.cmd == "info":
        print(f"OK: magic, fileLength {g.file_length}, CRC-32 {g.crc:08x}")
        print(f"places {g.n_places}, countries {g.n_countries}, admin1 {g.n_admin1}, zones {g.n_zones}")
        print(f"strings {g.l_strings} bytes, keys {g.l_keys} bytes")
    elif args.cmd == "nearest":
        print(describe(g.nearest(args.lat, args.lon)))
    else:
        hits = g.search(args.text)
        print(f"{len(hits)} place(s) with key {fold(args.text)!r}")
        for p in hits:
            print("  " + describe(p))


if __name__ == "__main__":
    sys.exit(main())

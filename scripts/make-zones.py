#!/usr/bin/env python3
"""Build geotrip's time zone index, Sources/GeoTripCore/Resources/zones.bin.

The binary format (version 1) is specified in scripts/zones-format.md; the Swift reader
(ZoneIndex.swift) follows the same document.

Sources (data files only; none of the packages' code is imported or run)
-------------------------------------------------------------------------
  timezonefinder-data 1.2026.3 (PyPI), timezonefinder_data-1.2026.3-py3-none-any.whl
      sha256 fca9e5d7ff5f86cd7b931b94b24a80347082fac36de35473553dfdf51c5dd151
      timezonefinder_data/data/boundaries/coordinates.bin   the zone polygons' outer rings: a
          FlatBuffers PolygonCollection (file identifier "TZFP", schema in the wheel's
          schemas/polygons.fbs, layout_version 1) whose polygons each hold one int32 vector,
          all longitudes then all latitudes, in units of 1e-7 degree
      timezonefinder_data/data/zone_ids.npy                 polygon -> zone number
      timezonefinder_data/data/timezone_names.txt           zone number -> IANA name
      timezonefinder_data/data/data_version.txt             the boundary release (2026c)
  tzdata 2026.6 (PyPI), tzdata-2026.6-py2.py3-none-any.whl
      sha256 0a10eec6e13ef16b627fabed9a5f2ba61a62b1c67f327305f4e7e412a70b4aec
      tzdata/zoneinfo/tzdata.zi       zone and link names ("Z name ..." and "L target name")
      tzdata/zoneinfo/zone.tab        a zone's country (one per zone)
      tzdata/zoneinfo/zone1970.tab    the countries of zones missing from zone.tab

Licence: the polygons are timezone-boundary-builder's (github.com/evansiroky/
timezone-boundary-builder, release 2026c, "with oceans"), built from OpenStreetMap data and
licensed under the Open Database License 1.0 (ODbL); (c) OpenStreetMap contributors. zones.bin is a
Derivative Database under the same licence. The tz database is in the public domain.

Rerun
-----
    python3 scripts/make-zones.py                   # downloads both wheels with pip into a
                                                    # temporary folder, checks their SHA-256,
                                                    # builds, verifies, writes the resource
    python3 scripts/make-zones.py --wheels DIR      # use (or download into) DIR instead
    python3 scripts/make-zones.py --output PATH     # write somewhere else
Needs Python 3, numpy and shapely 2.1.2 (GEOS 3.13; `pip install shapely==2.1.2`). It takes
about 15 minutes on 2 cores (the cells are built in parallel). The output is deterministic
for the same wheels and the same shapely/GEOS.

How the index is made
---------------------
* Overlaps. The data's hole table does not match its hole rings (it names 756 holes, the file
  holds 27), so holes are not used: every enclave is also a polygon of its own, lying inside
  the polygon around it. Where polygons overlap (enclaves, and a few disputed areas such as
  Kafia Kingi or the Southern Patagonian Ice Field) the smaller polygon wins.
* Cells. The world is cut into 1-degree cells (360 x 180). A cell inside one zone is stored as
  that zone alone. In the others, the zones' pieces are clipped to the cell, made disjoint
  (smaller polygons first), and simplified together: all their borders are noded into one
  set of lines and merged into arcs between junctions, so a border between two zones is one
  arc, simplified once (Douglas-Peucker, TOLERANCE_METRES in a local metric frame: longitude
  scaled by the cosine of the cell's middle latitude). The simplified arcs, with the cell's
  edges, are noded again and polygonised; every face goes to the zone that held most of its
  area. The faces tile the cell, so simplification opens no gap that could read as the sea,
  and both sides of a border move together.
* Storage. Each stored zone of a cell is a set of rings (even-odd rule) whose vertices are
  16-bit fractions of the cell (1/65535 degree: 1.7 m of latitude). The zone with the most
  vertices is not stored: it is the cell's remainder.
* Verification. The written bytes are read back and compared with the unsimplified polygons on
  VERIFY_UNIFORM random points over the globe and VERIFY_NEAR points within 3 km of land
  borders. The build stops if a point more than MAX_MISS_METRES from every border gets another
  zone, and prints how many points within that distance did.
"""
import argparse
import hashlib
import io
import json
import math
import multiprocessing
import os
import struct
import sys
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

import numpy as np
import shapely

import pinned_wheels

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "Sources" / "GeoTripCore" / "Resources" / "zones.bin"

WHEELS = {
    "timezonefinder-data": ("1.2026.3", "timezonefinder_data-1.2026.3-py3-none-any.whl",
                            "fca9e5d7ff5f86cd7b931b94b24a80347082fac36de35473553dfdf51c5dd151"),
    "tzdata": ("2026.6", "tzdata-2026.6-py2.py3-none-any.whl",
               "0a10eec6e13ef16b627fabed9a5f2ba61a62b1c67f327305f4e7e412a70b4aec"),
}
DATA = "timezonefinder_data/data/"
ZONEINFO = "tzdata/zoneinfo/"

TOLERANCE_METRES = 50.0
MAX_MISS_METRES = 50.0
VERIFY_UNIFORM = 400_000
VERIFY_NEAR = 400_000
SEED = 20261123
METRES_PER_DEGREE_LATITUDE = 110_574.0
METRES_PER_DEGREE_EQUATOR = 111_320.0
SCALE = 65535

MAGIC = b"GTZON\x00\x00\x01"
HEADER_SIZE = 64
ZONE = struct.Struct("<IHHIHH")        # 16 bytes: name, name length, clock, countries, length, flags
UNIFORM = 0x8000_0000
NO_ZONE = 0xFFFF
FLAG_POLYGON, FLAG_NAUTICAL = 1, 2


# ---------------------------------------------------------------------------------------------
# Reading the wheels.

def flatbuffer_polygons(data):
    """The int32 vectors of a PolygonCollection (see the module docstring)."""
    u32 = lambda o: struct.unpack_from("<I", data, o)[0]
    i32 = lambda o: struct.unpack_from("<i", data, o)[0]
    u16 = lambda o: struct.unpack_from("<H", data, o)[0]

    def field(table, n):
        vtable = table - i32(table)
        if 4 + 2 * n >= u16(vtable):
            return None
        offset = u16(vtable + 4 + 2 * n)
        return table + offset if offset else None

    if data[4:8] != b"TZFP":
        sys.exit("coordinates.bin is not a TZFP FlatBuffers file")
    root = u32(0)
    layout = field(root, 1)
    if layout is None or u16(layout) != 1:
        sys.exit("coordinates.bin has an unknown layout_version; this script reads version 1")
    vector = field(root, 0)
    vector += u32(vector)
    polygons = []
    for i in range(u32(vector)):
        element = vector + 4 + 4 * i
        table = element + u32(element)
        coords = field(table, 0)
        coords += u32(coords)
        values = np.frombuffer(data, dtype="<i4", count=u32(coords), offset=coords + 4)
        half = len(values) // 2
        polygons.append(np.column_stack([values[:half], values[half:]]).astype(np.float64) / 1e7)
    return polygons


def read_polygons(wheel):
    with zipfile.ZipFile(wheel) as z:
        rings = flatbuffer_polygons(z.read(DATA + "boundaries/coordinates.bin"))
        zone_ids = np.load(io.BytesIO(z.read(DATA + "zone_ids.npy")))
        names = z.read(DATA + "timezone_names.txt").decode().split()
        version = z.read(DATA + "data_version.txt").decode().strip()
    if len(zone_ids) != len(rings):
        sys.exit(f"{len(rings)} polygons but {len(zone_ids)} zone ids")
    return rings, [names[i] for i in zone_ids], version


def read_tzdata(wheel):
    """name -> canonical zone (links followed), and zone -> countries."""
    with zipfile.ZipFile(wheel) as z:
        zi = z.read(ZONEINFO + "tzdata.zi").decode().splitlines()
        zone_tab = z.read(ZONEINFO + "zone.tab").decode().splitlines()
        zone1970 = z.read(ZONEINFO + "zone1970.tab").decode().splitlines()
    canonical = {}
    for line in zi:
        parts = line.split()
        if parts and parts[0] == "Z":
            canonical[parts[1]] = parts[1]
    for line in zi:
        parts = line.split()
        if parts and parts[0] == "L":
            canonical[parts[2]] = parts[1]
    for name in list(canonical):     # links to links
        seen = 0
        while canonical[canonical[name]] != canonical[name] and seen < 10:
            canonical[name] = canonical[canonical[name]]
            seen += 1
    countries = {}
    for line in zone1970:
        if line and not line.startswith("#"):
            codes, _, zone = line.split("\t")[:3]
            countries[zone] = codes
    for line in zone_tab:
        if line and not line.startswith("#"):
            code, _, zone = line.split("\t")[:3]
            countries[zone] = code          # zone.tab's single country wins
    return canonical, countries


# ---------------------------------------------------------------------------------------------
# Cells. Module-level state is set before the worker pool forks.

SHELLS = ZONES = RANK = TREE = None


def setup(rings, zones):
    global SHELLS, ZONES, RANK, TREE
    SHELLS = np.array([shapely.Polygon(r) for r in rings])
    areas = shapely.area(SHELLS)
    order = np.lexsort((np.arange(len(SHELLS)), areas))      # smallest first, stable
    RANK = np.empty(len(order), dtype=np.int64)
    RANK[order] = np.arange(len(order))
    ZONES = np.array(zones)
    TREE = shapely.STRtree(SHELLS)


def polygonal(geometry):
    """The polygonal part of an overlay result, or None."""
    if geometry is None or geometry.is_empty:
        return None
    if geometry.geom_type in ("Polygon", "MultiPolygon"):
        return geometry
    parts = [p for p in shapely.get_parts(geometry) if p.geom_type in ("Polygon", "MultiPolygon")]
    if not parts:
        return None
    merged = shapely.union_all(parts)
    return None if merged.is_empty else merged


def disjoint_pieces(candidates, box):
    """zone -> its part of the box, smaller polygons first, each part minus those before it."""
    covered, pieces = None, {}
    for geometry, zone in candidates:
        piece = polygonal(shapely.intersection(geometry, box))
        if piece is None:
            continue
        if covered is not None:
            piece = polygonal(shapely.difference(piece, covered))
            if piece is None:
                continue
        covered = piece if covered is None else shapely.union(covered, piece)
        pieces[zone] = piece if zone not in pieces else shapely.union(pieces[zone], piece)
    return pieces


def simplify_together(pieces, x0, y0):
    """The pieces simplified with every shared border simplified once (module docstring)."""
    k = math.cos(math.radians(y0 + 0.5)) * METRES_PER_DEGREE_EQUATOR
    to_metres = lambda g: shapely.transform(
        g, lambda c: np.column_stack([(c[:, 0] - x0) * k, (c[:, 1] - y0) * METRES_PER_DEGREE_LATITUDE]))
    to_degrees = lambda g: shapely.transform(
        g, lambda c: np.column_stack([c[:, 0] / k + x0, c[:, 1] / METRES_PER_DEGREE_LATITUDE + y0]))
    zones = list(pieces)
    geometries = np.array([to_metres(pieces[z]) for z in zones])
    edge = shapely.box(0, 0, k, METRES_PER_DEGREE_LATITUDE).boundary
    lines = shapely.union_all(np.concatenate([shapely.boundary(geometries), [edge]]))
    arcs = shapely.get_parts(shapely.line_merge(lines))
    simple = shapely.simplify(arcs, TOLERANCE_METRES, preserve_topology=False)
    noded = shapely.union_all(np.concatenate([simple, [edge]]))
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(noded)))
    tree = shapely.STRtree(geometries)
    owners = []
    for face in faces:
        best, best_area = None, 0.0
        for candidate in tree.query(face, predicate="intersects"):
            area = shapely.intersection(geometries[candidate], face).area
            if area > best_area:
                best, best_area = int(candidate), area
        if best is None:
            best = int(np.argmin(shapely.distance(geometries, face)))
        owners.append(best)
    owners = np.array(owners, dtype=np.int64)
    result = {}
    for index, zone in enumerate(zones):
        mine = faces[owners == index]
        if len(mine):
            result[zone] = to_degrees(shapely.union_all(mine))
    return result


def quantised_rings(geometry, x0, y0):
    """The rings of a polygonal geometry as (n, 2) uint16 arrays in the cell's units."""
    rings = []
    for polygon in shapely.get_parts(geometry):
        if polygon.geom_type != "Polygon":
            continue
        for ring in [polygon.exterior, *polygon.interiors]:
            c = np.asarray(ring.coords)[:-1]
            q = np.column_stack([np.rint((c[:, 0] - x0) * SCALE), np.rint((c[:, 1] - y0) * SCALE)])
            q = np.clip(q, 0, SCALE).astype(np.uint16)
            keep = np.ones(len(q), dtype=bool)
            keep[1:] = np.any(q[1:] != q[:-1], axis=1)
            q = q[keep]
            if len(q) > 1 and np.all(q[0] == q[-1]):
                q = q[:-1]
            if len(q) >= 3:
                rings.append(q)
    return rings


def build_tile(tile):
    """Cells of one 10-degree tile: [(column, row, [zone] or [(zone, rings)...])]."""
    tx, ty = tile
    tile_box = shapely.box(tx, ty, tx + 10, ty + 10)
    candidates = sorted(TREE.query(tile_box, predicate="intersects"), key=lambda i: RANK[i])
    clipped = []
    for i in candidates:
        piece = polygonal(shapely.intersection(SHELLS[i], tile_box))
        if piece is not None:
            clipped.append((piece, str(ZONES[i])))
    tile_tree = shapely.STRtree(np.array([g for g, _ in clipped]))
    cells = []
    for y0 in range(ty, ty + 10):
        for x0 in range(tx, tx + 10):
            box = shapely.box(x0, y0, x0 + 1, y0 + 1)
            inside = sorted(tile_tree.query(box, predicate="intersects"))
            if len(inside) == 1 and shapely.contains(clipped[inside[0]][0], box):
                cells.append((x0 + 180, y0 + 90, clipped[inside[0]][1]))
                continue
            pieces = disjoint_pieces([clipped[i] for i in inside], box)
            if len(pieces) == 0:
                cells.append((x0 + 180, y0 + 90, nautical_zone(x0 + 0.5)))
            elif len(pieces) == 1:
                cells.append((x0 + 180, y0 + 90, next(iter(pieces))))
            else:
                simple = simplify_together(pieces, x0, y0)
                stored = [(zone, quantised_rings(g, x0, y0)) for zone, g in simple.items()]
                stored = [(zone, rings) for zone, rings in stored if rings]
                if len(stored) == 1:
                    cells.append((x0 + 180, y0 + 90, stored[0][0]))
                else:
                    cells.append((x0 + 180, y0 + 90, stored))
    return cells


def nautical_zone(longitude):
    hours = int(math.floor(longitude / 15 + 0.5))
    if hours == 0:
        return "Etc/GMT"
    return f"Etc/GMT-{min(hours, 12)}" if hours > 0 else f"Etc/GMT+{min(-hours, 12)}"


# ---------------------------------------------------------------------------------------------
# Writing.

def encode(cells, zone_names, canonical, countries, data_version):
    names = sorted(set(zone_names) | set(canonical))
    index = {name: i for i, name in enumerate(names)}
    clock_names = sorted({canonical.get(n, n) for n in names})
    clock = {name: clock_names.index(canonical.get(name, name)) for name in names}
    polygon_zones = set(zone_names)

    strings = bytearray()
    string_at = {}

    def put(text):
        raw = text.encode()
        if raw not in string_at:
            string_at[raw] = len(strings)
            strings.extend(raw)
        return string_at[raw], len(raw)

    zone_records = bytearray()
    for name in names:
        name_offset, name_length = put(name)
        country_offset, country_length = put(countries.get(name, ""))
        flags = (FLAG_POLYGON if name in polygon_zones else 0) | (FLAG_NAUTICAL if name.startswith("Etc/") else 0)
        zone_records += ZONE.pack(name_offset, name_length, clock[name], country_offset, country_length, flags)
    version_offset, version_length = put(data_version)

    grid = np.zeros(360 * 180, dtype="<u4")
    body = bytearray()
    for column, row, content in cells:
        if isinstance(content, str):
            grid[row * 360 + column] = UNIFORM | index[content]
            continue
        # The zone with the most vertices is the remainder; the others are stored, larger first.
        content = sorted(content, key=lambda e: (-sum(len(r) for r in e[1]), e[0]))
        remainder, stored = content[0][0], content[1:]
        grid[row * 360 + column] = len(body) // 4
        record = bytearray(struct.pack("<HH", len(stored), index[remainder]))
        ring_table, vertices = bytearray(), bytearray()
        ring_count, vertex_count = 0, 0
        entries = bytearray()
        for zone, rings in stored:
            entries += struct.pack("<HHI", index[zone], len(rings), ring_count)
            for ring in rings:
                low, high = ring.min(axis=0), ring.max(axis=0)
                ring_table += struct.pack("<IIHHHH", vertex_count, len(ring), low[0], low[1], high[0], high[1])
                vertices += ring.astype("<u2").tobytes()
                ring_count += 1
                vertex_count += len(ring)
        record += entries + ring_table + vertices
        record += b"\0" * (-len(record) % 4)
        body += record
    if len(body) // 4 >= UNIFORM:
        sys.exit("the cell section is too large for 31-bit word offsets")

    strings += b"\0" * (-len(strings) % 4)
    zones_offset = HEADER_SIZE
    grid_offset = zones_offset + len(zone_records)
    cells_offset = grid_offset + grid.nbytes
    strings_offset = cells_offset + len(body)
    file_length = strings_offset + len(strings)
    payload = bytes(zone_records) + grid.tobytes() + bytes(body) + bytes(strings)
    header = MAGIC + struct.pack("<IIIIIIIIHH", len(names), zones_offset, grid_offset, cells_offset,
                                 len(body), strings_offset, len(strings), file_length,
                                 version_offset, version_length)
    header += struct.pack("<I", 0) * ((HEADER_SIZE - 4 - len(header)) // 4)
    header += struct.pack("<I", zlib.crc32(payload))
    assert len(header) == HEADER_SIZE
    return header + payload, names


# ---------------------------------------------------------------------------------------------
# Reading back, independently of the builder's geometries, and verifying.

def lookup_all(data, names, points):
    """Zone name per point, from the written bytes (the reader the format document describes)."""
    zones_count, _, grid_offset, cells_offset = struct.unpack_from("<IIII", data, 8)
    grid = np.frombuffer(data, dtype="<u4", count=360 * 180, offset=grid_offset)
    lon, lat = points[:, 0].copy(), points[:, 1]
    lon[lon >= 180] -= 360                      # longitude 180 is the meridian -180 is
    column = np.clip(np.floor(lon + 180).astype(int), 0, 359)
    row = np.clip(np.floor(lat + 90).astype(int), 0, 179)
    refs = grid[row * 360 + column]
    result = np.empty(len(points), dtype=object)
    uniform = (refs & UNIFORM) != 0
    for i in np.nonzero(uniform)[0]:
        result[i] = names[refs[i] & 0xFFFF]
    for i in np.nonzero(~uniform)[0]:
        base = cells_offset + int(refs[i]) * 4
        stored, remainder = struct.unpack_from("<HH", data, base)
        u = (lon[i] - (column[i] - 180)) * SCALE
        v = (lat[i] - (row[i] - 90)) * SCALE
        rings_base = base + 4 + 8 * stored
        total_rings = 0
        entries = [struct.unpack_from("<HHI", data, base + 4 + 8 * e) for e in range(stored)]
        total_rings = sum(e[1] for e in entries)
        vertices_base = rings_base + 16 * total_rings
        answer = remainder
        for zone, ring_count, first_ring in entries:
            inside = False
            for r in range(first_ring, first_ring + ring_count):
                first, count, x_low, y_low, x_high, y_high = struct.unpack_from("<IIHHHH", data, rings_base + 16 * r)
                if not (x_low <= u <= x_high and y_low <= v <= y_high):
                    continue
                ring = np.frombuffer(data, dtype="<u2", count=2 * count, offset=vertices_base + 4 * first)
                x, y = ring[0::2].astype(float), ring[1::2].astype(float)
                xn, yn = np.roll(x, -1), np.roll(y, -1)
                crosses = (y > v) != (yn > v)
                with np.errstate(divide="ignore", invalid="ignore"):
                    at = x + (v - y) * (xn - x) / (yn - y)
                if np.count_nonzero(crosses & (u < at)) % 2:
                    inside = not inside
            if inside:
                answer = zone
                break
        result[i] = names[answer]
    return result


def truth(points):
    """Zone per point from the unsimplified polygons: the smallest containing polygon."""
    found = np.full(len(points), -1, dtype=np.int64)
    best = np.full(len(points), np.iinfo(np.int64).max)
    point_index, polygon_index = TREE.query(shapely.points(points), predicate="within")
    for p, g in zip(point_index, polygon_index):
        if RANK[g] < best[p]:
            best[p], found[p] = RANK[g], g
    return found


def verify(data, names, rng):
    uniform = np.column_stack([rng.uniform(-180, 180, VERIFY_UNIFORM),
                               np.degrees(np.arcsin(rng.uniform(-1, 1, VERIFY_UNIFORM)))])
    land = [i for i, z in enumerate(ZONES) if not str(z).startswith("Etc/")]
    vertices = np.concatenate([np.asarray(SHELLS[i].exterior.coords) for i in land])
    near = vertices[rng.integers(0, len(vertices), VERIFY_NEAR)]
    distance = rng.uniform(0, 3000, VERIFY_NEAR)
    bearing = rng.uniform(0, 2 * math.pi, VERIFY_NEAR)
    near = near + np.column_stack([
        distance * np.cos(bearing) / (METRES_PER_DEGREE_EQUATOR * np.maximum(np.cos(np.radians(near[:, 1])), 0.01)),
        distance * np.sin(bearing) / METRES_PER_DEGREE_LATITUDE])
    near[:, 0] = (near[:, 0] + 180) % 360 - 180
    near[:, 1] = np.clip(near[:, 1], -89.999, 89.999)
    worst = 0.0
    for label, points in (("uniform", uniform), ("near land borders", near)):
        expected = truth(points)
        got = lookup_all(data, names, points)
        wrong = [i for i in range(len(points)) if expected[i] >= 0 and str(ZONES[expected[i]]) != got[i]]
        unknown = int(np.count_nonzero(expected < 0))
        misses = []
        for i in wrong:
            point = shapely.Point(points[i])
            k = math.cos(math.radians(points[i, 1])) * METRES_PER_DEGREE_EQUATOR
            shell = SHELLS[expected[i]]
            # Distance to the nearest border of the true zone's polygon, or of any polygon that
            # overlaps the point (an enclave's edge), in local metres.
            nearby = TREE.query(point.buffer(0.05))
            d = min(shapely.distance(shapely.transform(SHELLS[j].boundary, lambda c, p=points[i], k=k: np.column_stack(
                [(c[:, 0] - p[0]) * k, (c[:, 1] - p[1]) * METRES_PER_DEGREE_LATITUDE])), shapely.Point(0, 0))
                for j in set(nearby.tolist()) | {int(expected[i])})
            misses.append(d)
        largest = max(misses, default=0.0)
        worst = max(worst, largest)
        print(f"verify {label}: {len(points):,} points, {len(wrong)} in another zone "
              f"(farthest {largest:.0f} m from a border), {unknown} outside every polygon")
    if worst > MAX_MISS_METRES:
        sys.exit(f"a point {worst:.0f} m from every border got another zone (limit {MAX_MISS_METRES:.0f} m)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheels", type=Path, help="folder for the wheels (kept)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()
    if shapely.__version__ != "2.1.2":
        print(f"warning: shapely {shapely.__version__}, not 2.1.2: the bytes may differ", file=sys.stderr)

    with tempfile.TemporaryDirectory() as scratch:
        wheels = pinned_wheels.fetch_wheels(args.wheels or Path(scratch), WHEELS)
        rings, zones, data_version = read_polygons(wheels["timezonefinder-data"])
        canonical, countries = read_tzdata(wheels["tzdata"])
    print(f"{len(rings)} polygons, {sum(len(r) for r in rings):,} vertices, {len(set(zones))} zones, "
          f"boundary release {data_version}")
    unknown = sorted(set(zones) - set(canonical))
    if unknown:
        sys.exit(f"zones missing from tzdata 2026.6: {unknown}")

    setup(rings, zones)
    tiles = [(x, y) for y in range(-90, 90, 10) for x in range(-180, 180, 10)]
    started = time.time()
    cells = []
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for done, tile_cells in enumerate(pool.imap(build_tile, tiles), 1):
            cells.extend(tile_cells)
            if done % 36 == 0:
                print(f"  {done}/{len(tiles)} tiles, {time.time() - started:.0f} s", flush=True)
    data, names = encode(cells, zones, canonical, countries, data_version)
    stored = sum(1 for c in cells if not isinstance(c[2], str))
    print(f"{len(cells)} cells, {stored} with more than one zone; {len(data):,} bytes")

    verify(data, names, np.random.default_rng(SEED))
    args.output.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    args.output.with_suffix(args.output.suffix + ".sha256").write_text(f"{digest}  {args.output.name}\n")
    print(f"sha256 {digest}  {args.output}")


if __name__ == "__main__":
    main()

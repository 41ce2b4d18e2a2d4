#!/usr/bin/env python3
"""Write the time zone test fixtures, Tests/GeoTripCoreTests/Fixtures/zones/.

Independent of the zone index: nothing here reads zones.bin or shares its simplification. Both
fixtures are checked against the UNSIMPLIFIED timezone-boundary-builder polygons (release 2026c,
"with oceans", as packaged in timezonefinder-data 1.2026.3), read by scripts/make-zones.py's
`read_polygons`, `setup` and `truth` (where polygons overlap, the smallest containing one wins).

    python3 scripts/make-zone-fixtures.py                 # wheels downloaded into a temporary folder
    python3 scripts/make-zone-fixtures.py --wheels DIR    # use (or download into) DIR

The wheels are make-zones.py's pinned ones (WHEELS: version and SHA-256 checked by
scripts/pinned_wheels.py); no package code is run, only data files read. Needs Python 3.9+, numpy
and shapely 2.1.2. Deterministic: the same wheels and gazetteer give the same bytes.

borders.json
------------
Points on both sides of time zone borders (BORDERS below). Where every value comes from:
  * border, name, latitude, longitude: chosen by hand from geography (towns, rivers, county
    lines and reservation boundaries as known from maps), a few km from the border, on land.
  * zone and country: ASSERTED by hand from geography (which country / state / county / reserve
    the point lies in, and which tz database zone that area keeps); never copied from the data.
    The script stops (exit 1) when the unsimplified polygons give another zone.
  * distance: every point must lie at least MIN_METRES from every polygon boundary near it
    (its own polygon's and any other polygon's, measured in a local metric frame: longitude
    scaled by the cosine of the latitude), so that a 50 m simplification cannot move it across;
    and, except for the island cases (Lord Howe, the Chatham Islands, whose nearest "border" is
    the territorial sea 20-40 km away), at most MAX_METRES from one, so it tests the border.
  * januaryOffsetSeconds, julyOffsetSeconds: the UTC offset of `zone` at 2026-01-15T12:00Z and
    2026-07-15T12:00Z, computed with Python's zoneinfo from the TZif files of the pinned tzdata
    2026.6 wheel (tzdata/zoneinfo/<zone>, read with zipfile, ZoneInfo.from_file).

near-towns.tsv
--------------
NEAR_TOWNS_COUNT points, seeded with SEED (numpy default_rng):
  * a town drawn uniformly among all places of Sources/GeoTripCore/Resources/gazetteer.bin (its
    PLACES records, scripts/gazetteer-format.md: int32 latitude and longitude in 1e-5 degree);
  * a bearing uniform in [0, 360) degrees and a distance uniform in [0, 30] km; the point is the
    great-circle destination on a sphere of radius 6,371,008.8 m, longitude wrapped to
    [-180, 180), coordinates rounded to 6 decimals (the rounded point is the one checked);
  * zone: the unsimplified polygons' zone at the rounded point (a point in no polygon is dropped
    and another drawn; with the ocean polygons this almost never happens);
  * border_metres: metres from the point to the nearest boundary of any polygon (its own and
    every other one, enclaves and overlaps included, and across the antimeridian), in the local
    metric frame above, rounded to 1 m. The polygons' antimeridian cut counts as a boundary, so
    the distance is never overestimated.
Columns: latitude, longitude, zone, border_metres (tab-separated, one header line).
"""
import argparse
import importlib.util
import json
import math
import sys
import tempfile
import time
import zipfile
import zoneinfo
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import shapely

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
OUTPUT = ROOT / "Tests" / "GeoTripCoreTests" / "Fixtures" / "zones"
GAZETTEER = ROOT / "Sources" / "GeoTripCore" / "Resources" / "gazetteer.bin"

sys.path.insert(0, str(SCRIPTS))
import pinned_wheels  # noqa: E402

_spec = importlib.util.spec_from_file_location("make_zones", SCRIPTS / "make-zones.py")
mz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mz)

SEED = 20260514
NEAR_TOWNS_COUNT = 5_000
NEAR_TOWNS_RADIUS = 30_000.0
EARTH_RADIUS = 6_371_008.8
MIN_METRES = 1_000.0
MAX_METRES = 5_000.0
JANUARY = datetime(2026, 1, 15, 12, tzinfo=timezone.utc)
JULY = datetime(2026, 7, 15, 12, tzinfo=timezone.utc)

# (border, island case?, [(name, latitude, longitude, zone, ISO country)]). Zones and countries
# are what geography says (see the notes); the script checks them against the polygons.
BORDERS = [
    ("Spain/Portugal", False, [
        ("west of the Caia, near Elvas (PT)", 38.87, -7.09, "Europe/Lisbon", "PT"),
        ("west of Badajoz (ES)", 38.87, -6.99, "Europe/Madrid", "ES")]),
    ("France/Spain (Pyrenees)", False, [
        ("La Jonquera (ES)", 42.42, 2.87, "Europe/Madrid", "ES"),
        ("near Le Boulou, north of Le Perthus (FR)", 42.50, 2.83, "Europe/Paris", "FR")]),
    ("Poland/Belarus", False, [
        ("Terespol (PL)", 52.08, 23.61, "Europe/Warsaw", "PL"),
        ("Brest (BY)", 52.09, 23.70, "Europe/Minsk", "BY")]),
    ("Lithuania/Belarus", False, [
        ("Medininkai (LT)", 54.54, 25.65, "Europe/Vilnius", "LT"),
        ("east of the Medininkai crossing (BY)", 54.52, 25.72, "Europe/Minsk", "BY")]),
    # Attari and Wagah, between Amritsar and Lahore.
    ("India/Pakistan (Punjab)", False, [
        ("Attari, near the Wagah crossing (IN)", 31.597, 74.605, "Asia/Kolkata", "IN"),
        ("Wagah side, east of Lahore (PK)", 31.59, 74.53, "Asia/Karachi", "PK")]),
    # The eastern end of the Wakhan corridor. tzdb puts Xinjiang's clock on Asia/Urumqi (+6,
    # "Xinjiang time"), and timezone-boundary-builder gives Asia/Urumqi to Taxkorgan county.
    ("China/Afghanistan (Wakhan)", False, [
        ("Little Pamir, eastern Wakhan (AF)", 37.285, 74.65, "Asia/Kabul", "AF"),
        ("Taxkorgan county below the Wakhjir pass (CN)", 37.20, 74.65, "Asia/Urumqi", "CN")]),
    # The Panj river between Panji Poyon (Nizhny Panj) and Shir Khan Bandar.
    ("Tajikistan/Afghanistan", False, [
        ("Panji Poyon (TJ)", 37.24, 68.60, "Asia/Dushanbe", "TJ"),
        ("Shir Khan Bandar (AF)", 37.18, 68.60, "Asia/Kabul", "AF")]),
    ("Kyrgyzstan/Uzbekistan (Fergana valley)", False, [
        ("north-west Osh (KG)", 40.55, 72.78, "Asia/Bishkek", "KG"),
        ("Andijan region, west of Osh (UZ)", 40.62, 72.65, "Asia/Tashkent", "UZ")]),
    # The Rio Hondo: Corozal district (Belize, -6) and Chetumal (Quintana Roo, -5 all year).
    ("Belize/Mexico", False, [
        ("Corozal district, by the Rio Hondo (BZ)", 18.45, -88.40, "America/Belize", "BZ"),
        ("Chetumal (MX)", 18.52, -88.33, "America/Cancun", "MX")]),
    # Saskatchewan keeps Central Standard Time all year (America/Regina).
    ("Saskatchewan/Manitoba", False, [
        ("eastern Saskatchewan (CA)", 50.50, -101.52, "America/Regina", "CA"),
        ("western Manitoba (CA)", 50.50, -101.43, "America/Winnipeg", "CA")]),
    # LaPorte County keeps Central time; St. Joseph County (South Bend) Eastern.
    ("Indiana: LaPorte County/St. Joseph County", False, [
        ("LaPorte County, Indiana (Central)", 41.65, -86.58, "America/Chicago", "US"),
        ("St. Joseph County, west of South Bend (Eastern)", 41.65, -86.47, "America/Indiana/Indianapolis", "US")]),
    # Perry County (Tell City) went back to Central in 2006; Crawford County (Marengo) is Eastern.
    ("Indiana: Perry County/Crawford County", False, [
        ("Perry County, Indiana (Central)", 38.17, -86.50, "America/Indiana/Tell_City", "US"),
        ("Crawford County, Indiana (Eastern)", 38.17, -86.42, "America/Indiana/Marengo", "US")]),
    # Arizona keeps MST all year; the Navajo Nation observes DST (America/Denver).
    ("Arizona/Navajo Nation (Page)", False, [
        ("Page (AZ)", 36.914, -111.459, "America/Phoenix", "US"),
        ("LeChee chapter, Navajo Nation", 36.86, -111.43, "America/Denver", "US")]),
    # The Hopi Reservation, inside the Navajo Nation, keeps Arizona time; its eastern edge.
    ("Hopi Reservation/Navajo Nation", False, [
        ("east of Keams Canyon, Hopi Reservation", 35.81, -110.05, "America/Phoenix", "US"),
        ("Navajo Nation east of the Hopi Reservation", 35.81, -109.95, "America/Denver", "US")]),
    # Lord Howe Island keeps +10:30 (+11 in the southern summer); mainland NSW +10/+11.
    ("Lord Howe Island/New South Wales", True, [
        ("Lord Howe Island (AU)", -31.55, 159.08, "Australia/Lord_Howe", "AU"),
        ("inland of Port Macquarie, NSW (AU)", -31.43, 152.85, "Australia/Sydney", "AU")]),
    # The Chatham Islands are 45 minutes ahead of mainland New Zealand.
    ("Chatham Islands/New Zealand", True, [
        ("Waitangi, Chatham Island (NZ)", -43.95, -176.55, "Pacific/Chatham", "NZ"),
        ("Christchurch (NZ)", -43.53, 172.63, "Pacific/Auckland", "NZ")]),
    # Idaho County north/east of the Salmon River keeps Pacific time, the south Mountain.
    ("Idaho: Pacific/Mountain (Salmon River)", False, [
        ("Idaho County east of the Salmon, near Slate Creek (ID)", 45.60, -116.25, "America/Los_Angeles", "US"),
        ("Idaho County west of the Salmon (ID)", 45.60, -116.33, "America/Boise", "US")]),
    # Malheur County keeps Mountain time (America/Boise); Baker County Pacific.
    ("Oregon: Baker County/Malheur County", False, [
        ("southern Baker County (OR)", 44.47, -117.80, "America/Los_Angeles", "US"),
        ("northern Malheur County (OR)", 44.41, -117.80, "America/Boise", "US")]),
    # Western Morton County switched to Central in 2003 (New_Salem); Stark County is Mountain.
    ("North Dakota: Morton County/Stark County", False, [
        ("Hebron, Morton County (ND)", 46.90, -102.05, "America/North_Dakota/New_Salem", "US"),
        ("eastern Stark County (ND)", 46.90, -102.12, "America/Denver", "US")]),
    # Omsk oblast (+6) and Pavlodar region; Kazakhstan went to +5 everywhere in 2024.
    ("Russia/Kazakhstan", False, [
        ("Omsk oblast (RU)", 53.85, 75.06, "Asia/Omsk", "RU"),
        ("Pavlodar region (KZ)", 53.78, 75.12, "Asia/Almaty", "KZ")]),
    # The Araguaia: Barra do Garças (Mato Grosso, -4) and Aragarças (Goiás, -3).
    ("Brazil: Mato Grosso/Goiás", False, [
        ("Barra do Garças, Mato Grosso (BR)", -15.88, -52.28, "America/Cuiaba", "BR"),
        ("east of Aragarças, Goiás (BR)", -15.92, -52.20, "America/Sao_Paulo", "BR")]),
    # Futaleufú (Los Lagos, America/Santiago with DST) and Chubut (tzdb's Argentina/Catamarca).
    ("Argentina/Chile", False, [
        ("Futaleufú (CL)", -43.18, -71.85, "America/Santiago", "CL"),
        ("Chubut, west of Trevelin (AR)", -43.17, -71.72, "America/Argentina/Catamarca", "AR")]),
    # Morokulien; same clock, different zones.
    ("Norway/Sweden", False, [
        ("Eidskog, near Magnor (NO)", 59.93, 12.19, "Europe/Oslo", "NO"),
        ("Eda, Värmland (SE)", 59.93, 12.28, "Europe/Stockholm", "SE")]),
    ("Finland/Sweden (Tornio/Haparanda)", False, [
        ("Tornio (FI)", 65.86, 24.20, "Europe/Helsinki", "FI"),
        ("west of Haparanda (SE)", 65.84, 24.08, "Europe/Stockholm", "SE")]),
    ("Nepal/India (Birgunj/Raxaul)", False, [
        ("Birgunj (NP)", 27.03, 84.88, "Asia/Kathmandu", "NP"),
        ("Raxaul (IN)", 26.96, 84.84, "Asia/Kolkata", "IN")]),
    ("Iran/Afghanistan (Dogharoun/Islam Qala)", False, [
        ("Dogharoun, Razavi Khorasan (IR)", 34.62, 60.90, "Asia/Tehran", "IR"),
        ("Islam Qala (AF)", 34.66, 61.04, "Asia/Kabul", "AF")]),
    ("Egypt/Israel (Taba/Eilat)", False, [
        ("Sinai hills west of Taba (EG)", 29.47, 34.86, "Africa/Cairo", "EG"),
        ("Eilat (IL)", 29.56, 34.95, "Asia/Jerusalem", "IL")]),
    ("China/Kazakhstan (Khorgos)", False, [
        ("Khorgos (CN)", 44.21, 80.42, "Asia/Urumqi", "CN"),
        ("Nurkent, Khorgos crossing (KZ)", 44.21, 80.36, "Asia/Almaty", "KZ")]),
    ("Russia/China (Amur)", False, [
        ("Blagoveshchensk (RU)", 50.29, 127.52, "Asia/Yakutsk", "RU"),
        ("Heihe (CN)", 50.23, 127.47, "Asia/Shanghai", "CN")]),
    ("Colombia/Venezuela (Cúcuta)", False, [
        ("Cúcuta (CO)", 7.89, -72.50, "America/Bogota", "CO"),
        ("San Antonio del Táchira (VE)", 7.81, -72.44, "America/Caracas", "VE")]),
    ("United Kingdom/Ireland (Derry)", False, [
        ("Derry (GB)", 54.99, -7.32, "Europe/London", "GB"),
        ("Bridgend, Inishowen (IE)", 55.04, -7.40, "Europe/Dublin", "IE")]),
    # The Moei river: Mae Sot (+7) and Myawaddy (+6:30).
    ("Thailand/Myanmar (Mae Sot/Myawaddy)", False, [
        ("Mae Sot (TH)", 16.71, 98.55, "Asia/Bangkok", "TH"),
        ("Myawaddy (MM)", 16.69, 98.47, "Asia/Yangon", "MM")]),
    # tzdb gives northern Vietnam Asia/Bangkok (zone1970.tab: "Indochina (most areas)");
    # Asia/Ho_Chi_Minh is the south only.
    ("Vietnam/China (Lào Cai/Hekou)", False, [
        ("Lào Cai (VN)", 22.48, 103.97, "Asia/Bangkok", "VN"),
        ("Hekou (CN)", 22.55, 103.95, "Asia/Shanghai", "CN")]),
]


def border_metres(lon, lat):
    """Metres from (lon, lat) to the nearest boundary of any polygon, in the local metric frame."""
    k = max(math.cos(math.radians(lat)), 1e-6) * mz.METRES_PER_DEGREE_EQUATOR
    origin = shapely.Point(0, 0)
    radius = 2_000.0
    while True:
        dx, dy = radius / k, radius / mz.METRES_PER_DEGREE_LATITUDE
        best = math.inf
        for shift in (0.0, 360.0, -360.0):      # the box may reach across the antimeridian
            x = lon + shift
            x0, x1 = x - dx, x + dx
            if x1 < -180 or x0 > 180:
                continue
            box = (max(x0, -180.0), max(lat - dy, -90.0), min(x1, 180.0), min(lat + dy, 90.0))
            for j in mz.TREE.query(shapely.box(*box)):
                near = shapely.clip_by_rect(mz.SHELLS[j].exterior, *box)
                if near.is_empty:
                    continue
                local = shapely.transform(near, lambda c, x=x: np.column_stack(
                    [(c[:, 0] - x) * k, (c[:, 1] - lat) * mz.METRES_PER_DEGREE_LATITUDE]))
                best = min(best, shapely.distance(local, origin))
        if best <= radius or radius > 5e6:
            return best
        radius *= 4


def offsets(tzdata_wheel, zones):
    with zipfile.ZipFile(tzdata_wheel) as z:
        result = {}
        for zone in zones:
            with z.open(mz.ZONEINFO + zone) as f:
                info = zoneinfo.ZoneInfo.from_file(f, key=zone)
            result[zone] = (int(JANUARY.astimezone(info).utcoffset().total_seconds()),
                            int(JULY.astimezone(info).utcoffset().total_seconds()))
    return result


def make_borders(tzdata_wheel):
    entries, problems = [], []
    points = np.array([(lon, lat) for _, _, side in BORDERS for _, lat, lon, _, _ in side])
    found = mz.truth(points)
    clock = offsets(tzdata_wheel, sorted({zone for _, _, side in BORDERS for *_, zone, _ in side}))
    i = 0
    for border, island, side in BORDERS:
        if len(side) < 2 or len({zone for *_, zone, _ in side}) < 2:
            problems.append(f"{border}: needs points in two zones")
        for name, lat, lon, zone, country in side:
            got = str(mz.ZONES[found[i]]) if found[i] >= 0 else None
            metres = border_metres(lon, lat)
            if got != zone:
                problems.append(f"{border} / {name}: asserted {zone}, the polygons say {got}")
            if metres < MIN_METRES or (not island and metres > MAX_METRES):
                problems.append(f"{border} / {name}: {metres:.0f} m from a border "
                                f"(wanted {MIN_METRES:.0f}-{MAX_METRES:.0f} m)")
            january, july = clock[zone]
            entries.append({"border": border, "name": name, "latitude": lat, "longitude": lon,
                            "zone": zone, "country": country,
                            "januaryOffsetSeconds": january, "julyOffsetSeconds": july,
                            "borderMetres": round(metres)})
            i += 1
    return entries, problems


def gazetteer_places(path):
    """(latitude, longitude) of every place record (scripts/gazetteer-format.md)."""
    data = path.read_bytes()
    if data[:8] != b"GTGAZ\x00\x00\x01":
        sys.exit(f"{path}: not a gazetteer (bad magic)")
    count, offset = int.from_bytes(data[8:12], "little"), int.from_bytes(data[24:28], "little")
    records = np.frombuffer(data, dtype="<i4", count=6 * count, offset=offset).reshape(count, 6)
    return records[:, 0] / 1e5, records[:, 1] / 1e5


def destination(lat, lon, bearing, metres):
    """Great-circle destination (degrees) on the sphere of EARTH_RADIUS."""
    p1, l1, b, d = math.radians(lat), math.radians(lon), math.radians(bearing), metres / EARTH_RADIUS
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    lon2 = (math.degrees(l2) + 180.0) % 360.0 - 180.0
    return math.degrees(p2), lon2


def make_near_towns(rng):
    lats, lons = gazetteer_places(GAZETTEER)
    rows, dropped = [], 0
    while len(rows) < NEAR_TOWNS_COUNT:
        town = int(rng.integers(0, len(lats)))
        bearing = float(rng.uniform(0.0, 360.0))
        metres = float(rng.uniform(0.0, NEAR_TOWNS_RADIUS))
        lat, lon = destination(float(lats[town]), float(lons[town]), bearing, metres)
        lat, lon = round(lat, 6), round(lon, 6)
        if lon >= 180.0:
            lon -= 360.0
        found = mz.truth(np.array([(lon, lat)]))[0]
        if found < 0:
            dropped += 1
            continue
        rows.append((lat, lon, str(mz.ZONES[found]), round(border_metres(lon, lat))))
    return rows, dropped


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheels", type=Path, help="folder for the wheels (kept)")
    args = parser.parse_args()
    if shapely.__version__ != "2.1.2":
        print(f"warning: shapely {shapely.__version__}, not 2.1.2", file=sys.stderr)
    started = time.time()
    with tempfile.TemporaryDirectory() as scratch:
        wheels = pinned_wheels.fetch_wheels(args.wheels or Path(scratch), mz.WHEELS)
        rings, zones, version = mz.read_polygons(wheels["timezonefinder-data"])
        mz.setup(rings, zones)
        print(f"{len(rings)} polygons, boundary release {version}")
        entries, problems = make_borders(wheels["tzdata"])
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(f"{len(problems)} border point(s) disagree with the polygons; no fixture written")
    OUTPUT.mkdir(parents=True, exist_ok=True)
    text = "[\n" + ",\n".join("  " + json.dumps(e, ensure_ascii=False) for e in entries) + "\n]\n"
    (OUTPUT / "borders.json").write_text(text, encoding="utf-8")
    print(f"borders.json: {len(BORDERS)} borders, {len(entries)} points, "
          f"{min(e['borderMetres'] for e in entries)}-{max(e['borderMetres'] for e in entries)} m from a border")

    rows, dropped = make_near_towns(np.random.default_rng(SEED))
    with open(OUTPUT / "near-towns.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("latitude\tlongitude\tzone\tborder_metres\n")
        for lat, lon, zone, metres in rows:
            f.write(f"{lat:.6f}\t{lon:.6f}\t{zone}\t{metres}\n")
    close = sum(1 for r in rows if r[3] <= 50)
    print(f"near-towns.tsv: {len(rows)} points ({dropped} in no polygon, drawn again), "
          f"{close} within 50 m of a border, {len({r[2] for r in rows})} zones")
    print(f"{time.time() - started:.0f} s")


if __name__ == "__main__":
    main()

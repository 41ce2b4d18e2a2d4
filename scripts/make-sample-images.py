#!/usr/bin/env python3
"""Regenerate geotrip's sample trip and its EXIF test fixtures.

Writes, relative to the repository root (or to --root DIR):

  SampleImages/                     a small, realistic 5-day trip (Portugal, then
                                    Spain) shot with a phone and a camera, plus a
                                    few awkward files; README.md, ground-truth.json
                                    (what this script intended) and exiftool.json
                                    (what exiftool independently reads back).
  Tests/GeoTripCoreTests/Fixtures/  one small file per bad-value / format case;
                                    README.md, expected.json and exiftool.json.

Dev-time only. Needs Python 3.9+, Pillow (`pip install Pillow`), exiftool and
heif-enc (libheif's examples; their heif-info, if present, is used to check the
HEIC fixtures). The output is deterministic: every random choice
comes from a fixed seed, and none of the tools embeds a time stamp, so two runs
with the same tool versions give byte-identical files.

Usage:
    python3 scripts/make-sample-images.py              # regenerate in the repo
    python3 scripts/make-sample-images.py --root /tmp/x  # elsewhere, e.g. to diff
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import random
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

SEED = "geotrip-sample-images-v1"
# The versions the committed files were made with. Other versions still work,
# but the JPEG/HEVC encoders may then produce different (equally valid) bytes.
KNOWN_EXIFTOOL = "12.57"

SAMPLE_DIR = Path("SampleImages")
FIXTURE_DIR = Path("Tests/GeoTripCoreTests/Fixtures")

# Fields for the reference exiftool dump. Both folders use the same command,
# run from inside the folder on "." so that SourceFile is relative to it.
EXIFTOOL_FIELDS = [
    "GPSLatitude", "GPSLongitude", "GPSLatitudeRef", "GPSLongitudeRef",
    "GPSAltitude", "GPSAltitudeRef", "GPSDateStamp", "GPSTimeStamp",
    "GPSVersionID",
    "DateTimeOriginal", "SubSecTimeOriginal", "OffsetTimeOriginal",
    "CreateDate", "SubSecTimeDigitized", "OffsetTimeDigitized",
    "ModifyDate", "SubSecTime", "OffsetTime",
    "Make", "Model", "Orientation", "ImageWidth", "ImageHeight",
    "ExifByteOrder", "ThumbnailOffset", "ThumbnailLength",
    # Plain names above give the raw GPS IFD values (unsigned, with a Ref);
    # the Composite tags are exiftool's signed interpretation.
    "Composite:GPSLatitude", "Composite:GPSLongitude", "Composite:GPSAltitude",
    "Warning", "Error",
]
EXIFTOOL_JSON_CMD = (["exiftool", "-json", "-n", "-G1", "-r", "-ext", "*", "-fast2"]
                     + ["-" + f for f in EXIFTOOL_FIELDS] + ["."])


def die(msg: str) -> None:
    sys.exit(f"make-sample-images: {msg}")


# --------------------------------------------------------------------------
# Tools
# --------------------------------------------------------------------------

def check_tools() -> dict:
    """Fail early, with install hints, rather than half-way through a run."""
    missing, pillow = [], None
    try:
        import PIL as pillow
    except ImportError:
        missing.append("Pillow  (pip install Pillow)")
    if not shutil.which("exiftool"):
        missing.append("exiftool  (apt-get install libimage-exiftool-perl | brew install exiftool)")
    if not shutil.which("heif-enc"):
        missing.append("heif-enc  (apt-get install libheif-examples | brew install libheif)")
    if missing:
        die("missing tools:\n  " + "\n  ".join(missing))
    exiftool_ver = run(["exiftool", "-ver"]).stdout.strip()
    if exiftool_ver != KNOWN_EXIFTOOL:
        print(f"warning: exiftool {exiftool_ver}; the committed files were made with "
              f"{KNOWN_EXIFTOOL}, so some bytes may differ", file=sys.stderr)
    # heif-enc has no --version; its help banner names the libheif version.
    banner = subprocess.run(["heif-enc", "--help"], capture_output=True, text=True)
    heif_ver = "unknown"
    for line in (banner.stdout + banner.stderr).splitlines():
        if "libheif version:" in line:
            heif_ver = line.split("libheif version:")[1].strip()
            break
    return {"exiftool": exiftool_ver, "libheif": heif_ver, "Pillow": pillow.__version__}


def run(cmd, cwd=None, check=True) -> subprocess.CompletedProcess:
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True)
    if check and r.returncode != 0:
        die(f"command failed ({r.returncode}): {shlex.join(map(str, cmd))}\n{r.stderr}")
    return r


def exiftool_batch(jobs: list, tmp: Path) -> None:
    """Run many exiftool writes in one process (one -execute block per file).

    Always -n: without it exiftool's print conversion gets in the way. It
    refuses "0000:00:00 00:00:00" and "25:61", and -GPSAltitudeRef=1 is read
    as "a positive altitude" and silently written as 0 (above sea level).
    """
    lines = []
    for path, args in jobs:
        lines += list(args) + [str(path), "-execute"]
    argfile = tmp / "exiftool-args.txt"
    argfile.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run(["exiftool", "-@", argfile, "-common_args", "-overwrite_original", "-n", "-q"],
            check=False)
    # Any message at all is a surprise worth stopping for.
    if r.returncode != 0 or r.stderr.strip():
        die(f"exiftool write batch failed:\n{r.stderr}")


def exiftool_json(folder: Path) -> list:
    """The reference dump: EXIFTOOL_JSON_CMD run inside `folder`.

    exiftool -r lists files in directory (readdir) order, which depends on the
    file system, so records are sorted by SourceFile and the leading "./" is
    dropped to make paths match ground-truth.json / expected.json.
    """
    r = run(EXIFTOOL_JSON_CMD, cwd=folder, check=False)
    if r.returncode != 0:
        die(f"exiftool read failed in {folder}:\n{r.stderr}")
    records = json.loads(r.stdout)
    for rec in records:
        rec["SourceFile"] = rec["SourceFile"].removeprefix("./")
    return sorted(records, key=lambda rec: rec["SourceFile"])


def exiftool_all(folder: Path) -> dict:
    """Every tag of every file (-a), for verification only."""
    r = run(["exiftool", "-json", "-n", "-G1", "-a", "-r", "-ext", "*", "."], cwd=folder,
            check=False)
    return {rec["SourceFile"].removeprefix("./"): rec for rec in json.loads(r.stdout)}


def write_json(path: Path, data) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------
# A small TIFF/IFD walker, used to patch values exiftool will not write and
# to check, independently of exiftool, what ended up in the files.
# --------------------------------------------------------------------------

TYPE_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4}
SUB_IFDS = {0x8769: "ExifIFD", 0x8825: "GPS", 0xA005: "InteropIFD"}
GPS_TAGS = {"GPSVersionID": 0x0, "GPSLatitudeRef": 0x1, "GPSLatitude": 0x2,
            "GPSLongitudeRef": 0x3, "GPSLongitude": 0x4, "GPSAltitudeRef": 0x5,
            "GPSAltitude": 0x6, "GPSTimeStamp": 0x7, "GPSDateStamp": 0x1D}


@dataclass
class Entry:
    tag: int
    type: int
    count: int
    entry_pos: int   # absolute file position of the 12-byte entry
    value_pos: int   # absolute file position of the value (inline or not)


@dataclass
class Ifd:
    pos: int                      # absolute position of the entry count
    entries: dict = field(default_factory=dict)  # tag -> Entry


class Exif:
    """A parsed TIFF structure inside `data` (a whole file, kept as bytes).

    All positions are absolute in the file; TIFF offsets are relative to
    `tiff_start`, which is where the "II"/"MM" header sits.
    """

    def __init__(self, data: bytes, tiff_start: int):
        self.data = bytearray(data)
        self.tiff_start = tiff_start
        order = bytes(self.data[tiff_start:tiff_start + 2])
        if order not in (b"II", b"MM"):
            raise ValueError(f"no TIFF header at {tiff_start}")
        self.bo = "<" if order == b"II" else ">"
        self.byte_order = order.decode()
        if self.u16(tiff_start + 2) != 42:
            raise ValueError("bad TIFF magic")
        self.ifds: dict[str, Ifd] = {}
        ifd0 = self.u32(tiff_start + 4)
        next_ifd = self._walk("IFD0", ifd0)
        if next_ifd:
            self._walk("IFD1", next_ifd)

    def u16(self, pos): return struct.unpack_from(self.bo + "H", self.data, pos)[0]
    def u32(self, pos): return struct.unpack_from(self.bo + "I", self.data, pos)[0]

    def _walk(self, name: str, offset: int) -> int:
        pos = self.tiff_start + offset
        ifd = Ifd(pos)
        self.ifds[name] = ifd
        count = self.u16(pos)
        for i in range(count):
            e = pos + 2 + 12 * i
            tag, typ, n = struct.unpack_from(self.bo + "HHI", self.data, e)
            size = TYPE_SIZES.get(typ, 1) * n
            value_pos = e + 8 if size <= 4 else self.tiff_start + self.u32(e + 8)
            ifd.entries[tag] = Entry(tag, typ, n, e, value_pos)
            if tag in SUB_IFDS:
                self._walk(SUB_IFDS[tag], self.u32(e + 8))
        return self.u32(pos + 2 + 12 * count)

    def entry(self, ifd: str, tag) -> Entry:
        tag = GPS_TAGS.get(tag, tag)
        return self.ifds[ifd].entries[tag]

    def rationals(self, ifd: str, tag) -> list:
        e = self.entry(ifd, tag)
        return [struct.unpack_from(self.bo + "II", self.data, e.value_pos + 8 * i)
                for i in range(e.count)]

    def ascii(self, ifd: str, tag) -> bytes:
        e = self.entry(ifd, tag)
        return bytes(self.data[e.value_pos:e.value_pos + e.count])

    def set_rational(self, ifd: str, tag, index: int, num: int, den: int) -> None:
        e = self.entry(ifd, tag)
        assert e.type == 5 and index < e.count
        struct.pack_into(self.bo + "II", self.data, e.value_pos + 8 * index, num, den)

    def set_ascii_same_length(self, ifd: str, tag, text: bytes) -> None:
        """Overwrite an ASCII value in place; `text` must fill count-1 bytes + NUL."""
        e = self.entry(ifd, tag)
        assert e.type == 2 and len(text) + 1 == e.count, (text, e.count)
        self.data[e.value_pos:e.value_pos + e.count] = text + b"\0"

    def empty_ifd(self, ifd: str) -> None:
        """Make an IFD have zero entries (and no next IFD)."""
        pos = self.ifds[ifd].pos
        struct.pack_into(self.bo + "HI", self.data, pos, 0, 0)


def jpeg_exif(data: bytes) -> tuple:
    """(APP1 marker position, TIFF header position) of the Exif APP1 segment."""
    if data[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG")
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise ValueError(f"JPEG marker expected at {pos}")
        marker = data[pos + 1]
        if marker == 0xDA:  # start of scan: no metadata after this
            break
        length = struct.unpack_from(">H", data, pos + 2)[0]
        if marker == 0xE1 and data[pos + 4:pos + 10] == b"Exif\0\0":
            return pos, pos + 10
        pos += 2 + length
    raise ValueError("no Exif APP1 segment")


def read_exif(path: Path) -> Exif:
    data = path.read_bytes()
    suffix = path.suffix.lower()
    if suffix in (".jpg", ".jpeg"):
        return Exif(data, jpeg_exif(data)[1])
    if suffix in (".tif", ".tiff"):
        return Exif(data, 0)
    if suffix == ".png":
        return Exif(data, png_chunks(data)["eXIf"][0])
    if suffix == ".heic":
        return Exif(data, heic_exif_item(data)["tiff_start"])
    raise ValueError(path)


def patch_jpeg(path: Path, fn: Callable[[Exif], None]) -> None:
    exif = read_exif(path)
    fn(exif)
    path.write_bytes(bytes(exif.data))


def relocate_jpeg_ascii(path: Path, ifd: str, tag, text: bytes) -> None:
    """Give an ASCII tag a longer value by appending it to the APP1 segment.

    The TIFF data ends where the APP1 segment ends, so bytes appended there
    move no other offset; only the entry's count/offset and the segment length
    change.
    """
    data = bytearray(path.read_bytes())
    app1, tiff_start = jpeg_exif(bytes(data))
    seg_len = struct.unpack_from(">H", data, app1 + 2)[0]
    seg_end = app1 + 2 + seg_len
    pad = b"\0" * ((seg_end - tiff_start) % 2)   # TIFF values start on even offsets
    value = text + b"\0"
    new_offset = seg_end + len(pad) - tiff_start
    data[seg_end:seg_end] = pad + value
    struct.pack_into(">H", data, app1 + 2, seg_len + len(pad) + len(value))
    exif = Exif(bytes(data), tiff_start)
    e = exif.entry(ifd, tag)
    struct.pack_into(exif.bo + "II", exif.data, e.entry_pos + 4, len(value), new_offset)
    path.write_bytes(bytes(exif.data))


def png_chunks(data: bytes) -> dict:
    """chunk type -> (data position, length), first occurrence; plus the order."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, order, pos = {}, [], 8
    while pos < len(data):
        n, typ = struct.unpack_from(">I4s", data, pos)
        typ = typ.decode("latin-1")
        chunks.setdefault(typ, (pos + 8, n))
        order.append(typ)
        pos += 12 + n
    chunks["_order"] = order
    return chunks


def bmff_boxes(data, start: int, end: int):
    """(type, box start, body start, box end) for each ISO BMFF box in data[start:end]."""
    pos = start
    while pos + 8 <= end:
        size, typ = struct.unpack_from(">I4s", data, pos)
        header = 8
        if size == 1:
            size, header = struct.unpack_from(">Q", data, pos + 8)[0], 16
        elif size == 0:
            size = end - pos
        yield typ.decode("latin-1"), pos, pos + header, pos + size
        pos += size


def heic_meta(data) -> dict:
    """The parts of a HEIF file's structure the script needs.

    Top-level boxes, meta's children, the item types from iinf, and every
    item's location from iloc. iloc fields are kept as (file position, size in
    bytes, value) so that relocate_heic_exif() can rewrite them in place.
    """
    top = list(bmff_boxes(data, 0, len(data)))
    meta = next(b for b in top if b[0] == "meta")
    children = {t: (body, end) for t, _, body, end in bmff_boxes(data, meta[2] + 4, meta[3])}

    # iinf: item id -> item type (infe versions 2 and 3 carry the type)
    body, end = children["iinf"]
    version = data[body]
    p = body + 4 + (2 if version == 0 else 4)
    item_types = []
    for t, _, ibody, iend in bmff_boxes(data, p, end):
        if t != "infe":
            continue
        v = data[ibody]
        if v >= 2:
            item_id = struct.unpack_from(">H" if v == 2 else ">I", data, ibody + 4)[0]
            id_len = 2 if v == 2 else 4
            item_type = data[ibody + 4 + id_len + 2:ibody + 4 + id_len + 6]
            item_types.append((item_id, bytes(item_type).decode("latin-1")))

    # iloc (ISO/IEC 14496-12 8.11.3), versions 0, 1 and 2: four nibbles give the
    # byte sizes of offset, length, base_offset and (v1/v2 only) extent_index.
    body, _ = children["iloc"]
    version = data[body]
    if version > 2:
        raise ValueError(f"iloc version {version}")
    sizes = struct.unpack_from(">H", data, body + 4)[0]
    off_size, len_size, base_size = sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15
    idx_size = sizes & 15 if version in (1, 2) else 0
    p = body + 6

    def field(n):
        nonlocal p
        f = (p, n, int.from_bytes(data[p:p + n], "big") if n else 0)
        p += n
        return f

    items = {}
    for _ in range(field(2 if version < 2 else 4)[2]):
        item_id = field(2 if version < 2 else 4)[2]
        # construction_method: 0 = file offset, 1 = idat, 2 = item (v1/v2 only)
        method = field(2)[2] & 15 if version in (1, 2) else 0
        data_ref = field(2)[2]
        base = field(base_size)
        extents = []
        for _ in range(field(2)[2]):
            field(idx_size)
            extents.append({"offset": field(off_size), "length": field(len_size)})
        items[item_id] = {"method": method, "data_ref": data_ref, "base": base,
                          "extents": extents}
    return {"top": top, "children": children, "item_types": item_types, "iloc": items,
            "iloc_version": version,
            "iloc_sizes": {"offset": off_size, "length": len_size, "base": base_size,
                           "index": idx_size}}


def heic_exif_item(data: bytes) -> dict:
    """Find the Exif item of a HEIF file via meta/iinf + meta/iloc.

    Returns where its payload sits, whether that payload starts with the
    "Exif\\0\\0" marker, and where the TIFF header is.
    """
    h = heic_meta(data)
    exif_ids = [i for i, t in h["item_types"] if t == "Exif"]
    if not exif_ids or exif_ids[-1] not in h["iloc"]:
        raise ValueError("no Exif item")
    item = h["iloc"][exif_ids[-1]]
    assert item["method"] == 0 and len(item["extents"]) == 1
    start = item["base"][2] + item["extents"][0]["offset"][2]
    length = item["extents"][0]["length"][2]
    header_offset = struct.unpack_from(">I", data, start)[0]
    top = h["top"]
    # A file may have several mdat boxes (heic-exif-at-end.heic has two): report
    # the one holding the Exif item, else the first.
    mdats = [b for b in top if b[0] == "mdat"]
    mdat = next((b for b in mdats if b[2] <= start < b[3]), mdats[0])
    return {
        "item_id": exif_ids[-1],
        "offset": start,
        "length": length,
        "file_size": len(data),
        "at_end": start + length == len(data),
        "in_mdat": mdat[2] <= start < mdat[3],
        "mdat_start": mdat[2],   # first byte after the mdat header
        "mdat_number": mdats.index(mdat) + 1,
        "mdat_count": len(mdats),
        "exif_header_offset": header_offset,
        "has_exif_marker": data[start + 4:start + 10] == b"Exif\0\0",
        "tiff_start": start + 4 + header_offset,
        "top_level_boxes": [b[0] for b in top],
        "item_types": [t for _, t in h["item_types"]],
        "has_idat": "idat" in h["children"],
    }


def relocate_heic_exif(path: Path, drop_marker: bool = False) -> str:
    """Move a HEIF file's Exif item payload to a new mdat box at the very end.

    exiftool always puts the Exif item first in mdat, but some phones and
    editors write it after the image data. So: append the payload in a new
    top-level mdat box (ISO BMFF allows several), point the item's iloc extent
    at it, and zero the old bytes, so that a reader which guesses ("Exif is at
    the start of mdat") instead of following iloc finds nothing. iloc fields
    are rewritten in place at their existing sizes: no box grows and no other
    offset in the file moves.

    drop_marker: also remove the "Exif\\0\\0" marker, leaving the 4-byte
    exif_tiff_header_offset = 0 followed directly by the TIFF header (allowed by
    ISO/IEC 23008-12 annex A, and written by some tools).

    Returns a sentence for the fixture's "made" text.
    """
    data = bytearray(path.read_bytes())
    h = heic_meta(data)
    name = path.name
    last = h["top"][-1]
    if struct.unpack_from(">I", data, last[1])[0] == 0:
        die(f"{name}: the last box ({last[0]}) has size 0 (to end of file); "
            "a box appended after it would land inside it")
    exif_ids = [i for i, t in h["item_types"] if t == "Exif"]
    if len(exif_ids) != 1 or exif_ids[0] not in h["iloc"]:
        die(f"{name}: expected exactly one Exif item with an iloc entry, got {exif_ids}")
    item = h["iloc"][exif_ids[0]]
    if item["method"] != 0:
        die(f"{name}: Exif item has construction_method {item['method']}, not 0 (file offset)")
    if item["data_ref"] != 0:
        die(f"{name}: Exif item is in another file (data_reference_index {item['data_ref']})")
    if len(item["extents"]) != 1:
        die(f"{name}: Exif item has {len(item['extents'])} extents, expected 1")
    base, ext = item["base"], item["extents"][0]
    start, length = base[2] + ext["offset"][2], ext["length"][2]
    if ext["length"][1] == 0 or length == 0:
        # An extent length of 0 (or none) means "to the end of the file".
        die(f"{name}: Exif extent has no explicit length")
    if start + length > len(data):
        die(f"{name}: Exif extent {start}..{start + length} is past the end of the file")
    payload = bytes(data[start:start + length])
    tiff = 4 + struct.unpack_from(">I", payload, 0)[0]
    if payload[tiff:tiff + 4] not in (b"MM\0\x2a", b"II\x2a\0"):
        die(f"{name}: no TIFF header at payload byte {tiff}")
    if drop_marker:
        payload = bytes(4) + payload[tiff:]

    data[start:start + length] = bytes(length)
    new_start = len(data) + 8
    data += struct.pack(">I4s", 8 + len(payload), b"mdat") + payload

    def put(fld, value, what):
        pos, size, _ = fld
        if size == 0 or value >= 1 << (8 * size):
            die(f"{name}: iloc {what} {value} does not fit its {size}-byte field")
        data[pos:pos + size] = value.to_bytes(size, "big")

    if ext["offset"][1]:
        put(ext["offset"], new_start - base[2], "extent_offset")
        changed = f"extent_offset {ext['offset'][2]} -> {new_start - base[2]}"
    else:   # offset_size 0: the position lives in base_offset alone
        put(base, new_start, "base_offset")
        changed = f"base_offset {base[2]} -> {new_start}"
    put(ext["length"], len(payload), "extent_length")
    if len(payload) != length:
        changed += f", extent_length {length} -> {len(payload)}"
    path.write_bytes(bytes(data))

    after = heic_exif_item(bytes(data))
    assert (after["offset"], after["length"], after["at_end"]) == (new_start, len(payload), True)
    assert not any(data[start:start + length])
    return (f"the script moved the Exif payload from bytes {start}..{start + length} (now "
            f"zeroed) to {new_start}..{new_start + len(payload)} in a new mdat box appended "
            f"after the image data, and rewrote iloc (version {h['iloc_version']}) in place: "
            f"{changed}")


# --------------------------------------------------------------------------
# Pictures. Tiny, but each one a distinct little "scene" so files differ and
# a person looking at them can tell the stops apart.
# --------------------------------------------------------------------------

def scene(rng: random.Random, w: int, h: int, palette: tuple, noise: int = 6):
    from PIL import Image
    sky_top, sky_bottom, ground, accent = palette
    horizon = int(h * rng.uniform(0.45, 0.65))
    bx0 = int(w * rng.uniform(0.1, 0.55))
    bx1 = bx0 + int(w * rng.uniform(0.15, 0.35))
    btop = max(2, int(horizon - h * rng.uniform(0.15, 0.35)))
    px = bytearray()
    for y in range(h):
        for x in range(w):
            if bx0 <= x < bx1 and btop <= y < horizon:
                c = accent
            elif y < horizon:
                t = y / horizon
                c = tuple(a + (b - a) * t for a, b in zip(sky_top, sky_bottom))
            else:
                t = (y - horizon) / max(1, h - horizon)
                c = tuple(v * (1 - 0.4 * t) for v in ground)
            n = rng.randint(-noise, noise)
            px += bytes(max(0, min(255, int(v) + n)) for v in c)
    return Image.frombytes("RGB", (w, h), bytes(px))


def save_jpeg(img, path: Path, quality=70) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, "JPEG", quality=quality)


# --------------------------------------------------------------------------
# A. The trip
# --------------------------------------------------------------------------

@dataclass
class Stop:
    name: str
    lat: float
    lon: float
    alt: float          # rough ground elevation, metres
    country: str
    palette: tuple


STOPS = {
    "hotel": Stop("Hotel in Baixa, Lisboa", 38.7110, -9.1370, 15.0, "PT",
                  ((120, 160, 220), (200, 210, 230), (150, 130, 110), (230, 220, 190))),
    "belem": Stop("Torre de Belém", 38.6916, -9.2160, 4.0, "PT",
                  ((90, 150, 230), (180, 210, 240), (60, 110, 150), (225, 215, 185))),
    "jeronimos": Stop("Mosteiro dos Jerónimos", 38.6979, -9.2068, 9.0, "PT",
                      ((100, 150, 225), (190, 205, 235), (120, 150, 90), (215, 200, 160))),
    "metro": Stop("Metro Baixa-Chiado (platform)", 38.7106, -9.1395, -12.0, "PT",
                  ((60, 60, 70), (90, 90, 100), (110, 100, 90), (40, 120, 200))),
    "pena": Stop("Palácio da Pena, Sintra", 38.7876, -9.3906, 480.0, "PT",
                 ((110, 160, 215), (200, 215, 225), (60, 110, 60), (235, 190, 60))),
    "espana": Stop("Plaza de España, Sevilla", 37.3772, -5.9869, 9.0, "ES",
                   ((70, 140, 235), (170, 205, 245), (200, 150, 100), (190, 80, 50))),
    "catedral": Stop("Catedral de Sevilla", 37.3858, -5.9931, 12.0, "ES",
                     ((80, 145, 230), (175, 205, 240), (170, 150, 120), (210, 180, 130))),
    "prado": Stop("Museo del Prado, Madrid", 40.4138, -3.6921, 660.0, "ES",
                  ((100, 150, 220), (195, 210, 235), (140, 130, 120), (200, 120, 90))),
    "retiro": Stop("Parque del Retiro, Madrid", 40.4153, -3.6845, 670.0, "ES",
                   ((95, 155, 225), (185, 210, 240), (70, 130, 60), (120, 160, 200))),
    "mayor": Stop("Plaza Mayor, Madrid", 40.4155, -3.7074, 650.0, "ES",
                  ((40, 50, 110), (230, 140, 90), (120, 90, 70), (170, 60, 40))),
    "barajas": Stop("Aeropuerto Madrid-Barajas T4", 40.4983, -3.5676, 610.0, "ES",
                    ((160, 190, 230), (220, 225, 235), (90, 90, 95), (240, 200, 60))),
}
OFFSET = {"PT": "+01:00", "ES": "+02:00"}   # Lisbon WEST / Spain CEST, in June
FOLDER = {1: "2025-06-10 Lisboa", 2: "2025-06-11 Sintra", 3: "Sevilla – día 3",
          4: "", 5: ""}
# NFC on disk and in the JSON, whatever form an editor saved the literal in.
FOLDER = {day: unicodedata.normalize("NFC", name) for day, name in FOLDER.items()}
PHONE = ("Apple", "iPhone 13")
FUJI = ("FUJIFILM", "X-T30")


@dataclass
class Shot:
    day: int
    stop: str
    camera: tuple
    local: str                    # "YYYY-MM-DD HH:MM:SS", wall clock at the stop
    subsec: Optional[str] = None  # phone only
    layout: str = "landscape"     # landscape | portrait (stored 120x160) | rot6
    dates: str = "all"            # Fuji: all | create | modify | none
    thumb: bool = False
    heic: bool = False
    name: str = ""


def P(day, stop, local, subsec, **kw):
    return Shot(day, stop, PHONE, local, subsec, **kw)


def F(day, stop, local, **kw):
    return Shot(day, stop, FUJI, local, **kw)


# Times are local wall-clock; phone and Fuji interleave at several stops.
SHOTS = [
    # Day 1, Lisboa
    P(1, "hotel", "2025-06-10 08:12:05", "123"),
    P(1, "hotel", "2025-06-10 08:13:40", "870"),
    P(1, "hotel", "2025-06-10 08:31:22", "004", layout="rot6"),
    P(1, "belem", "2025-06-10 10:05:10", "250", thumb=True),
    P(1, "belem", "2025-06-10 10:06:02", "610"),
    F(1, "belem", "2025-06-10 10:07:15"),
    P(1, "belem", "2025-06-10 10:09:47", None),
    F(1, "belem", "2025-06-10 10:12:40"),
    P(1, "belem", "2025-06-10 10:15:30", "333", layout="portrait"),
    P(1, "belem", "2025-06-10 10:21:12", "090"),
    P(1, "jeronimos", "2025-06-10 11:02:33", "512"),
    P(1, "jeronimos", "2025-06-10 11:10:05", "777", layout="rot6"),
    F(1, "jeronimos", "2025-06-10 11:14:22", dates="create"),
    P(1, "jeronimos", "2025-06-10 11:18:50", "045"),
    P(1, "jeronimos", "2025-06-10 11:35:12", "300"),
    P(1, "hotel", "2025-06-10 22:41:09", "640"),
    # Still the evening of day 1, but after local midnight: GPS date is the 10th.
    P(1, "hotel", "2025-06-11 00:12:30", "018"),
    # Day 2, Sintra (metro below sea level on the way)
    P(2, "metro", "2025-06-11 08:47:13", "201"),
    P(2, "pena", "2025-06-11 11:20:00", "500"),
    F(2, "pena", "2025-06-11 11:22:30", dates="modify"),
    P(2, "pena", "2025-06-11 11:24:18", "150", thumb=True),
    P(2, "pena", "2025-06-11 11:40:51", None, layout="rot6"),
    F(2, "pena", "2025-06-11 11:45:10", dates="none"),
    P(2, "pena", "2025-06-11 12:02:07", "808"),
    F(2, "pena", "2025-06-11 12:05:05", thumb=True),
    P(2, "pena", "2025-06-11 12:15:44", "420"),
    P(2, "hotel", "2025-06-11 21:30:12", "999"),
    P(2, "hotel", "2025-06-11 21:31:02", "011"),
    # Day 3, Sevilla (Spain: one hour later on the clock)
    P(3, "espana", "2025-06-12 17:05:30", "610"),
    P(3, "espana", "2025-06-12 17:10:14", "100"),
    F(3, "espana", "2025-06-12 17:12:00"),
    P(3, "espana", "2025-06-12 17:22:45", "707", layout="portrait"),
    P(3, "espana", "2025-06-12 17:30:08", "385"),
    P(3, "catedral", "2025-06-12 18:40:11", "240"),
    P(3, "catedral", "2025-06-12 18:45:57", None),
    P(3, "catedral", "2025-06-12 18:52:03", "560", layout="rot6"),
    P(3, "catedral", "2025-06-12 19:05:29", "930"),
    # Day 4, Madrid (top level, no day folder)
    P(4, "prado", "2025-06-13 10:30:00", "050", thumb=True),
    P(4, "prado", "2025-06-13 10:41:12", "612"),
    P(4, "prado", "2025-06-13 11:05:48", "275"),
    P(4, "prado", "2025-06-13 11:30:21", "880"),
    P(4, "retiro", "2025-06-13 13:10:05", "140"),
    P(4, "retiro", "2025-06-13 13:25:40", "460"),
    F(4, "retiro", "2025-06-13 13:28:15"),
    P(4, "retiro", "2025-06-13 13:40:02", "720", layout="portrait"),
    P(4, "retiro", "2025-06-13 13:45:30", "310", heic=True, name="IMG_0100.HEIC"),
    P(4, "mayor", "2025-06-13 20:15:44", "190"),
    P(4, "mayor", "2025-06-13 20:20:10", "505"),
    F(4, "mayor", "2025-06-13 20:22:40"),
    P(4, "mayor", "2025-06-13 20:31:55", "860"),
    P(4, "mayor", "2025-06-13 20:40:05", "615", heic=True, name="IMG_0101.HEIC"),
    # Day 5
    P(5, "barajas", "2025-06-14 07:10:22", "480"),
]
# The photo that ends up truncated; generated like any phone photo, then cut.
TRUNCATED = P(4, "mayor", "2025-06-13 20:45:00", "125", name="IMG_0099.JPG")
TRUNCATE_AT = 200
# File numbers swapped against shooting order, so name order != time order.
PHONE_SWAPS = [(5, 7), (13, 14), (27, 29), (36, 38)]
FUJI_SWAPS = [(1004, 1005)]


def assign_names() -> None:
    def numbered(shots, swaps):
        nums = {i: i for i in range(1, len(shots) + 1)}
        for a, b in swaps:
            nums[a], nums[b] = nums[b], nums[a]
        return nums

    phone = [s for s in SHOTS if s.camera == PHONE and not s.heic]
    fuji = [s for s in SHOTS if s.camera == FUJI]
    pn = numbered(phone, PHONE_SWAPS)
    for i, s in enumerate(phone, 1):
        s.name = f"IMG_{pn[i]:04d}.JPG"
    fn = numbered(fuji, [(a - 1000, b - 1000) for a, b in FUJI_SWAPS])
    for i, s in enumerate(fuji, 1):
        s.name = f"DSCF{1000 + fn[i]:04d}.JPG"


def scatter(rng: random.Random, stop: Stop) -> tuple:
    """A point 10-60 m from the stop centre (flat-earth is fine at this scale)."""
    d = rng.uniform(10, 60)
    bearing = rng.uniform(0, 2 * math.pi)
    lat = stop.lat + d * math.cos(bearing) / 111_320
    lon = stop.lon + d * math.sin(bearing) / (111_320 * math.cos(math.radians(stop.lat)))
    return round(lat, 6), round(lon, 6)


def exif_time(local: dt.datetime) -> str:
    return local.strftime("%Y:%m:%d %H:%M:%S")


def iso(t: Optional[dt.datetime]) -> Optional[str]:
    return t.strftime("%Y-%m-%dT%H:%M:%S") if t else None


def shot_plan(s: Shot) -> dict:
    """Everything the script intends for one shot: the ground truth."""
    stop = STOPS[s.stop]
    rng = random.Random(f"{SEED}:{s.name}:{s.local}")
    local = dt.datetime.strptime(s.local, "%Y-%m-%d %H:%M:%S")
    offset = OFFSET[stop.country]
    if s.layout == "portrait":
        w, h, orientation = 120, 160, 1
    else:
        w, h, orientation = 160, 120, 6 if s.layout == "rot6" else 1
    plan = {
        "path": (FOLDER[s.day] + "/" if FOLDER[s.day] else "") + s.name,
        "kind": "photo",
        "format": "heic" if s.heic else "jpeg",
        "camera": {"make": s.camera[0], "model": s.camera[1]},
        "day": s.day,
        "stop": s.stop,
        "stopName": stop.name,
        "stopCentre": {"lat": stop.lat, "lon": stop.lon},
        "latitude": None, "longitude": None, "altitude": None,
        "localTime": None, "subSecTimeOriginal": None, "offset": None, "gpsTime": None,
        "dateSource": None,
        "orientation": orientation, "width": w, "height": h,
        "thumbnail": s.thumb,
        "byteOrder": "MM" if s.camera == PHONE else "II",
        "note": None,
    }
    if s.camera == PHONE:
        lat, lon = scatter(rng, stop)
        # The metro photo sits exactly at -12 m so the negative case is easy to read.
        alt = stop.alt if s.stop == "metro" else round(stop.alt + rng.uniform(-2, 2), 1)
        tz = dt.timezone(dt.timedelta(hours=int(offset[:3])))
        utc = local.replace(tzinfo=tz).astimezone(dt.timezone.utc)
        plan.update(latitude=lat, longitude=lon, altitude=alt, localTime=iso(local),
                    subSecTimeOriginal=s.subsec, offset=offset,
                    gpsTime=iso(utc) + "Z", dateSource="DateTimeOriginal")
    else:
        source = {"all": "DateTimeOriginal", "create": "CreateDate",
                  "modify": "ModifyDate", "none": None}[s.dates]
        plan.update(localTime=iso(local) if source else None, dateSource=source)
    plan["_rng"] = rng
    plan["_local"] = local
    return plan


def exif_args(s: Shot, plan: dict, thumb_path: Optional[Path]) -> list:
    make, model = s.camera
    args = [f"-Make={make}", f"-Model={model}", f"-Orientation={plan['orientation']}"]
    t = exif_time(plan["_local"])
    if s.camera == PHONE:
        lat, lon, alt = plan["latitude"], plan["longitude"], plan["altitude"]
        utc = dt.datetime.strptime(plan["gpsTime"], "%Y-%m-%dT%H:%M:%SZ")
        args += [
            "-Software=18.5",
            f"-ModifyDate={t}", f"-DateTimeOriginal={t}", f"-CreateDate={t}",
            f"-OffsetTime={plan['offset']}", f"-OffsetTimeOriginal={plan['offset']}",
            f"-OffsetTimeDigitized={plan['offset']}",
            f"-ExifImageWidth={plan['width']}", f"-ExifImageHeight={plan['height']}",
            # exiftool writes the unsigned magnitude; the sign lives in the Ref tags.
            f"-GPSLatitude={abs(lat)}", f"-GPSLatitudeRef={'N' if lat >= 0 else 'S'}",
            f"-GPSLongitude={abs(lon)}", f"-GPSLongitudeRef={'E' if lon >= 0 else 'W'}",
            f"-GPSAltitude={abs(alt)}", f"-GPSAltitudeRef={1 if alt < 0 else 0}",
            f"-GPSDateStamp={utc:%Y:%m:%d}", f"-GPSTimeStamp={utc:%H:%M:%S}",
        ]
        if s.subsec:
            args += [f"-SubSecTimeOriginal={s.subsec}", f"-SubSecTimeDigitized={s.subsec}"]
    else:
        # Fuji bodies write little-endian EXIF; only honoured when the EXIF is new.
        args += ["-ExifByteOrder=II", "-Software=Digital Camera X-T30 Ver4.20",
                 f"-ExifImageWidth={plan['width']}", f"-ExifImageHeight={plan['height']}"]
        if s.dates == "all":
            args += [f"-ModifyDate={t}", f"-DateTimeOriginal={t}", f"-CreateDate={t}"]
        elif s.dates == "create":
            args += [f"-CreateDate={t}"]
        elif s.dates == "modify":
            args += [f"-ModifyDate={t}"]
    if thumb_path:
        args.append(f"-ThumbnailImage<={thumb_path}")
    return args


def render(s: Shot, plan: dict):
    from PIL import Image
    rng = plan["_rng"]
    palette = STOPS[s.stop].palette
    if s.layout == "rot6":
        # Draw the upright (portrait) scene, store it turned 90° anticlockwise:
        # Orientation 6 tells viewers to turn it back clockwise.
        return scene(rng, 120, 160, palette).transpose(Image.Transpose.ROTATE_90)
    return scene(rng, plan["width"], plan["height"], palette)


def make_sample_images(root: Path, tmp: Path, versions: dict) -> None:
    from PIL import Image
    out = root / SAMPLE_DIR
    if out.exists():
        shutil.rmtree(out)   # entirely generated: nothing else lives here
    out.mkdir(parents=True)
    assign_names()

    plans, jobs = [], []
    for s in SHOTS + [TRUNCATED]:
        plan = shot_plan(s)
        path = out / plan["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        img = render(s, plan)
        thumb = None
        if s.thumb:
            thumb = tmp / f"thumb-{s.name}"
            img.resize((img.width // 4, img.height // 4)).save(thumb, "JPEG", quality=60)
        if s.heic:
            png = tmp / f"{s.name}.png"
            img.save(png)
            run(["heif-enc", "-q", "30", "-o", path, png])
        else:
            save_jpeg(img, path)
        jobs.append((path, exif_args(s, plan, thumb)))
        plans.append(plan)
    exiftool_batch(jobs, tmp)

    # IMG_0099.JPG: keep only the first bytes, which ends inside the APP1/EXIF.
    trunc_plan = plans.pop()
    tpath = out / trunc_plan["path"]
    data = tpath.read_bytes()
    app1, _ = jpeg_exif(data)
    app1_end = app1 + 2 + struct.unpack_from(">H", data, app1 + 2)[0]
    assert app1 + 10 < TRUNCATE_AT < app1_end, "cut must fall inside the EXIF segment"
    tpath.write_bytes(data[:TRUNCATE_AT])
    trunc_info = {"app1_start": app1, "app1_end": app1_end, "full_size": len(data)}

    # The other odd files.
    (out / "notes.txt").write_text(
        "Trip notes: Lisboa 10–11 June, Sevilla 12 June, Madrid 13–14 June. "
        "Remember to copy the Fuji card before flying home.\n", encoding="utf-8")
    shot = Image.new("RGB", (160, 100), (245, 245, 247))
    for i, colour in enumerate([(0, 122, 255), (52, 199, 89), (255, 149, 0)]):
        shot.paste(colour, (10, 10 + 28 * i, 150, 30 + 28 * i))
    shot.save(out / "screenshot.png")

    truth = []
    for p in plans:
        truth.append({k: v for k, v in p.items() if not k.startswith("_")})
    # Same keys as a photo entry, all null, so every entry decodes the same way.
    null_entry = {k: None for k in plans[0] if not k.startswith("_")
                  and k not in ("path", "kind", "format")}
    null_entry["thumbnail"] = False
    truth.append({"path": trunc_plan["path"], "kind": "truncated", "format": "jpeg",
                  **null_entry,
                  "note": f"phone photo (Plaza Mayor) cut to its first {TRUNCATE_AT} bytes, "
                          f"inside the APP1/EXIF segment (bytes {app1}..{app1_end})"})
    truth.append({"path": "notes.txt", "kind": "non-image", "format": "text", **null_entry})
    truth.append({"path": "screenshot.png", "kind": "png", "format": "png", **null_entry,
                  "note": "PNG without any EXIF"})
    truth.sort(key=lambda e: e["path"])

    # First read-back: verify, and collect the facts the README reports.
    dump = {r["SourceFile"]: r for r in exiftool_json(out)}
    full = exiftool_all(out)
    facts = verify_samples(out, truth, dump, full)
    facts["truncated"] = trunc_info

    write_json(out / "ground-truth.json", {
        "generator": "scripts/make-sample-images.py",
        "description": "What the generator intended for each file. latitude/longitude/"
                       "altitude are signed decimal degrees / metres (null = no GPS in the "
                       "file); localTime is the wall-clock time in the file, whole "
                       "seconds (the fraction is subSecTimeOriginal), taken from the tag "
                       "named by dateSource; offset is OffsetTimeOriginal (null = none in "
                       "the file); gpsTime is UTC from GPSDateStamp+GPSTimeStamp. "
                       "stop/stopCentre is where the photo was taken (clustering ground "
                       "truth), even when the file has no GPS; day is the trip day (1-5), "
                       "which can differ from the local date after midnight.",
        "timeZones": {"PT": "Europe/Lisbon, UTC+01:00 in June (WEST)",
                      "ES": "Europe/Madrid, UTC+02:00 in June (CEST)"},
        "stops": stop_table(truth),
        "files": truth,
    })
    (out / "README.md").write_text(sample_readme(truth, facts, versions), encoding="utf-8")
    # Final, reference dump over the finished folder (minus exiftool.json itself).
    write_json(out / "exiftool.json", exiftool_json(out))


def stop_table(truth: list) -> list:
    rows = []
    for key, stop in STOPS.items():
        files = [t for t in truth if t["stop"] == key]
        rows.append({
            "stop": key, "name": stop.name, "lat": stop.lat, "lon": stop.lon,
            "elevation": stop.alt, "country": stop.country, "utcOffset": OFFSET[stop.country],
            "days": sorted({t["day"] for t in files}),
            "count": len(files),
            "phone": sum(t["camera"]["model"] == PHONE[1] for t in files),
            "fuji": sum(t["camera"]["model"] == FUJI[1] for t in files),
        })
    return rows


def close(a, b, tol=1e-6) -> bool:
    return a is not None and b is not None and abs(a - b) <= tol


def verify_samples(out: Path, truth: list, dump: dict, full: dict) -> dict:
    """Compare exiftool's read-back (and our own walker) with the plan. Dies on mismatch."""
    problems, facts = [], {"thumbnails": [], "heic": []}

    def want(cond, path, what):
        if not cond:
            problems.append(f"{path}: {what}")

    for t in truth:
        path = t["path"]
        rec = dump.get(path)
        want(rec is not None, path, "missing from exiftool output")
        if rec is None:
            continue
        if t["kind"] != "photo":
            want(not any(k.startswith(("IFD0:", "GPS:", "ExifIFD:")) for k in rec),
                 path, "unexpected EXIF")
            if t["kind"] == "truncated":
                want("ExifTool:Warning" in rec, path, "no exiftool warning")
            continue
        want(rec.get("IFD0:Make") == t["camera"]["make"], path, "Make")
        want(rec.get("IFD0:Model") == t["camera"]["model"], path, "Model")
        want(rec.get("IFD0:Orientation") == t["orientation"], path, "Orientation")
        want(rec.get("File:ImageWidth") == t["width"], path, "ImageWidth")
        want(rec.get("File:ImageHeight") == t["height"], path, "ImageHeight")
        want("ExifTool:Warning" not in full[path], path, f"warning {full[path].get('ExifTool:Warning')}")
        if t["latitude"] is not None:
            want(close(rec.get("Composite:GPSLatitude"), t["latitude"]), path, "latitude")
            want(close(rec.get("Composite:GPSLongitude"), t["longitude"]), path, "longitude")
            want(close(rec.get("Composite:GPSAltitude"), t["altitude"]), path, "altitude")
            want(rec.get("GPS:GPSAltitudeRef") == (1 if t["altitude"] < 0 else 0), path, "altref")
            gps = f"{rec.get('GPS:GPSDateStamp')} {rec.get('GPS:GPSTimeStamp')}"
            want(gps == t["gpsTime"].replace("-", ":").replace("T", " ").rstrip("Z"),
                 path, f"gps time {gps}")
        else:
            want(not any(k.startswith(("GPS:", "Composite:GPS")) for k in full[path]),
                 path, "unexpected GPS")
        exif_t = t["localTime"].replace("-", ":").replace("T", " ") if t["localTime"] else None
        for tag, group in (("DateTimeOriginal", "ExifIFD"), ("CreateDate", "ExifIFD"),
                           ("ModifyDate", "IFD0")):
            got = rec.get(f"{group}:{tag}")
            expected = exif_t if (t["dateSource"] == tag or
                                  (t["dateSource"] == "DateTimeOriginal" and exif_t)) else None
            want(got == expected, path, f"{tag} {got!r} != {expected!r}")
        sub = rec.get("ExifIFD:SubSecTimeOriginal")
        # exiftool's JSON turns "123" into the number 123 but keeps "045" a string.
        want((str(sub) if sub is not None else None) == t["subSecTimeOriginal"], path, "subsec")
        want(rec.get("ExifIFD:OffsetTimeOriginal") == t["offset"], path, "offset")

        exif = read_exif(out / path)
        want(exif.byte_order == t["byteOrder"], path, "byte order")
        has_thumb = "IFD1:ThumbnailOffset" in rec
        want(has_thumb == t["thumbnail"], path, "thumbnail presence")
        if has_thumb:
            data = (out / path).read_bytes()
            off, n = rec["IFD1:ThumbnailOffset"], rec["IFD1:ThumbnailLength"]
            raw = exif.u32(exif.entry("IFD1", 0x0201).value_pos)
            want(data[off:off + 2] == b"\xff\xd8" and data[off + n - 2:off + n] == b"\xff\xd9",
                 path, "ThumbnailOffset is not an absolute file offset")
            want(raw + exif.tiff_start == off, path, "raw IFD1 offset + TIFF start != exiftool's")
            facts["thumbnails"].append({"path": path, "offset": off, "length": n, "raw": raw,
                                        "tiff_start": exif.tiff_start,
                                        "byteOrder": exif.byte_order})
        if t["format"] == "heic":
            facts["heic"].append({"path": path, **heic_exif_item((out / path).read_bytes())})
    if problems:
        die("verification failed:\n  " + "\n  ".join(problems))
    return facts


EXIF_MARKER = "`Exif\\0\\0`"   # as Markdown; kept out of f-string expressions


def heic_sentence(h: dict, name: str) -> str:
    """One Markdown bullet saying where the Exif item of a HEIC file is."""
    mdat = ("mdat" if h["mdat_count"] == 1 else
            f"mdat box {h['mdat_number']} of {h['mdat_count']}")
    where = (f"the first thing inside {mdat}" if h["offset"] == h["mdat_start"] else
             f"inside {mdat}" if h["in_mdat"] else "outside mdat")
    return (f"- `{name}` ({h['file_size']} bytes; top-level boxes "
            f"{' '.join(h['top_level_boxes'])}; items {', '.join(h['item_types'])}"
            f"{'; idat in meta' if h['has_idat'] else ''}): Exif item {h['item_id']} at bytes "
            f"{h['offset']}..{h['offset'] + h['length']}, {where}, "
            f"{'at' if h['at_end'] else 'not at'} the end of the file. Payload: a 4-byte "
            f"offset ({h['exif_header_offset']}), then "
            f"{EXIF_MARKER if h['has_exif_marker'] else 'no Exif marker'}, then the TIFF "
            f"header at byte {h['tiff_start']}.")


def md_table(header: list, rows: list) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join("" if c is None else str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def sample_readme(truth: list, facts: dict, versions: dict) -> str:
    stops = stop_table(truth)
    photos = [t for t in truth if t["kind"] == "photo"]
    cmd = shlex.join(EXIFTOOL_JSON_CMD)
    stop_rows = [(s["name"], f"{s['lat']:.4f}", f"{s['lon']:.4f}", s["country"],
                  s["utcOffset"], ", ".join(map(str, s["days"])), s["count"], s["phone"],
                  s["fuji"]) for s in stops]
    file_rows = []
    for t in sorted(photos, key=lambda t: (t["localTime"] or "9", t["path"])):
        notes = []
        if t["format"] == "heic":
            notes.append("HEIC")
        if t["altitude"] is not None and t["altitude"] < 0:
            notes.append("below sea level (GPSAltitudeRef 1)")
        if t["gpsTime"] and t["localTime"] and t["gpsTime"][:10] != t["localTime"][:10]:
            notes.append("UTC date differs from local date")
        if t["camera"]["make"] == "FUJIFILM" and t["dateSource"] != "DateTimeOriginal":
            notes.append(f"only {t['dateSource']}" if t["dateSource"] else "no date at all")
        if t["orientation"] == 6:
            notes.append("Orientation 6 (stored 160×120)")
        elif t["height"] > t["width"]:
            notes.append("stored 120×160")
        if t["thumbnail"]:
            notes.append("IFD1 thumbnail")
        if t["camera"]["make"] == "Apple" and not t["subSecTimeOriginal"]:
            notes.append("no SubSecTimeOriginal")
        cam = "iPhone 13" if t["camera"]["make"] == "Apple" else "X-T30"
        loc = (f"{t['latitude']:.6f}, {t['longitude']:.6f}, {t['altitude']} m"
               if t["latitude"] is not None else "—")
        file_rows.append((f"`{t['path']}`", cam, t["stopName"], t["localTime"] or "—",
                          t["offset"] or "—", loc, "; ".join(notes)))
    thumb_rows = [(f"`{x['path']}`", x["byteOrder"], x["tiff_start"], x["raw"], x["offset"],
                   x["length"]) for x in facts["thumbnails"]]
    heic_lines = [heic_sentence(h, h["path"]) for h in facts["heic"]]
    tr = facts["truncated"]
    n_jpeg = sum(1 for t in truth if t["format"] == "jpeg")
    fuji = [t for t in photos if t["camera"]["make"] == "FUJIFILM"]
    return f"""# SampleImages — a small test trip

Generated by `scripts/make-sample-images.py` with Pillow, exiftool and heif-enc
(here: Pillow {versions['Pillow']}, exiftool {versions['exiftool']}, libheif {versions['libheif']}).
The pictures are tiny synthetic scenes, not real photographs; only the metadata
is meant to look real. Do not edit these files by hand: change the script and run

    python3 scripts/make-sample-images.py

which deletes and recreates this whole folder (and the test fixtures).

## The trip

Five days in June 2025, Portugal then Spain: 2025-06-10 .. 2025-06-14.
Two countries, two UTC offsets: Lisbon is UTC+01:00 in June (WEST), Spain UTC+02:00 (CEST).
{len(photos)} photos ({sum(t['format'] == 'jpeg' for t in photos)} JPEG, {sum(t['format'] == 'heic' for t in photos)} HEIC) plus 3 odd files; {n_jpeg} JPEG files in all.

Phone photos are scattered 10–60 m around their stop's centre (the metro photo
is the only one at its stop). Stop centres are the clustering ground truth.

{md_table(["stop", "lat", "lon", "country", "offset", "day", "photos", "iPhone", "X-T30"], stop_rows)}

Note: "Metro Baixa-Chiado" is only ~230 m from the Baixa hotel; a clustering
radius above that merges the two.

## Cameras

- **Apple iPhone 13** (`IMG_xxxx`): big-endian (MM) EXIF with GPS (GPSLatitude/
  Longitude + Refs, GPSAltitude + GPSAltitudeRef, GPSDateStamp + GPSTimeStamp in
  UTC, matching the local time), DateTimeOriginal = CreateDate = ModifyDate,
  SubSecTimeOriginal/Digitized (3 digits) on all but 3, OffsetTime/Original/
  Digitized (+01:00 in Portugal, +02:00 in Spain), Orientation 1 or 6.
- **FUJIFILM X-T30** (`DSCFxxxx`): little-endian (II) EXIF, **no GPS**, local
  wall-clock dates with **no OffsetTime\\***. {len(fuji)} photos interleaved in time with
  the phone at Belém, Jerónimos, Pena, Plaza de España, Retiro and Plaza Mayor.
  Date variants: one with only CreateDate (DateTimeDigitized), one with only IFD0
  ModifyDate (DateTime), one with no date at all.

## Files

Days 1–3 are in day folders (`2025-06-10 Lisboa/`, `2025-06-11 Sintra/`,
`Sevilla – día 3/` — a space, an en dash and an accent, stored NFC); days 4–5
and the odd files are at the top level. A few file numbers are swapped against
shooting order (IMG pairs {', '.join(f'{a:04d}/{b:04d}' for a, b in PHONE_SWAPS)}, DSCF {'/'.join(str(x) for x in FUJI_SWAPS[0])}),
so sorting by name is not sorting by time.

{md_table(["file", "camera", "stop", "local time", "offset", "GPS lat, lon, alt", "notes"], file_rows)}

### Special files and why they exist

- `2025-06-10 Lisboa/` photo taken at 00:12 on 2025-06-11 local: still day 1's
  evening, but its local date is the 11th and its GPSDateStamp (UTC) the 10th.
- `2025-06-11 Sintra/` metro photo: GPSAltitude 12 with GPSAltitudeRef 1, i.e. −12 m.
- Photos with Orientation 6 are stored 160×120 and display as 120×160; some
  portrait photos are instead stored 120×160 with Orientation 1.
- `IMG_0100.HEIC`, `IMG_0101.HEIC`: phone photos as HEIC (heif-enc from a PNG,
  quality 30), EXIF written by exiftool. Where exiftool put the Exif item:
{chr(10).join('  ' + l for l in heic_lines)}
  So exiftool writes the Exif item with the ISO/IEC 23008-12 4-byte
  `exif_tiff_header_offset` prefix followed by `Exif\\0\\0`; it puts it at the start of
  `mdat` (moving the image data after it and rewriting `iloc`), not at the end.
- `IMG_0099.JPG`: a real phone photo cut to its first {TRUNCATE_AT} bytes (of {tr['full_size']});
  its APP1/EXIF segment spans bytes {tr['app1_start']}..{tr['app1_end']}, so the cut is
  inside the EXIF. A reader must fail cleanly (exiftool: "JPEG format error").
- `notes.txt`: not an image at all.
- `screenshot.png`: a PNG with no EXIF (no position, no date).

### EXIF thumbnails (IFD1)

exiftool's `ThumbnailOffset` for a JPEG is an **absolute offset in the file**
(the script checks that the bytes there are FF D8 … FF D9): it is the raw IFD1
JPEGInterchangeFormat value, which is relative to the TIFF header, plus the
TIFF header's position in the file.

{md_table(["file", "byte order", "TIFF header at", "raw IFD1 value", "ThumbnailOffset", "ThumbnailLength"], thumb_rows)}

## ground-truth.json and exiftool.json

`ground-truth.json` is what the script intended for each file: path (relative to
this folder), kind (photo / truncated / non-image / png), stop id, name and
centre, signed latitude/longitude/altitude or null, local time, offset or null,
UTC GPS time or null, which tag holds the date, camera, size, orientation,
thumbnail. The script verifies every photo against exiftool's read-back before
writing it (tolerance 1e-6° for coordinates).

`exiftool.json` is the independent truth, made with exactly this command run
inside `SampleImages/` (on `.`, before exiftool.json exists):

    {cmd}

The script then only drops the leading `./` from each SourceFile and sorts the
records by SourceFile (exiftool lists files in directory order, which varies
between file systems). Plain tag names give the raw GPS IFD values (unsigned,
with separate Refs); `Composite:GPSLatitude/Longitude/Altitude` are exiftool's
signed values. Beware: in exiftool's JSON a SubSecTime like `123` is a number
but `045` is a string.
"""


# --------------------------------------------------------------------------
# B. Fixtures
# --------------------------------------------------------------------------

@dataclass
class Fixture:
    name: str
    case: str
    made: str                      # how the file was made
    tags: list                     # exiftool args
    expect: dict                   # what a correct reader must report
    patch: Optional[Callable[[Path], None]] = None
    in_file: str = ""              # what is in the bytes (filled in after patching)
    kind: str = "jpeg"             # jpeg | tiff | png | heic
    byte_order: str = "MM"
    thumb: bool = False
    heic_size: tuple = (160, 120)


def base_expect(**kw) -> dict:
    e = {"latitude": None, "longitude": None, "altitude": None,
         "localTime": "2024-05-01T12:00:00", "offset": None, "gpsTime": None,
         "expectDiagnostic": None}
    e.update(kw)
    return e


CAMERA_TAGS = ["-Make=Apple", "-Model=iPhone 13"]
BASE_DATE = ["-DateTimeOriginal=2024:05:01 12:00:00"]
# Torre de Belém; most bad-GPS fixtures start from this valid position.
BELEM = ["-GPSLatitude=38.6916", "-GPSLatitudeRef=N",
         "-GPSLongitude=9.216", "-GPSLongitudeRef=W"]


def gps(lat, lon, alt=None, date=None, time=None) -> list:
    a = [f"-GPSLatitude={abs(lat)}", f"-GPSLatitudeRef={'N' if lat >= 0 else 'S'}",
         f"-GPSLongitude={abs(lon)}", f"-GPSLongitudeRef={'E' if lon >= 0 else 'W'}"]
    if alt is not None:
        a += [f"-GPSAltitude={abs(alt)}", f"-GPSAltitudeRef={1 if alt < 0 else 0}"]
    if date:
        a.append(f"-GPSDateStamp={date}")
    if time:
        a.append(f"-GPSTimeStamp={time}")
    return a


def patcher(fn: Callable[[Exif], None]) -> Callable[[Path], None]:
    return lambda path: patch_jpeg(path, fn)


def fixtures() -> list:
    belem = {"latitude": 38.6916, "longitude": -9.216}
    return [
        Fixture("gps-no-ref.jpg", "GPSLatitude/GPSLongitude without GPSLatitudeRef/GPSLongitudeRef",
                "exiftool writes the position without the Ref tags",
                CAMERA_TAGS + BASE_DATE + ["-GPSLatitude=38.6916", "-GPSLongitude=9.216"],
                base_expect(expectDiagnostic="missing GPSLatitudeRef/GPSLongitudeRef: no coordinate")),
        Fixture("gps-zero-denominator.jpg", "a GPSLatitude rational with denominator 0",
                "exiftool writes 38.6916 N 9.216 W; the script then sets the denominator of "
                "the minutes rational to 0 (exiftool cannot write x/0)",
                CAMERA_TAGS + BASE_DATE + BELEM,
                base_expect(expectDiagnostic="zero denominator in GPSLatitude"),
                patch=patcher(lambda x: x.set_rational("GPS", "GPSLatitude", 1,
                                                       x.rationals("GPS", "GPSLatitude")[1][0], 0))),
        Fixture("gps-minutes-out-of-range.jpg", "GPSLatitude minutes = 75",
                "exiftool writes 38.6916 N 9.216 W; the script patches minutes to 75/1 "
                "(exiftool would normalise 38°75' to 39°15')",
                CAMERA_TAGS + BASE_DATE + BELEM,
                base_expect(expectDiagnostic="GPSLatitude minutes out of range (75)"),
                patch=patcher(lambda x: x.set_rational("GPS", "GPSLatitude", 1, 75, 1))),
        Fixture("gps-seconds-out-of-range.jpg", "GPSLatitude seconds = 61.5",
                "exiftool writes 38.6916 N 9.216 W; the script patches seconds to 615/10",
                CAMERA_TAGS + BASE_DATE + BELEM,
                base_expect(expectDiagnostic="GPSLatitude seconds out of range (61.5)"),
                patch=patcher(lambda x: x.set_rational("GPS", "GPSLatitude", 2, 615, 10))),
        Fixture("gps-lat-over-90.jpg", "GPSLatitude degrees 4294967295/1 (seen in real files)",
                "written directly by exiftool, which does not range-check GPS values",
                CAMERA_TAGS + BASE_DATE + ["-GPSLatitude=4294967295", "-GPSLatitudeRef=N",
                                           "-GPSLongitude=9.216", "-GPSLongitudeRef=W"],
                base_expect(expectDiagnostic="GPSLatitude out of range (4294967295 > 90)")),
        Fixture("gps-lon-over-180.jpg", "GPSLongitude 200 degrees",
                "written directly by exiftool",
                CAMERA_TAGS + BASE_DATE + ["-GPSLatitude=38.6916", "-GPSLatitudeRef=N",
                                           "-GPSLongitude=200", "-GPSLongitudeRef=E"],
                base_expect(expectDiagnostic="GPSLongitude out of range (200 > 180)")),
        Fixture("gps-null-island.jpg", "exactly 0,0 with N/E refs",
                "written directly by exiftool",
                CAMERA_TAGS + BASE_DATE + gps(0.0, 0.0),
                base_expect(latitude=None, longitude=None,
                            expectDiagnostic="GPS position is exactly 0,0 (null island), which devices "
                                             "write when they have no fix: no coordinate")),
        Fixture("date-zeros.jpg", 'DateTimeOriginal "0000:00:00 00:00:00" (what cameras write when unset)',
                "written by exiftool with -n (without -n it refuses: month 00 out of range)",
                CAMERA_TAGS + ["-DateTimeOriginal=0000:00:00 00:00:00"] + BELEM,
                base_expect(localTime=None, **belem,
                            expectDiagnostic="DateTimeOriginal is all zeros (unset)")),
        Fixture("date-impossible.jpg", 'DateTimeOriginal "2023:02:30 25:61:00"',
                "written by exiftool with -n (without -n it refuses: hour 25 out of range)",
                CAMERA_TAGS + ["-DateTimeOriginal=2023:02:30 25:61:00"] + BELEM,
                base_expect(localTime=None, **belem,
                            expectDiagnostic="invalid date in DateTimeOriginal: 2023:02:30 25:61:00")),
        Fixture("gps-date-bad.jpg", 'GPSDateStamp "2014:13:45" (month 13; count 11, the normal length)',
                'written by exiftool ("2014:09:259" does not fit the 11-byte count, and exiftool '
                'silently truncates it to "2014:09:25")',
                CAMERA_TAGS + BASE_DATE + BELEM + ["-GPSDateStamp=2014:13:45", "-GPSTimeStamp=10:20:30"],
                base_expect(**belem, expectDiagnostic="invalid GPSDateStamp: 2014:13:45")),
        Fixture("gps-date-long.jpg", 'GPSDateStamp "2014:09:259" with count 12',
                'exiftool writes "2014:09:25"; the script appends "2014:09:259\\0" to the end of '
                "the APP1 segment and points the GPSDateStamp entry at it with count 12 "
                "(segment length updated; no other offset moves)",
                CAMERA_TAGS + BASE_DATE + BELEM + ["-GPSDateStamp=2014:09:25", "-GPSTimeStamp=10:20:30"],
                base_expect(**belem, expectDiagnostic="invalid GPSDateStamp: 2014:09:259 (count 12, expected 11)"),
                patch=lambda p: relocate_jpeg_ascii(p, "GPS", "GPSDateStamp", b"2014:09:259")),
        Fixture("gps-time-no-date.jpg", "GPSTimeStamp without GPSDateStamp",
                "written directly by exiftool",
                CAMERA_TAGS + BASE_DATE + BELEM + ["-GPSTimeStamp=11:00:00"],
                base_expect(**belem, expectDiagnostic="GPSTimeStamp without GPSDateStamp: no GPS time")),
        Fixture("gps-empty-ifd.jpg", "a GPS IFD with zero entries",
                "exiftool writes a GPS IFD with only GPSVersionID (it drops empty IFDs); the "
                "script sets the entry count to 0 and the next-IFD offset to 0",
                CAMERA_TAGS + BASE_DATE + ["-GPSVersionID=2 3 0 0"],
                base_expect(expectDiagnostic="empty GPS IFD: no position"),
                patch=patcher(lambda x: x.empty_ifd("GPS"))),
        Fixture("gps-version-only.jpg", "a GPS IFD holding only GPSVersionID",
                "written directly by exiftool",
                CAMERA_TAGS + BASE_DATE + ["-GPSVersionID=2 3 0 0"],
                base_expect(expectDiagnostic="GPS IFD without GPSLatitude/GPSLongitude: no position")),
        Fixture("offset-bad.jpg", 'OffsetTimeOriginal "+25:00"',
                "written directly by exiftool (it does not check offsets)",
                CAMERA_TAGS + BASE_DATE + ["-OffsetTimeOriginal=+25:00"] + BELEM,
                base_expect(**belem, expectDiagnostic="OffsetTimeOriginal out of range: +25:00")),
        Fixture("south-west.jpg", "valid southern + western position (Ushuaia), offset -03:00, altitude",
                "written directly by exiftool",
                CAMERA_TAGS + ["-DateTimeOriginal=2024:01:15 18:30:00", "-OffsetTimeOriginal=-03:00"]
                + gps(-54.8019, -68.3030, 23.5, "2024:01:15", "21:30:00"),
                base_expect(latitude=-54.8019, longitude=-68.303, altitude=23.5,
                            localTime="2024-01-15T18:30:00", offset="-03:00",
                            gpsTime="2024-01-15T21:30:00Z")),
        Fixture("east-antimeridian.jpg", "valid position near the antimeridian (Fiji, 17.7134 S 178.0650 E), "
                "offset +12:00, UTC date is the previous day",
                "written directly by exiftool",
                CAMERA_TAGS + ["-DateTimeOriginal=2024:07:20 09:15:00", "-OffsetTimeOriginal=+12:00"]
                + gps(-17.7134, 178.065, 18.0, "2024:07:19", "21:15:00"),
                base_expect(latitude=-17.7134, longitude=178.065, altitude=18.0,
                            localTime="2024-07-20T09:15:00", offset="+12:00",
                            gpsTime="2024-07-19T21:15:00Z")),
        Fixture("gps-little-endian.jpg", "valid GPS in a little-endian (II) JPEG (Sagrada Família)",
                "exiftool with -ExifByteOrder=II",
                ["-ExifByteOrder=II", "-Make=FUJIFILM", "-Model=X-T30",
                 "-DateTimeOriginal=2024:03:10 16:45:00", "-OffsetTimeOriginal=+01:00"]
                + gps(41.4036, 2.1744, 80.0, "2024:03:10", "15:45:00"),
                base_expect(latitude=41.4036, longitude=2.1744, altitude=80.0,
                            localTime="2024-03-10T16:45:00", offset="+01:00",
                            gpsTime="2024-03-10T15:45:00Z"),
                byte_order="II"),
        Fixture("tiff-gps.tif", "a TIFF (little-endian, Pillow) with GPS + DateTimeOriginal (Reykjavík)",
                "Pillow writes a 32x24 uncompressed TIFF; exiftool adds the tags",
                CAMERA_TAGS + ["-DateTimeOriginal=2024:06:21 23:30:00", "-OffsetTimeOriginal=+00:00"]
                + gps(64.1417, -21.9266, 74.0, "2024:06:21", "23:30:00"),
                base_expect(latitude=64.1417, longitude=-21.9266, altitude=74.0,
                            localTime="2024-06-21T23:30:00", offset="+00:00",
                            gpsTime="2024-06-21T23:30:00Z"),
                kind="tiff", byte_order="II"),
        Fixture("png-exif.png", "a PNG with an eXIf chunk holding GPS (Cape Town)",
                "Pillow writes a 32x24 PNG; exiftool adds the tags as a standard eXIf chunk "
                "(Make/Model named IFD0:Make/IFD0:Model, else exiftool puts them in tEXt chunks)",
                ["-IFD0:Make=Apple", "-IFD0:Model=iPhone 13"] + ["-DateTimeOriginal=2024:12:24 17:00:00", "-OffsetTimeOriginal=+02:00"]
                + gps(-33.9249, 18.4241, 12.0, "2024:12:24", "15:00:00"),
                base_expect(latitude=-33.9249, longitude=18.4241, altitude=12.0,
                            localTime="2024-12-24T17:00:00", offset="+02:00",
                            gpsTime="2024-12-24T15:00:00Z"),
                kind="png"),
        Fixture("heic-gps.heic", "a HEIC with GPS (Tokyo Tower), one plain hvc1 image item as in SampleImages",
                "heif-enc encodes a 160x120 PNG (quality 30); exiftool adds the tags",
                CAMERA_TAGS + ["-DateTimeOriginal=2024:04:05 15:30:00", "-OffsetTimeOriginal=+09:00",
                               "-SubSecTimeOriginal=250"]
                + gps(35.6586, 139.7454, 45.0, "2024:04:05", "06:30:00"),
                base_expect(latitude=35.6586, longitude=139.7454, altitude=45.0,
                            localTime="2024-04-05T15:30:00.250", offset="+09:00",
                            gpsTime="2024-04-05T06:30:00Z"),
                kind="heic"),
        Fixture("heic-grid.heic", "a HEIC whose primary item is a 'grid' (descriptor in idat, "
                "construction method 1), like real iPhone HEICs (Sydney Opera House)",
                "heif-enc encodes a 64x48 PNG (quality 30); libheif 1.15 makes that a grid over "
                "one 64x64 tile; exiftool adds the tags (its Exif item refers to the grid)",
                CAMERA_TAGS + ["-DateTimeOriginal=2024:11:02 19:45:00", "-OffsetTimeOriginal=+11:00"]
                + gps(-33.8568, 151.2153, 5.0, "2024:11:02", "08:45:00"),
                base_expect(latitude=-33.8568, longitude=151.2153, altitude=5.0,
                            localTime="2024-11-02T19:45:00", offset="+11:00",
                            gpsTime="2024-11-02T08:45:00Z"),
                kind="heic", heic_size=(64, 48)),
        Fixture("thumbnail.jpg", "a JPEG with an IFD1 (EXIF) thumbnail",
                "exiftool -ThumbnailImage<=thumb.jpg (a 16x12 Pillow JPEG)",
                CAMERA_TAGS + ["-DateTimeOriginal=2024:05:01 12:00:00", "-OffsetTimeOriginal=+01:00"]
                + gps(38.711, -9.137, 15.0, "2024:05:01", "11:00:00"),
                base_expect(latitude=38.711, longitude=-9.137, altitude=15.0,
                            offset="+01:00", gpsTime="2024-05-01T11:00:00Z"),
                thumb=True),
        # Appended after thumbnail.jpg, not next to the other HEICs: make_fixtures
        # derives each JPEG's picture from its list index, so inserting earlier
        # would change the bytes of files that come later.
        Fixture("heic-exif-at-end.heic", "a HEIC whose Exif item is the last thing in the file, "
                "after the image data, in a second mdat box, as some phones and editors write it "
                "(Reykjavík, Hallgrímskirkja)",
                "heif-enc encodes a 160x120 PNG (quality 30); exiftool adds the tags (first in mdat); "
                "then",
                CAMERA_TAGS + ["-DateTimeOriginal=2024:08:15 22:10:00", "-OffsetTimeOriginal=+00:00"]
                + gps(64.1417, -21.9267, 74.0, "2024:08:15", "22:10:00"),
                base_expect(latitude=64.1417, longitude=-21.9267, altitude=74.0,
                            localTime="2024-08-15T22:10:00", offset="+00:00",
                            gpsTime="2024-08-15T22:10:00Z"),
                patch=relocate_heic_exif, kind="heic"),
        Fixture("heic-exif-no-header.heic", "a HEIC whose Exif item payload is exif_tiff_header_offset "
                "0 followed directly by the TIFF header, no Exif\\0\\0 marker (Cape Town)",
                "heif-enc encodes a 160x120 PNG (quality 30); exiftool adds the tags (payload: offset 6, "
                "Exif\\0\\0, TIFF); then, dropping the marker and setting the offset to 0,",
                CAMERA_TAGS + ["-DateTimeOriginal=2024:12:24 17:00:00", "-OffsetTimeOriginal=+02:00"]
                + gps(-33.9249, 18.4241, 12.0, "2024:12:24", "15:00:00"),
                base_expect(latitude=-33.9249, longitude=18.4241, altitude=12.0,
                            localTime="2024-12-24T17:00:00", offset="+02:00",
                            gpsTime="2024-12-24T15:00:00Z"),
                patch=lambda p: relocate_heic_exif(p, drop_marker=True), kind="heic"),
    ]


FIXTURE_DOCS = ["README.md", "expected.json", "exiftool.json"]
EXIFTOOL_KEYS = ["GPS:GPSLatitudeRef", "GPS:GPSLatitude", "GPS:GPSLongitudeRef", "GPS:GPSLongitude",
                 "GPS:GPSAltitude", "GPS:GPSDateStamp", "GPS:GPSTimeStamp",
                 "Composite:GPSLatitude", "Composite:GPSLongitude", "Composite:GPSAltitude",
                 "Composite:GPSPosition", "Composite:GPSDateTime",
                 "ExifIFD:DateTimeOriginal", "ExifIFD:OffsetTimeOriginal",
                 "IFD1:ThumbnailOffset", "IFD1:ThumbnailLength", "ExifTool:Warning"]


def show_ascii(raw: bytes) -> str:
    return '"' + raw.decode("latin-1").replace("\0", "\\0") + '"'


def describe_raw(path: Path) -> str:
    """What the GPS/date bytes really hold, read with our own walker."""
    x = read_exif(path)
    parts = [f"byte order {x.byte_order}"]
    gps_ifd = x.ifds.get("GPS")
    if gps_ifd is not None:
        names = {v: k for k, v in GPS_TAGS.items()}
        items = []
        for tag, e in gps_ifd.entries.items():
            n = names.get(tag, f"0x{tag:04x}")
            if e.type == 5:
                items.append(n + " " + " ".join(f"{a}/{b}" for a, b in x.rationals("GPS", tag)))
            elif e.type == 2:
                items.append(f"{n} {show_ascii(x.ascii('GPS', tag))} (count {e.count})")
            else:
                items.append(f"{n} " + " ".join(str(b) for b in x.data[e.value_pos:e.value_pos + e.count]))
        n = len(gps_ifd.entries)
        parts.append(f"GPS IFD with {n} {'entry' if n == 1 else 'entries'}" +
                     (": " + "; ".join(items) if items else ""))
    else:
        parts.append("no GPS IFD")
    exif_ifd = x.ifds.get("ExifIFD")
    for tag, label in ((0x9003, "DateTimeOriginal"), (0x9011, "OffsetTimeOriginal")):
        if exif_ifd and tag in exif_ifd.entries:
            parts.append(f"{label} {show_ascii(x.ascii('ExifIFD', tag))}")
    return "; ".join(parts)


def make_fixtures(root: Path, tmp: Path, versions: dict) -> None:
    out = root / FIXTURE_DIR
    out.mkdir(parents=True, exist_ok=True)
    fx = fixtures()
    # Only our own files are replaced: the folder belongs to the test target.
    for name in [f.name for f in fx] + FIXTURE_DOCS:
        (out / name).unlink(missing_ok=True)

    jobs = []
    for i, f in enumerate(fx):
        path = out / f.name
        img = scene(random.Random(f"{SEED}:fixture:{f.name}"), 32, 24,
                    ((90 + 6 * i, 140, 220), (190, 205, 235), (100, 120 + 4 * i, 90), (220, 200, 150)),
                    noise=3)
        args = list(f.tags)
        if f.kind == "jpeg":
            img.save(path, "JPEG", quality=70)
        elif f.kind == "tiff":
            img.save(path, "TIFF")
        elif f.kind == "png":
            img.save(path, "PNG")
        elif f.kind == "heic":
            png = tmp / "fixture.png"
            scene(random.Random(f"{SEED}:fixture:{f.name}"), *f.heic_size,
                  STOPS["belem"].palette).save(png)
            run(["heif-enc", "-q", "30", "-o", path, png])
        if f.thumb:
            thumb = tmp / "fixture-thumb.jpg"
            img.resize((16, 12)).save(thumb, "JPEG", quality=60)
            args.append(f"-ThumbnailImage<={thumb}")
        jobs.append((path, args))
    exiftool_batch(jobs, tmp)
    for f in fx:
        if f.patch:
            # A patch may return a sentence with the offsets it used (HEIC relocation).
            note = f.patch(out / f.name)
            if note:
                f.made += " " + note

    dump = {r["SourceFile"]: r for r in exiftool_json(out)}
    full = exiftool_all(out)
    entries, facts = [], {}
    for f in fx:
        path = out / f.name
        f.in_file = describe_raw(path)
        rec = full[f.name]   # -a and no -fast2: everything exiftool can find
        said = {k: rec.get(k) for k in EXIFTOOL_KEYS
                if k in rec or k.startswith("Composite:GPSL")}
        # The reference command's -fast2 can skip metadata (see heic-grid.heic).
        missed = sorted(k for k in said if said[k] is not None and k not in dump[f.name]
                        and (k.split(":")[1] in EXIFTOOL_FIELDS or k in EXIFTOOL_FIELDS))
        entry = {"file": f.name, "format": f.kind, "byteOrder": f.byte_order, "case": f.case,
                 "made": f.made, "inFile": f.in_file, **f.expect}
        if f.thumb:
            entry["thumbnailOffset"] = rec["IFD1:ThumbnailOffset"]
            entry["thumbnailLength"] = rec["IFD1:ThumbnailLength"]
        if f.kind == "png":
            c = png_chunks(path.read_bytes())
            facts["png"] = {"order": c["_order"],
                            "starts_with_exif_marker": path.read_bytes()[c["eXIf"][0]:c["eXIf"][0] + 6] == b"Exif\0\0"}
        if f.kind == "heic":
            facts.setdefault("heic", []).append({"file": f.name, **heic_exif_item(path.read_bytes())})
        entry["exiftool"] = said
        if missed:
            entry["exiftoolFast2Misses"] = missed
        entries.append(entry)
    verify_fixtures(out, fx, entries, dump, full)
    write_json(out / "expected.json", {
        "generator": "scripts/make-sample-images.py",
        "description": "For each fixture: what a correct reader must report. latitude/"
                       "longitude/altitude are signed (null = no usable value; a position "
                       "is dropped whole when either coordinate is bad), localTime is "
                       "DateTimeOriginal as ISO 8601 without offset (plus .fff when "
                       "SubSecTimeOriginal is present), offset is "
                       "OffsetTimeOriginal, gpsTime is GPSDateStamp+GPSTimeStamp in UTC. "
                       "expectDiagnostic names the problem a reader should report (null: "
                       "none). 'exiftool' records what exiftool "
                       f"{versions['exiftool']} says (-n -G1), for comparison only.",
        "fixtures": entries,
    })
    (out / "README.md").write_text(fixture_readme(entries, facts, versions), encoding="utf-8")
    write_json(out / "exiftool.json", exiftool_json(out))


def verify_fixtures(out: Path, fx: list, entries: list, dump: dict, full: dict) -> None:
    problems = []

    def want(cond, name, what):
        if not cond:
            problems.append(f"{name}: {what}")

    by_name = {e["file"]: e for e in entries}
    for f in fx:
        e, rec, path = by_name[f.name], full[f.name], out / f.name
        x = read_exif(path)
        want(x.byte_order == f.byte_order, f.name, "byte order")
        if e["latitude"] is not None:   # valid positions: exiftool must agree
            want(close(rec.get("Composite:GPSLatitude"), e["latitude"]), f.name, "latitude")
            want(close(rec.get("Composite:GPSLongitude"), e["longitude"]), f.name, "longitude")
        if e["altitude"] is not None:
            want(close(rec.get("Composite:GPSAltitude"), e["altitude"]), f.name, "altitude")
        if e["gpsTime"]:
            want(rec.get("Composite:GPSDateTime")
                 == e["gpsTime"].replace("-", ":").replace("T", " "), f.name, "gps time")
        if e["localTime"]:
            want(rec.get("ExifIFD:DateTimeOriginal") ==
                 e["localTime"][:19].replace("-", ":").replace("T", " "), f.name, "DateTimeOriginal")
        if e["offset"]:
            want(rec.get("ExifIFD:OffsetTimeOriginal") == e["offset"], f.name, "offset")
    # The byte patches themselves, read back with the walker.
    rat = lambda n: read_exif(out / n).rationals("GPS", "GPSLatitude")
    want(rat("gps-zero-denominator.jpg")[1][1] == 0, "gps-zero-denominator.jpg", "patch")
    want(rat("gps-minutes-out-of-range.jpg")[1] == (75, 1), "gps-minutes-out-of-range.jpg", "patch")
    want(rat("gps-seconds-out-of-range.jpg")[2] == (615, 10), "gps-seconds-out-of-range.jpg", "patch")
    want(rat("gps-lat-over-90.jpg")[0] == (4294967295, 1), "gps-lat-over-90.jpg", "value")
    x = read_exif(out / "gps-date-long.jpg")
    want(x.ascii("GPS", "GPSDateStamp") == b"2014:09:259\0", "gps-date-long.jpg", "patch")
    want(x.ascii("GPS", "GPSDateStamp")[:-1] == b"2014:09:259", "gps-date-long.jpg", "count")
    want(read_exif(out / "gps-date-bad.jpg").ascii("GPS", "GPSDateStamp") == b"2014:13:45\0",
         "gps-date-bad.jpg", "value")
    want(len(read_exif(out / "gps-empty-ifd.jpg").ifds["GPS"].entries) == 0, "gps-empty-ifd.jpg", "patch")
    want("GPSDateStamp" not in str(full["gps-time-no-date.jpg"]), "gps-time-no-date.jpg", "has date")
    want("Composite:GPSLatitude" not in full["gps-no-ref.jpg"], "gps-no-ref.jpg",
         "exiftool made a signed latitude without a Ref")
    # The relocated HEIC Exif items: at the end, in their own mdat, and still
    # read (through iloc) by exiftool without complaint; checked above for values.
    for name, marker in (("heic-exif-at-end.heic", True), ("heic-exif-no-header.heic", False)):
        h = heic_exif_item((out / name).read_bytes())
        want(h["at_end"] and h["mdat_count"] == 2 and h["mdat_number"] == 2
             and h["offset"] == h["mdat_start"], name, f"Exif item not alone at the end: {h}")
        want(h["has_exif_marker"] == marker, name, "Exif marker")
        want(h["exif_header_offset"] == (6 if marker else 0), name, "exif_tiff_header_offset")
        want("ExifTool:Warning" not in full[name], name,
             f"exiftool warning {full[name].get('ExifTool:Warning')}")
    # libheif must still open every HEIC and find the Exif item at its new length.
    # Optional (heif-info ships with heif-enc, but not everywhere); it changes no output.
    if shutil.which("heif-info"):
        for f in fx:
            if f.kind == "heic":
                r = run(["heif-info", out / f.name], check=False)
                n = heic_exif_item((out / f.name).read_bytes())["length"]
                want(r.returncode == 0 and f"Exif: {n} bytes" in r.stdout, f.name,
                     f"heif-info (rc {r.returncode}): {(r.stdout + r.stderr).strip()[-300:]}")
    else:
        print("warning: heif-info not found; HEIC fixtures not checked with libheif",
              file=sys.stderr)
    if problems:
        die("fixture verification failed:\n  " + "\n  ".join(problems))


def heic_moved_bullet(entries: list) -> str:
    """What exiftool made of the two HEICs whose Exif item the script moved."""
    def said(name):
        e = next(x for x in entries if x["file"] == name)
        x = e["exiftool"]
        ok = all(close(x.get(f"Composite:GPS{k}"), e[k.lower()])
                 for k in ("Latitude", "Longitude", "Altitude"))
        warn = x.get("ExifTool:Warning")
        return (("reads the same GPS and dates" if ok else "does NOT read the values back")
                + (f", warning {json.dumps(warn)}" if warn else ", no warning")
                + ("" if "exiftoolFast2Misses" in e else ", with -fast2 too"))
    return f"""- HEIC Exif item moved by the script: exiftool follows `iloc` (not "start of
  mdat"), so on `heic-exif-at-end.heic` (payload in a second `mdat` at the end of
  the file, old bytes zeroed) it {said("heic-exif-at-end.heic")}. On
  `heic-exif-no-header.heic` (payload = offset 0, then the TIFF header) it
  {said("heic-exif-no-header.heic")}: QuickTime.pm skips 4 + offset bytes, and
  only warns ("Missing Exif header") when the payload starts with the TIFF header
  itself, with no 4-byte offset. When `heif-info` is installed, the script also
  checks that libheif opens every HEIC here and finds its Exif item at its new length."""


def fixture_readme(entries: list, facts: dict, versions: dict) -> str:
    def show(v):
        return "null" if v is None else f"`{v}`"

    rows = []
    for e in entries:
        pos = ("null" if e["latitude"] is None else
               f"{e['latitude']}, {e['longitude']}" + (f", {e['altitude']} m" if e["altitude"] is not None else ""))
        rows.append((f"`{e['file']}`", e["case"], pos, show(e["localTime"]), show(e["offset"]),
                     show(e["gpsTime"]), show(e["expectDiagnostic"])))
    details = []
    for e in entries:
        said = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in e["exiftool"].items())
        details.append(f"### `{e['file']}`\n\n- Case: {e['case']}.\n- Made: {e['made']}.\n"
                       f"- In the file: {e['inFile']}.\n- exiftool {versions['exiftool']} says: {said}.\n")
    png, heic = facts["png"], facts["heic"]
    zero = next(e for e in entries if e["file"] == "gps-zero-denominator.jpg")["exiftool"]
    cmd = shlex.join(EXIFTOOL_JSON_CMD)
    thumb = next(e for e in entries if e["file"] == "thumbnail.jpg")
    return f"""# EXIF fixtures

Small files, one case each, for GeoTripCore's metadata reader. Generated by
`scripts/make-sample-images.py` (Pillow {versions['Pillow']}, exiftool
{versions['exiftool']}, libheif {versions['libheif']}); do not edit by hand, rerun

    python3 scripts/make-sample-images.py

The script replaces only the files listed here (other files in this folder are
left alone). The pictures are 32×24 synthetic scenes; only the metadata matters.
Unless a row says otherwise, JPEGs are Pillow JPEGs whose EXIF exiftool wrote
(big-endian, "MM", exiftool's default for new JPEG EXIF), Make "Apple", Model
"iPhone 13", DateTimeOriginal 2024:05:01 12:00:00, and the bad-GPS cases start
from a valid Torre de Belém position (38.6916 N, 9.216 W) before one value is
broken. Where exiftool will not write a value, the script patches the bytes
with its own small TIFF/IFD walker (both byte orders), and re-reads them to check.

`expected.json` holds, for each file, what a **correct reader must report**:
signed latitude/longitude/altitude (null = unusable; a position is dropped
whole if either coordinate is bad), `localTime` (DateTimeOriginal as ISO 8601,
no offset, plus `.fff` from SubSecTimeOriginal when present), `offset`
(OffsetTimeOriginal), `gpsTime` (GPSDateStamp +
GPSTimeStamp, UTC), and `expectDiagnostic`, a short name of the problem the
reader should report (null = nothing wrong). Each entry also keeps `inFile`
(the raw values, as read by the script's walker) and `exiftool` (what exiftool
says, for comparison: exiftool does not range-check, so it is *not* the
expected answer for the bad-value cases).

## Summary

{md_table(["file", "case", "position", "localTime", "offset", "gpsTime", "expectDiagnostic"], rows)}

## What exiftool does with these (surprises)

- `gps-no-ref.jpg`: exiftool gives no Composite:GPSLatitude/GPSLongitude (they
  need the Ref), **but still gives Composite:GPSPosition** from the raw unsigned
  values ("38.6916 9.216", i.e. east), so a reader copying GPSPosition would be wrong.
- Zero denominator: with `-n`, exiftool gives GPS:GPSLatitude = {json.dumps(zero['GPS:GPSLatitude'])} and
  Composite:GPSLatitude = {json.dumps(zero['Composite:GPSLatitude'])} (empty strings, not numbers or null), and
  Composite:GPSPosition = {json.dumps(zero['Composite:GPSPosition'])}.
- Out-of-range minutes/seconds/degrees are reported as computed (e.g. latitude
  4294967295, longitude 200): exiftool never range-checks GPS.
- Dates: without `-n`, exiftool refuses to write "0000:00:00 00:00:00" and
  "2023:02:30 25:61:00" (print-conversion range checks); with `-n` it writes
  them verbatim, and reads them back verbatim. "+25:00" is written and read as is.
- GPSDateStamp: exiftool writes it with a fixed count of 11 and **silently
  truncates** "2014:09:259" to "2014:09:25"; hence the byte-patched
  `gps-date-long.jpg`. It does accept "2014:13:45".
- GPSAltitudeRef: without `-n`, `-GPSAltitudeRef=1` is taken as "a positive
  altitude" and written as 0 (above sea level). The script always writes with `-n`.
- Empty IFDs: exiftool drops an empty GPS IFD and always adds GPSVersionID when
  it creates one; hence the patch for `gps-empty-ifd.jpg`.
- PNG: exiftool writes a **standard `eXIf` chunk** (chunk order: {' '.join(png['order'])}),
  whose data is the bare TIFF structure ({'with' if png['starts_with_exif_marker'] else 'no'} {EXIF_MARKER} prefix).
- PNG: without a group, `-Make`/`-Model` go into PNG `tEXt` chunks, not into
  eXIf; the script names `IFD0:Make`/`IFD0:Model` so the eXIf is complete.
- HEIC, where exiftool puts the Exif item:
{chr(10).join('  ' + heic_sentence(h, h['file']) for h in heic)}
{heic_moved_bullet(entries)}
- **HEIC and `-fast2`**: on `heic-grid.heic` (grid primary item, `idat` box in
  `meta`) the reference command finds **no EXIF at all**: with `-fast2` exiftool
  stops at the first `mdat` *or `idat`* box (QuickTime.pm: `last if $fast > 1 and
  ($tag eq 'mdat' or $tag eq 'idat')`), and here `idat` comes before `iloc`/`iinf`
  inside `meta`. `-fast` or no fast option read everything. Real iPhone HEICs are grids too, so do not trust a `-fast2` dump
  for HEIC. The `exiftool` values in expected.json come from a full read
  (`exiftool -json -n -G1 -a`); `exiftoolFast2Misses` lists what exiftool.json lacks.
- Thumbnail: exiftool's ThumbnailOffset ({thumb['thumbnailOffset']}) is an absolute file
  offset (the bytes there are FF D8); ThumbnailLength {thumb['thumbnailLength']}.
- Image size: exiftool calls it File:ImageWidth for JPEG and HEIC, but
  IFD0:ImageWidth for TIFF and PNG:ImageWidth for PNG.
- When exiftool creates EXIF it also adds XResolution, YResolution,
  ResolutionUnit, YCbCrPositioning, ExifVersion, ComponentsConfiguration,
  FlashpixVersion and ColorSpace.

## Each file

{chr(10).join(details)}
## exiftool.json

Made with exactly this command, run inside this folder on `.` (before
exiftool.json exists); the script then drops the leading `./` from SourceFile
and sorts the records by SourceFile:

    {cmd}
"""


# --------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                    help="repository root to write into (default: this script's repo)")
    args = ap.parse_args()
    versions = check_tools()
    root = args.root.resolve()
    with tempfile.TemporaryDirectory(prefix="geotrip-samples-") as tmp:
        make_sample_images(root, Path(tmp), versions)
        make_fixtures(root, Path(tmp), versions)
    total = sum(p.stat().st_size for p in (root / SAMPLE_DIR).rglob("*") if p.is_file())
    if total >= 2_000_000:
        die(f"SampleImages is {total} bytes; it must stay under 2 MB")
    print(f"SampleImages: {total} bytes; fixtures in {FIXTURE_DIR}")


if __name__ == "__main__":
    main()

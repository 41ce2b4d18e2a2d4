#!/usr/bin/env python3
"""Writes the TIFF-layout fixtures in Tests/GeoTripCoreTests/Fixtures/tiff/.

TIFF writers put directories anywhere: libtiff, scanners and drones write IFD0 after the image
data, and raws put the Exif or GPS directory far into the file. exiftool cannot be asked to lay a
file out like that, so this script writes the TIFF structure itself (TIFF 6.0, both byte orders),
then asks exiftool what it reads from each file: `exiftool.json` in the folder is exiftool's own
record (`-json -n -G1`), the independent truth the reader is tested against.

The `damaged-*` files break one rule each (a loop of directory pointers, an absurd entry count,
offsets past the end, signed GPS values below zero); there exiftool is no truth, and the tests
expect a specific diagnostic instead (see the table in README.md).

Usage: python3 scripts/make-tiff-fixtures.py   (needs exiftool and Pillow)
"""
import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

from PIL import Image

OUT = Path(__file__).resolve().parent.parent / "Tests/GeoTripCoreTests/Fixtures/tiff"

BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED, SRATIONAL = 1, 2, 3, 4, 5, 7, 10
SIZES = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, UNDEFINED: 1, SRATIONAL: 8}


class Entry:
    """One IFD entry; `values` are numbers (or pairs for rationals), bytes for ASCII/UNDEFINED.
    `pointer` names another block whose offset becomes the value (a LONG)."""

    def __init__(self, tag, type_, values=None, pointer=None, count=None, raw_offset=None):
        self.tag, self.type, self.values, self.pointer = tag, type_, values, pointer
        self.count_override, self.raw_offset = count, raw_offset

    def payload(self, order) -> bytes:
        if self.type in (ASCII, UNDEFINED, BYTE) and isinstance(self.values, (bytes, bytearray)):
            return bytes(self.values)
        fmt = {SHORT: "H", LONG: "I"}.get(self.type)
        if fmt:
            return b"".join(struct.pack(order + fmt, v) for v in self.values)
        if self.type == RATIONAL:
            return b"".join(struct.pack(order + "II", n, d) for n, d in self.values)
        if self.type == SRATIONAL:
            return b"".join(struct.pack(order + "ii", n, d) for n, d in self.values)
        raise ValueError(self.type)

    def count(self, order) -> int:
        if self.count_override is not None:
            return self.count_override
        return len(self.payload(order)) // SIZES[self.type] if self.pointer is None else 1


def ascii(text: str) -> bytes:
    return text.encode() + b"\0"


def dms(value: float):
    """Degrees, minutes, seconds as rationals (seconds to 1/1000)."""
    value = abs(value)
    d = int(value)
    m = int((value - d) * 60)
    s = round(((value - d) * 60 - m) * 60 * 1000)
    return [(d, 1), (m, 1), (s, 1000)]


def write_tiff(path: Path, order: str, blocks: list, next_of: dict = None, ifd0: str = "ifd0",
               magic: int = 42, offsets_override: dict = None):
    """`blocks` is the file's layout in order: (name, list-of-Entry) for a directory, followed by
    its out-of-line values, or (name, bytes) for raw data. `next_of` maps a directory to the
    directory its next-IFD link names. `offsets_override` forces a pointer's target offset."""
    next_of = next_of or {}
    offsets_override = offsets_override or {}
    o = "<" if order == "II" else ">"
    # First pass: where each block starts.
    positions, pos = {}, 8
    for name, content in blocks:
        if pos % 2:
            pos += 1
        positions[name] = pos
        if isinstance(content, (bytes, bytearray)):
            pos += len(content)
        else:
            pos += 2 + 12 * len(content) + 4
            for e in content:
                if e.pointer is None and e.raw_offset is None and len(e.payload(o)) > 4:
                    pos += len(e.payload(o)) + (len(e.payload(o)) % 2)

    def target(name):
        return offsets_override.get(name, positions.get(name, 0))

    out = bytearray(order.encode() + struct.pack(o + "HI", magic, offsets_override.get(ifd0, positions[ifd0])))
    for name, content in blocks:
        while len(out) < positions[name]:
            out.append(0)
        if isinstance(content, (bytes, bytearray)):
            out += content
            continue
        entries = sorted(content, key=lambda e: e.tag)
        value_pos = positions[name] + 2 + 12 * len(entries) + 4
        table, values = bytearray(struct.pack(o + "H", len(entries))), bytearray()
        for e in entries:
            table += struct.pack(o + "HHI", e.tag, e.type, e.count(o))
            if e.pointer is not None:
                table += struct.pack(o + "I", target(e.pointer))
                continue
            payload = e.payload(o)
            if e.raw_offset is not None:
                table += struct.pack(o + "I", e.raw_offset)
            elif len(payload) <= 4:
                table += payload.ljust(4, b"\0")
            else:
                table += struct.pack(o + "I", value_pos + len(values))
                values += payload + b"\0" * (len(payload) % 2)
        table += struct.pack(o + "I", target(next_of[name]) if name in next_of else 0)
        out += table + values
    path.write_bytes(bytes(out))


def gps_entries(lat, lon, alt, date, time, srational=False, negative_latitude=False):
    kind = SRATIONAL if srational else RATIONAL
    lat_parts = dms(lat)
    if negative_latitude:
        lat_parts = [(-lat_parts[0][0], 1)] + lat_parts[1:]
    h, m, s = time
    return [
        Entry(0x0000, BYTE, bytes([2, 3, 0, 0])),
        Entry(0x0001, ASCII, b"N\0" if lat >= 0 else b"S\0"),
        Entry(0x0002, kind, lat_parts),
        Entry(0x0003, ASCII, b"E\0" if lon >= 0 else b"W\0"),
        Entry(0x0004, kind, dms(lon)),
        Entry(0x0005, BYTE, bytes([0])),
        Entry(0x0006, kind, [(round(alt * 10), 10)]),
        Entry(0x0007, RATIONAL, [(h, 1), (m, 1), (s, 1)]),
        Entry(0x001D, ASCII, ascii(date)),
    ]


def exif_entries(date_time, offset, subsec):
    return [
        Entry(0x9003, ASCII, ascii(date_time)),
        Entry(0x9011, ASCII, ascii(offset)),
        Entry(0x9291, ASCII, ascii(subsec)),
    ]


def ifd0_entries(width, height, make, model, strip=None, extra=()):
    entries = [
        Entry(0x0100, SHORT, [width]), Entry(0x0101, SHORT, [height]),
        Entry(0x0102, SHORT, [8]), Entry(0x0103, SHORT, [1]), Entry(0x0106, SHORT, [1]),
        Entry(0x010F, ASCII, ascii(make)), Entry(0x0110, ASCII, ascii(model)),
        Entry(0x0112, SHORT, [1]), Entry(0x0115, SHORT, [1]), Entry(0x0116, SHORT, [height]),
        Entry(0x0117, LONG, [width * height]),
    ]
    if strip:
        entries.append(Entry(0x0111, LONG, pointer=strip))
    return entries + list(extra)


def pixels(width, height, seed):
    return bytes((x * 7 + y * 3 + seed) % 256 for y in range(height) for x in range(width))


def small_jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (16, 12), (40, 120, 200)).save(buffer, "JPEG", quality=60)
    return buffer.getvalue()


def jpeg_with_exif(path: Path, tiff: bytes):
    """A Pillow JPEG with `tiff` as its APP1 Exif segment, right after SOI."""
    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), (200, 160, 90)).save(buffer, "JPEG", quality=60)
    jpeg = buffer.getvalue()
    body = b"Exif\0\0" + tiff
    path.write_bytes(jpeg[:2] + b"\xFF\xE1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:])


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        if old.name != "README.md":
            old.unlink()
    w, h = 320, 320  # 100 KiB of pixels: anything after them lies beyond libexif's 64 KiB

    # IFD0 after the image data, as libtiff and DJI/Parrot drones write it (Zermatt).
    zermatt = dict(lat=45.9763, lon=7.6586, alt=1608.0, date="2024:07:14", time=(8, 20, 30))
    write_tiff(OUT / "ifd0-at-end.tif", "II", [
        ("strip", pixels(w, h, 1)),
        ("ifd0", ifd0_entries(w, h, "DJI", "FC3411", strip="strip", extra=[
            Entry(0x8769, LONG, pointer="exif"), Entry(0x8825, LONG, pointer="gps")])),
        ("exif", exif_entries("2024:07:14 10:20:30", "+02:00", "123")),
        ("gps", gps_entries(**zermatt)),
    ])

    # IFD0 first, the GPS directory and the thumbnail after 100 KiB of image (big-endian; Hobart).
    thumb = small_jpeg()
    write_tiff(OUT / "gps-far.tif", "MM", [
        ("ifd0", ifd0_entries(w, h, "NIKON CORPORATION", "NIKON Z 6", strip="strip", extra=[
            Entry(0x8769, LONG, pointer="exif"), Entry(0x8825, LONG, pointer="gps")])),
        ("exif", exif_entries("2024:02:03 18:45:10", "+11:00", "5")),
        ("strip", pixels(w, h, 2)),
        ("gps", gps_entries(lat=-42.8821, lon=147.3272, alt=12.5, date="2024:02:03", time=(7, 45, 10))),
        ("ifd1", [Entry(0x0103, SHORT, [6]), Entry(0x0201, LONG, pointer="thumb"), Entry(0x0202, LONG, [len(thumb)])]),
        ("thumb", thumb),
    ], next_of={"ifd0": "ifd1"})

    # The same structure as a PNG's eXIf chunk: the in-memory path HEIF EXIF items also take.
    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), (90, 160, 200)).save(buffer, "PNG")
    png = buffer.getvalue()
    exif = (OUT / "gps-far.tif").read_bytes()
    chunk = struct.pack(">I", len(exif)) + b"eXIf" + exif + struct.pack(">I", zlib.crc32(b"eXIf" + exif))
    (OUT / "png-exif-far.png").write_bytes(png[:33] + chunk + png[33:])  # after the signature and IHDR

    # The Exif directory far in, as raws put it (a DNG-named file; Quito, south and west).
    write_tiff(OUT / "exif-far.dng", "II", [
        ("ifd0", ifd0_entries(w, h, "Canon", "Canon EOS R6", strip="strip", extra=[
            Entry(0x8769, LONG, pointer="exif"), Entry(0x8825, LONG, pointer="gps")])),
        ("gps", gps_entries(lat=-0.2202, lon=-78.5123, alt=2850.0, date="2023:11:20", time=(19, 5, 0))),
        ("strip", pixels(w, h, 3)),
        ("exif", exif_entries("2023:11:20 14:05:00", "-05:00", "40")),
    ])

    # Sixteen copies of a 4 KiB Model in IFD0 and a 4 KiB GPSProcessingMethod: a compact block of
    # every kept value would pass libexif's 64 KiB and lose the GPS; a tag counts once (Venice).
    model = Entry(0x0110, ASCII, b"Model X".ljust(4096, b"\0"))
    write_tiff(OUT / "repeated-tags.tif", "II", [
        ("ifd0", ifd0_entries(16, 16, "Test", "Model X", strip="strip", extra=[
            Entry(0x8769, LONG, pointer="exif"), Entry(0x8825, LONG, pointer="gps")]) + [model] * 15),
        ("exif", exif_entries("2024:10:12 16:20:00", "+02:00", "0")),
        ("gps", gps_entries(lat=45.4340, lon=12.3388, alt=2.0, date="2024:10:12", time=(14, 20, 0))
            + [Entry(0x001B, UNDEFINED, b"ASCII\0\0\0" + b"GPS".ljust(4088, b" "))]),
        ("strip", pixels(16, 16, 7)),
    ])

    # Olympus ORF and Panasonic RW2 are TIFF structures with their maker's own magic number
    # (Olympus TG and Lumix travel zooms have GPS): Dubrovnik and Kyoto.
    for name, order, magic, make, model, place in [
            ("olympus.orf", "II", 0x4F52, "OM Digital Solutions", "TG-7",
             dict(lat=42.6407, lon=18.1077, alt=21.0, date="2024:09:02", time=(9, 12, 40))),
            ("panasonic.rw2", "II", 0x0055, "Panasonic", "DC-TZ200",
             dict(lat=35.0116, lon=135.7681, alt=48.0, date="2024:04:01", time=(1, 2, 3)))]:
        ifd0 = ifd0_entries(32, 32, make, model, strip="strip", extra=[
            Entry(0x8769, LONG, pointer="exif"), Entry(0x8825, LONG, pointer="gps")])
        if magic == 0x0055:  # Panasonic's IFD0 gives the size as SensorWidth/Height, not ImageWidth/Length
            ifd0 = [e for e in ifd0 if e.tag not in (0x0100, 0x0101)] + [Entry(0x0002, SHORT, [32]), Entry(0x0003, SHORT, [32])]
        write_tiff(OUT / name, order, [
            ("ifd0", ifd0),
            ("exif", exif_entries("2024:09:02 11:12:40" if "TG" in model else "2024:04:01 10:02:03",
                                  "+02:00" if "TG" in model else "+09:00", "7")),
            ("strip", pixels(32, 32, 5)),
            ("gps", gps_entries(**place)),
        ], magic=magic)

    # Canon CR3: an ISO base media file whose EXIF is three small TIFFs, CMT1 (IFD0), CMT2 (the
    # Exif directory) and CMT4 (GPS), in Canon's uuid box in moov, with a THMB thumbnail (Pisa).
    def box(kind, body):
        return struct.pack(">I", 8 + len(body)) + kind + body

    def cr3(path, cmt4_order="II", cmt4_raw=None):
        parts = {}
        for name, order, entries in [
                ("CMT1", "II", [Entry(0x010F, ASCII, ascii("Canon")), Entry(0x0110, ASCII, ascii("Canon EOS R6")),
                                Entry(0x0112, SHORT, [1])]),
                ("CMT2", "II", exif_entries("2024:05:20 14:30:00", "+02:00", "50")),
                ("CMT4", cmt4_order, gps_entries(lat=43.7230, lon=10.3966, alt=4.0, date="2024:05:20", time=(12, 30, 0)))]:
            write_tiff(OUT / "cmt.tmp", order, [("ifd0", entries)])
            parts[name] = (OUT / "cmt.tmp").read_bytes()
        (OUT / "cmt.tmp").unlink()
        if cmt4_raw is not None:
            parts["CMT4"] = cmt4_raw
        thumb = small_jpeg()
        thmb = struct.pack(">BBBBHHIHH", 0, 0, 0, 0, 16, 12, len(thumb), 1, 0) + thumb
        uuid = bytes.fromhex("85c0b687820f11e08111f4ce462b6a48")
        canon = box(b"uuid", uuid + box(b"CNCV", b"CanonCR3_001/00.09.00/00.00.00") + b"".join(
            box(name.encode(), parts[name]) for name in ("CMT1", "CMT2", "CMT4")) + box(b"THMB", thmb))
        ftyp = box(b"ftyp", b"crx " + struct.pack(">I", 1) + b"crx isom")
        path.write_bytes(ftyp + box(b"moov", canon) + box(b"mdat", pixels(64, 64, 6)))

    cr3(OUT / "canon.cr3")
    cr3(OUT / "damaged-cr3-gps-not-tiff.cr3", cmt4_raw=b"not a TIFF at all")

    # GPS as SRATIONAL in a JPEG, as an HMD Nokia 8.3 5G writes it (Helsinki).
    helsinki = dict(lat=60.1699, lon=24.9384, alt=17.0, date="2024:06:21", time=(16, 30, 0))
    tiff_path = OUT / "srational.tmp"
    write_tiff(tiff_path, "II", [
        ("ifd0", [Entry(0x010F, ASCII, ascii("HMD Global")), Entry(0x0110, ASCII, ascii("Nokia 8.3 5G")),
                  Entry(0x8769, LONG, pointer="exif"), Entry(0x8825, LONG, pointer="gps")]),
        ("exif", exif_entries("2024:06:21 19:30:00", "+03:00", "250")),
        ("gps", gps_entries(**helsinki, srational=True)),
    ])
    jpeg_with_exif(OUT / "gps-srational.jpg", tiff_path.read_bytes())

    # Damaged: a negative SRATIONAL degree, which contradicts GPSLatitudeRef.
    write_tiff(tiff_path, "II", [
        ("ifd0", [Entry(0x010F, ASCII, ascii("HMD Global")), Entry(0x8769, LONG, pointer="exif"),
                  Entry(0x8825, LONG, pointer="gps")]),
        ("exif", exif_entries("2024:06:21 19:30:00", "+03:00", "250")),
        ("gps", gps_entries(**helsinki, srational=True, negative_latitude=True)),
    ])
    jpeg_with_exif(OUT / "damaged-srational-negative.jpg", tiff_path.read_bytes())
    tiff_path.unlink()

    small = dict(w=16, h=16)
    def plain_ifd0(extra):
        return ifd0_entries(small["w"], small["h"], "Test", "Loop", strip="strip", extra=extra)
    strip = pixels(16, 16, 4)
    good_exif = exif_entries("2024:01:02 03:04:05", "+00:00", "0")

    # Damaged: IFD0's next-directory link points back at IFD0.
    write_tiff(OUT / "damaged-ifd-loop.tif", "II", [
        ("strip", strip), ("ifd0", plain_ifd0([Entry(0x8769, LONG, pointer="exif")])), ("exif", good_exif),
    ], next_of={"ifd0": "ifd0"})
    # Damaged: the Exif pointer names IFD0 itself.
    write_tiff(OUT / "damaged-exif-loop.tif", "MM", [
        ("strip", strip), ("ifd0", plain_ifd0([Entry(0x8769, LONG, pointer="ifd0")])),
    ])
    # Damaged: a GPS directory that claims 65,535 entries at the end of the file.
    write_tiff(OUT / "damaged-absurd-count.tif", "II", [
        ("strip", strip), ("ifd0", plain_ifd0([Entry(0x8825, LONG, pointer="gps")])), ("gps", b"\xff\xff" + b"\0" * 30),
    ])
    # Damaged: the GPS pointer lies past the end of the file.
    write_tiff(OUT / "damaged-gps-past-end.tif", "II", [
        ("strip", strip), ("ifd0", plain_ifd0([Entry(0x8825, LONG, pointer="gps")])),
    ], offsets_override={"gps": 0x7FFFFFF0})
    # Damaged: DateTimeOriginal's value offset lies past the end of the file.
    write_tiff(OUT / "damaged-value-past-end.tif", "II", [
        ("strip", strip), ("ifd0", plain_ifd0([Entry(0x8769, LONG, pointer="exif")])),
        ("exif", [Entry(0x9003, ASCII, ascii("2024:01:02 03:04:05"), raw_offset=0x10000000)]),
    ])
    # Damaged: IFD0 itself lies past the end of the file; nothing can be read.
    write_tiff(OUT / "damaged-ifd0-past-end.tif", "II", [
        ("strip", strip), ("ifd0", plain_ifd0([])),
    ], offsets_override={"ifd0": 0x00FFFFF0})

    # The fields and options of MetadataReaderTests' check that the records are current.
    fields = ["GPSLatitude", "GPSLongitude", "GPSLatitudeRef", "GPSLongitudeRef", "GPSAltitude", "GPSAltitudeRef",
              "GPSDateStamp", "GPSTimeStamp", "GPSVersionID", "DateTimeOriginal", "SubSecTimeOriginal",
              "OffsetTimeOriginal", "CreateDate", "SubSecTimeDigitized", "OffsetTimeDigitized", "ModifyDate",
              "SubSecTime", "OffsetTime", "Make", "Model", "Orientation", "ImageWidth", "ImageHeight", "ExifByteOrder",
              "ThumbnailOffset", "ThumbnailLength", "Composite:GPSLatitude", "Composite:GPSLongitude",
              "Composite:GPSAltitude", "Warning", "Error"]
    command = ["exiftool", "-json", "-n", "-G1", "-ext", "*", "-fast2"] + ["-" + f for f in fields] + ["."]
    dump = json.loads(subprocess.run(command, cwd=OUT, capture_output=True, check=False).stdout)
    dump.sort(key=lambda item: item["SourceFile"])
    (OUT / "exiftool.json").write_text(json.dumps(dump, indent=1, ensure_ascii=False) + "\n")
    for item in dump:
        if not item["SourceFile"].startswith(("./damaged", "./README")):
            print(item["SourceFile"], item.get("Composite:GPSLatitude"), item.get("Composite:GPSLongitude"),
                  item.get("ExifIFD:DateTimeOriginal"), file=sys.stderr)


if __name__ == "__main__":
    main()

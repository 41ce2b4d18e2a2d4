#!/usr/bin/env python3
"""A synthetic trip of N photos for `make bench`: tiny JPEGs whose EXIF this script writes
itself (GPS position, DateTimeOriginal with its offset), so a 100,000-photo trip is made in
seconds (exiftool would take minutes). The ground truth is the plan below:

- visits of 20 photos, one a minute, each visit 40 minutes after the last began;
- each visit 2 km east of the last along a parallel, wrapping every 100 visits (so places
  repeat: 100 distinct places), starting at Lisbon; clock offset +01:00;
- 1,000 photos a folder.

The image itself is SampleImages' IMG_0001.JPG (160x120) with its own EXIF taken out.
Usage: synthetic_trip.py FOLDER COUNT
"""
import struct
import sys
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def image_without_exif():
    data = (ROOT / "SampleImages" / "2025-06-10 Lisboa" / "IMG_0001.JPG").read_bytes()
    out, i = bytearray(data[:2]), 2
    while i < len(data):
        marker = data[i + 1]
        if marker == 0xDA:  # start of scan: the rest is image data
            out += data[i:]
            break
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker != 0xE1:
            out += data[i:i + 2 + length]
        i += 2 + length
    return bytes(out)


def rational_triple(value):
    degrees = int(value)
    minutes = int((value - degrees) * 60)
    seconds = round(((value - degrees) * 60 - minutes) * 60 * 10000)
    return struct.pack("<6I", degrees, 1, minutes, 1, seconds, 10000)


def exif_segment(lat, lon, when):
    """APP1 Exif: IFD0 -> Exif IFD (DateTimeOriginal, OffsetTimeOriginal) and GPS IFD."""
    def ifd(entries, start, extra_offset):
        # entries: (tag, type, count, payload bytes); payloads over 4 bytes go after the IFD.
        body, tail = bytearray(struct.pack("<H", len(entries))), bytearray()
        data_at = start + 2 + 12 * len(entries) + 4
        for tag, kind, count, payload in entries:
            if len(payload) <= 4:
                body += struct.pack("<HHI", tag, kind, count) + payload.ljust(4, b"\0")
            else:
                body += struct.pack("<HHII", tag, kind, count, data_at + len(tail))
                tail += payload
        return bytes(body + struct.pack("<I", 0) + tail)

    ifd0_at = 8
    ifd0_size = 2 + 12 * 2 + 4
    exif_at = ifd0_at + ifd0_size
    stamp = when.strftime("%Y:%m:%d %H:%M:%S").encode() + b"\0"
    exif = ifd([(0x9003, 2, 20, stamp), (0x9011, 2, 7, b"+01:00\0")], exif_at, 0)
    gps_at = exif_at + len(exif)
    gps = ifd([(1, 2, 2, b"N\0" if lat >= 0 else b"S\0"), (2, 5, 3, rational_triple(abs(lat))),
               (3, 2, 2, b"E\0" if lon >= 0 else b"W\0"), (4, 5, 3, rational_triple(abs(lon)))], gps_at, 0)
    ifd0 = ifd([(0x8769, 4, 1, struct.pack("<I", exif_at)), (0x8825, 4, 1, struct.pack("<I", gps_at))], ifd0_at, 0)
    tiff = b"II*\0" + struct.pack("<I", ifd0_at) + ifd0 + exif + gps
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def make(folder, count):
    folder = Path(folder)
    image = image_without_exif()
    start = datetime(2024, 3, 1, 8, 0, 0)
    for index in range(count):
        visit, within = divmod(index, 20)
        lat = 38.7 + (within % 5) * 0.00005
        lon = -9.14 + (visit % 100) * 0.0228 + (within // 5) * 0.00005
        when = start + timedelta(minutes=40 * visit + within)
        sub = folder / f"part-{index // 1000:04d}"
        if index % 1000 == 0:
            sub.mkdir(parents=True, exist_ok=True)
        (sub / f"IMG_{index:06d}.JPG").write_bytes(image[:2] + exif_segment(lat, lon, when) + image[2:])


if __name__ == "__main__":
    make(sys.argv[1], int(sys.argv[2]))

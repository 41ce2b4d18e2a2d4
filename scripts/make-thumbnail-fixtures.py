#!/usr/bin/env python3
"""Make the thumbnail tests' fixtures, Tests/GeoTripCoreTests/Fixtures/thumbnails/.

The picture is drawn upright with Pillow: 1200 x 800, four quadrants (red top left, green top
right, blue bottom left, yellow bottom right). For each EXIF orientation 1-8 the pixels are
stored turned the other way and exiftool writes the Orientation tag, so a viewer that honours the
tag shows the upright picture; Pillow's own ImageOps.exif_transpose checks that here, as an
independent reader. The tests check geotrip's thumbnails against the same quadrant colours.

  orientation-N.jpg      stored for orientation N (N = 1..8), no embedded thumbnail
  embedded-6.jpg         orientation 6, with a 160 x 120 EXIF thumbnail (IFD1) written by
                         exiftool whose quadrants are magenta/cyan/white/black, so a test can tell
                         which of the two images a thumbnail came from
  truncated.jpg          orientation-1.jpg cut to its first 40% (a copy cut short)
  cmyk.jpg               the upright picture in CMYK (as a print workflow saves it: Pillow
                         writes Adobe's APP14 marker and inverted ink values, as Photoshop does)
  not-a-jpeg.jpg         text with a .jpg name
  exiftool.json          what exiftool reads back from them (-j -n)

Dev-time only: needs Pillow and exiftool; the tests need neither.
"""
import subprocess
from pathlib import Path

from PIL import Image, ImageOps

OUT = Path(__file__).resolve().parent.parent / "Tests" / "GeoTripCoreTests" / "Fixtures" / "thumbnails"
UPRIGHT = [(255, 0, 0), (0, 200, 0), (0, 0, 255), (255, 220, 0)]
EMBEDDED = [(255, 0, 255), (0, 255, 255), (255, 255, 255), (0, 0, 0)]

# Pillow transpose that turns the upright picture into the stored pixels for each orientation:
# the inverse of what a viewer applies (ImageOps.exif_transpose).
STORE = {
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


def quadrants(width, height, colours):
    image = Image.new("RGB", (width, height))
    w, h = width // 2, height // 2
    for index, (x, y) in enumerate([(0, 0), (w, 0), (0, h), (w, h)]):
        image.paste(colours[index], (x, y, x + w, y + h))
    return image


def exiftool(*args):
    subprocess.run(["exiftool", "-q", "-overwrite_original", *args], check=True)


def check_upright(path, colours):
    shown = ImageOps.exif_transpose(Image.open(path)).convert("RGB")
    w, h = shown.size
    assert (w, h) == (1200, 800), (path, shown.size)
    for index, (x, y) in enumerate([(w // 4, h // 4), (3 * w // 4, h // 4), (w // 4, 3 * h // 4), (3 * w // 4, 3 * h // 4)]):
        got = shown.getpixel((x, y))
        assert all(abs(a - b) < 40 for a, b in zip(got, colours[index])), (path, index, got)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    upright = quadrants(1200, 800, UPRIGHT)
    for orientation, transpose in STORE.items():
        stored = upright if transpose is None else upright.transpose(transpose)
        path = OUT / f"orientation-{orientation}.jpg"
        stored.save(path, quality=85)
        exiftool(f"-Orientation#={orientation}", str(path))
        check_upright(path, UPRIGHT)

    thumb = OUT / "embedded-thumb.tmp.jpg"
    quadrants(160, 120, EMBEDDED).transpose(STORE[6]).save(thumb, quality=90)
    path = OUT / "embedded-6.jpg"
    upright.transpose(STORE[6]).save(path, quality=85)
    exiftool("-Orientation#=6", f"-ThumbnailImage<={thumb}", str(path))
    thumb.unlink()
    check_upright(path, UPRIGHT)

    path = OUT / "cmyk.jpg"
    upright.convert("CMYK").save(path, quality=85)
    assert Image.open(path).mode == "CMYK"
    check_upright(path, UPRIGHT)

    whole = (OUT / "orientation-1.jpg").read_bytes()
    (OUT / "truncated.jpg").write_bytes(whole[: len(whole) * 2 // 5])
    (OUT / "not-a-jpeg.jpg").write_text("This is not a JPEG.\n")
    # What exiftool reads back (orientation, embedded thumbnail offset and length): the tests'
    # record, so they need no exiftool themselves.
    record = subprocess.run(["exiftool", "-j", "-n", "-Orientation", "-ThumbnailOffset", "-ThumbnailLength",
                             "-ImageWidth", "-ImageHeight"] + [p.name for p in sorted(OUT.glob("*.jpg"))],
                            cwd=OUT, capture_output=True, text=True).stdout
    (OUT / "exiftool.json").write_text(record)
    for path in sorted(OUT.iterdir()):
        print(f"{path.name}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()

#!/bin/sh
# Regenerates Tests/GeoTripCoreTests/Fixtures/xmp: photos whose time and place are in XMP
# (embedded, or in another program's sidecar), written by exiftool, and exiftool.json, exiftool's
# own record of every file, from which the tests take their expected values (no -fast2: a HEIF
# XMP item lies in mdat, which -fast2 skips).
#
# Needs exiftool, heif-enc (Debian: libheif-examples) and python3 with Pillow. Dev-time only;
# run from the repository root:  sh scripts/make-xmp-fixtures.sh
set -eu
out=Tests/GeoTripCoreTests/Fixtures/xmp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Everything but README.md, which says what each file is.
rm -rf "$out/sidecars" "$out"/*.jpg "$out"/*.heic "$out"/*.tif "$out/exiftool.json"
mkdir -p "$out/sidecars/lightroom" "$out/sidecars/darktable" "$out/sidecars/geotrip-resaved" "$out/sidecars/edited"

# A 32x24 picture with no metadata at all, as JPEG and (through PNG) as HEIC.
python3 - "$tmp" <<'PY'
import sys
from PIL import Image
image = Image.new("RGB", (32, 24), (90, 140, 200))
image.save(sys.argv[1] + "/base.jpg", quality=60)
image.save(sys.argv[1] + "/base.png")
image.save(sys.argv[1] + "/base.tif")
PY
heif-enc -q 30 -o "$tmp/base.heic" "$tmp/base.png" >/dev/null
et() { exiftool -q -n -overwrite_original "$@"; }

# XMP only, no EXIF (Torre de Belém): position, altitude, GPS time, capture time with offset.
cp "$tmp/base.jpg" "$out/xmp-only.jpg"
et -XMP-exif:GPSLatitude=38.6916 -XMP-exif:GPSLongitude=-9.216 -XMP-exif:GPSAltitude=12.5 -XMP-exif:GPSAltitudeRef=0 \
   '-XMP-exif:GPSDateTime=2024:05:01 11:00:00Z' '-XMP-exif:DateTimeOriginal=2024:05:01 12:00:00.25+01:00' "$out/xmp-only.jpg"

# EXIF and XMP disagree: EXIF (Porto, 2 May) must win over XMP (Belém, 1 May).
cp "$tmp/base.jpg" "$out/xmp-and-exif.jpg"
et -GPS:GPSLatitude=41.1496 -GPS:GPSLatitudeRef=N -GPS:GPSLongitude=8.611 -GPS:GPSLongitudeRef=W \
   '-ExifIFD:DateTimeOriginal=2024:05:02 09:30:00' \
   -XMP-exif:GPSLatitude=38.6916 -XMP-exif:GPSLongitude=-9.216 '-XMP-exif:DateTimeOriginal=2024:05:01 12:00:00' "$out/xmp-and-exif.jpg"

# EXIF has the time only; XMP fills the position (Sintra).
cp "$tmp/base.jpg" "$out/exif-time-xmp-gps.jpg"
et '-ExifIFD:DateTimeOriginal=2024:05:03 10:00:00' -XMP-exif:GPSLatitude=38.7877 -XMP-exif:GPSLongitude=-9.3906 "$out/exif-time-xmp-gps.jpg"

# photoshop:DateCreated a day only (not a capture time), xmp:CreateDate without seconds.
cp "$tmp/base.jpg" "$out/xmp-date-only.jpg"
et '-XMP-photoshop:DateCreated=2024:05:04' '-XMP-xmp:CreateDate=2024:05:04 08:15' "$out/xmp-date-only.jpg"

# Extended XMP: a 70,000-character description does not fit one APP1 segment, so exiftool
# splits the packet (XMP Specification Part 3, 1.1.3.1) into the main one and two chunks.
cp "$tmp/base.jpg" "$out/xmp-extended.jpg"
python3 -c "print('x' * 70000)" > "$tmp/long.txt"
et "-XMP-dc:Description<=$tmp/long.txt" -XMP-exif:GPSLatitude=41.1496 -XMP-exif:GPSLongitude=-8.611 \
   '-XMP-exif:DateTimeOriginal=2024:05:02 09:30:00' "$out/xmp-extended.jpg"

# HEIC whose only metadata is XMP (a `mime` item), Tokyo Tower.
cp "$tmp/base.heic" "$out/heic-xmp.heic"
et -XMP-exif:GPSLatitude=35.6586 -XMP-exif:GPSLongitude=139.7454 '-XMP-exif:DateTimeOriginal=2024:04:05 15:30:00+09:00' "$out/heic-xmp.heic"

# TIFF whose only position and time are in its XMP packet (IFD0 tag 700), Mont-Saint-Michel.
cp "$tmp/base.tif" "$out/tiff-xmp.tif"
et -XMP-exif:GPSLatitude=48.6361 -XMP-exif:GPSLongitude=-1.5115 '-XMP-exif:DateTimeOriginal=2024:08:20 17:40:00+02:00' "$out/tiff-xmp.tif"

# Lightroom-style sidecar IMG_1234.xmp (properties as elements) beside a photo without metadata.
cp "$tmp/base.jpg" "$out/sidecars/lightroom/IMG_1234.JPG"
exiftool -q -n -XMP-exif:GPSLatitude=37.9715 -XMP-exif:GPSLongitude=23.7257 '-XMP-exif:DateTimeOriginal=2024:06:10 10:20:30+03:00' \
   -XMP-xmp:CreatorTool='Adobe Photoshop Lightroom Classic 13.0 (Windows)' -o "$out/sidecars/lightroom/IMG_1234.xmp"
# The same sidecar after the position was moved on a map (Acropolis to Lycabettus), for the rerun test.
exiftool -q -n -XMP-exif:GPSLatitude=37.9829 -XMP-exif:GPSLongitude=23.7434 '-XMP-exif:DateTimeOriginal=2024:06:10 10:20:30+03:00' \
   -XMP-xmp:CreatorTool='Adobe Photoshop Lightroom Classic 13.0 (Windows)' -o "$out/sidecars/edited/IMG_1234.xmp"

# darktable-style IMG_5678.JPG.xmp: darktable writes properties as attributes of one
# rdf:Description, dates in EXIF's colon form, and (like some other tools) the DDD,MM,SSk
# coordinate form, which exiftool reads but never writes; so this text is darktable's layout
# with exiftool only reading it back.
cp "$tmp/base.jpg" "$out/sidecars/darktable/IMG_5678.JPG"
cat > "$out/sidecars/darktable/IMG_5678.JPG.xmp" <<'XMP'
<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:darktable="http://darktable.sf.net/"
    exif:DateTimeOriginal="2024:06:11 18:45:00"
    exif:GPSLatitude="36,27,41.4N"
    exif:GPSLongitude="25,22,33.6E"
    exif:GPSAltitude="1500/10"
    exif:GPSAltitudeRef="0"
    xmp:Rating="1"
    darktable:xmp_version="5"
    darktable:auto_presets_applied="1"/>
 </rdf:RDF>
</x:xmpmeta>
XMP

# geotrip's own sidecar (the text --write-xmp writes: XMPSidecar.document), re-saved by exiftool
# with another CreatorTool, as a program that opened it would: still geotrip's, never input.
cp "$tmp/base.jpg" "$out/sidecars/geotrip-resaved/IMG_9999.JPG"
cat > "$out/sidecars/geotrip-resaved/IMG_9999.JPG.xmp" <<'XMP'
<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="geotrip">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:geotrip="https://geotrip.invalid/ns/1.0/"
    xmp:CreatorTool="geotrip"
    exif:GPSVersionID="2.3.0.0"
    exif:GPSLatitude="38,41.496000N"
    exif:GPSLongitude="9,12.960000W"
    exif:GPSMapDatum="WGS-84"
    exif:GPSTimeStamp="2024-05-01T11:00:00Z"
    geotrip:LocationSource="interpolated"
    geotrip:UncertaintyMeters="120"/>
 </rdf:RDF>
</x:xmpmeta>
XMP
et -XMP-xmp:CreatorTool='Adobe Bridge 2024' "$out/sidecars/geotrip-resaved/IMG_9999.JPG.xmp"

(cd "$out" && exiftool -json -n -G1 -r -ext '*' --ext json --ext md \
   -XMP-exif:GPSLatitude -XMP-exif:GPSLongitude -XMP-exif:GPSAltitude -XMP-exif:GPSAltitudeRef -XMP-exif:GPSDateTime \
   -XMP-exif:DateTimeOriginal -XMP-photoshop:DateCreated -XMP-xmp:CreateDate -XMP-xmp:CreatorTool \
   -XMP-xmpNote:HasExtendedXMP -XMP-geotrip:all -Composite:GPSLatitude -Composite:GPSLongitude \
   -ExifIFD:DateTimeOriginal -Warning -Error . > exiftool.json)

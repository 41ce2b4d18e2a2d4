#!/bin/sh
# Makes the video fixtures in Tests/GeoTripCoreTests/Fixtures/videos/ and exiftool's record of
# them (exiftool.json), from which the tests take every expected value. Needs ffmpeg and
# exiftool (Debian: ffmpeg, libimage-exiftool-perl). Rerun to remake them all:
#
#     sh scripts/make-video-fixtures.sh
#
# 1.4 seconds of ffmpeg's test pattern, 64x48 at 5 frames a second, is a few KB; only the
# metadata boxes matter. ffmpeg writes the boxes of the container (and, from -metadata, mvhd's
# creation time and a 3GPP `loci` box); exiftool writes Apple's `keys` items, `udta` ©xyz,
# ©mak, ©mod and `loci`.
set -eu
out="$(cd "$(dirname "$0")/.." && pwd)/Tests/GeoTripCoreTests/Fixtures/videos"
mkdir -p "$out"
cd "$out"
rm -f ./*.mov ./*.mp4 ./*.3gp ./*.m4v exiftool.json
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

pattern() {  # pattern FILE [ffmpeg options...]: the one-second test pattern
    file="$1"; shift
    ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc=size=64x48:rate=5 -t 1.4 \
        -c:v libx264 -pix_fmt yuv420p -fflags +bitexact -flags:v +bitexact "$@" "$file"
}

# exiftool does not know Apple's content identifier key as writable (12.57): a user-defined tag
# that names it lets exiftool itself write it.
cat > "$tmp/keys.config" <<'CONFIG'
%Image::ExifTool::UserDefined = (
    'Image::ExifTool::QuickTime::Keys' => {
        'com.apple.quicktime.content.identifier' => { Name => 'ContentIdentifier', Groups => { 2 => 'Image' } },
    },
);
1;
CONFIG
write() { exiftool -config "$tmp/keys.config" -q -overwrite_original "$@"; }

# Times and places fit the sample trip (SampleImages), so the end-to-end tests can drop these
# into a copy of it as a phone's videos.
#
# An iPhone-style MOV (brand 'qt  '): Apple's keys hold position (ISO 6709 with altitude),
# local creation date with offset, make, model and the Live Photo content identifier; mvhd
# holds the UTC time, as iPhones write it. The moving part of SampleImages/IMG_0100.HEIC.
pattern video-iphone.mov -f mov
write -Keys:GPSCoordinates="40.415179, -3.684831, 657" -Keys:CreationDate="2025:06:13 13:45:30+02:00" \
    -Keys:Make=Apple -Keys:Model="iPhone 13" -Keys:ContentIdentifier="1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9" \
    -QuickTime:CreateDate="2025:06:13 11:45:31" video-iphone.mov

# An Android-style MP4 (brand 'isom'): position in udta ©xyz, camera in ©mak/©mod, time only
# in mvhd (in UTC, as Android writes it).
pattern video-android.mp4
# At the Jerónimos monastery, 11:05 in Lisbon.
write -UserData:GPSCoordinates="38.6979, -9.2067" -UserData:Make=Google -UserData:Model="Pixel 7" \
    -QuickTime:CreateDate="2025:06:10 10:05:00" video-android.mp4

# A camera-style MP4 whose mvhd time is the camera's local wall clock (many compacts and
# action cameras do this), with ©mak/©mod and no position: 08:20 in Lisbon, between the
# trip's first photos.
pattern video-camera-local.mp4
write -UserData:Make=Canon -UserData:Model="PowerShot G7 X" -QuickTime:CreateDate="2025:06:10 08:20:00" video-camera-local.mp4

# A 3GP with the position in a 3GPP 'loci' box: Pena palace, Sintra, 11:30 local.
pattern video-loci.3gp -f 3gp
write -UserData:LocationInformation="Pena Role=0 Lat=38.7876 Lon=-9.3906 Alt=450 Body=earth Notes=" \
    -QuickTime:CreateDate="2025:06:11 10:30:00" video-loci.3gp

# ffmpeg alone: its default puts 'moov' after 'mdat'; +faststart puts it first. -metadata
# location becomes a 'loci' box, creation_time mvhd's time.
pattern video-moov-at-end.mp4 -metadata location="+41.4036+002.1744/" -metadata creation_time=2024-03-10T15:50:00Z
pattern video-faststart.mp4 -movflags +faststart -metadata location="+41.4036+002.1744/" \
    -metadata creation_time=2024-03-10T15:50:00Z

# An M4V (brand 'M4V '), no metadata at all: mvhd's time is 0, which means "no date".
pattern video-plain.m4v -f ipod -brand "M4V "

# ©xyz at 0,0: null island, rejected as for photos.
pattern video-null-island.mp4
write -UserData:GPSCoordinates="0, 0" -QuickTime:CreateDate="2024:03:10 15:45:00" video-null-island.mp4

exiftool -config "$tmp/keys.config" -json -n -G1 -a -ext mov -ext mp4 -ext 3gp -ext m4v . \
    | sed 's/"\.\//"/' > "$tmp/exiftool.json"
# File system dates and permissions change on every checkout: left out of the record.
python3 - "$tmp/exiftool.json" > exiftool.json <<'PY'
import json, sys
records = json.load(open(sys.argv[1]))
for record in records:
    for key in [k for k in record if k.startswith("System:") or k.startswith("ExifTool:")]:
        del record[key]
records.sort(key=lambda r: r["SourceFile"])
print(json.dumps(records, indent=2, ensure_ascii=False))
PY
ls -l

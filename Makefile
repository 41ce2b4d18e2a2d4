# geotrip: the two commands a fresh machine needs are `make demo` and `make test`.
# Both install the system libraries first (Debian/Ubuntu, apt-get; sudo when not root).

SWIFT      ?= swift
PREFIX     ?= /usr/local
SAMPLES    := SampleImages
RELEASE    := .build/release/geotrip
# Libraries geotrip links (cmark-gfm formats the notes' Markdown on the map), tzdata (whose
# zone files give local times their names) and Leaflet with its marker groups (which the map
# page inlines); and tools the tests and the benchmark compare against (GDAL's ogrinfo for the
# GeoJSON; a headless browser for the map page, with a Korean font).
BUILD_PKGS := pkg-config libexif-dev libheif-dev libsqlite3-dev libxml2-dev tzdata libturbojpeg0-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libjs-leaflet libjs-leaflet.markercluster
TEST_PKGS  := libimage-exiftool-perl python3 gdal-bin chromium fonts-noto-cjk
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build release deps test-deps demo test bench install uninstall clean

all: build

# Installs whichever of the packages are missing, and nothing when all are there.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PKGS))

test-deps: deps
	$(call apt_install,$(TEST_PKGS))

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Runs geotrip on the sample trip and lists its photos and visits (the catalog goes to
# SampleImages/.geotrip/, which git ignores).
demo: release
	$(RELEASE) ingest $(SAMPLES)
	@echo
	$(RELEASE) photos $(SAMPLES)
	@echo
	$(RELEASE) places $(SAMPLES)
	@echo
	@echo "The journal, trip.geojson and the trip map are in $(SAMPLES)/geotrip/: open $(SAMPLES)/geotrip/index.html in a browser."

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Builds a few-thousand-photo folder from SampleImages, times geotrip against exiftool,
# and times an unchanged rerun of a 10,000-photo folder. Figures go in BENCHMARKS.md.
bench: release test-deps
	python3 -c "import reverse_geocoder" 2>/dev/null || python3 -m pip install --quiet reverse_geocoder
	python3 -c "import PIL" 2>/dev/null || python3 -m pip install --quiet pillow
	test -x /usr/bin/time || (apt-get update -qq && apt-get install -y -qq time)
	python3 scripts/bench.py

# The gazetteer and the base map go to share/geotrip/, where geotrip looks beside ../bin (see ResourceLocator).
install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/geotrip
	install -m 755 $(RELEASE) $(DESTDIR)$(PREFIX)/bin/geotrip
	install -m 644 Sources/GeoTripCore/Resources/gazetteer.bin $(DESTDIR)$(PREFIX)/share/geotrip/gazetteer.bin
	install -m 644 Sources/GeoTripCore/Resources/basemap.bin $(DESTDIR)$(PREFIX)/share/geotrip/basemap.bin
	install -m 644 Sources/GeoTripCore/Resources/zones.bin $(DESTDIR)$(PREFIX)/share/geotrip/zones.bin

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/geotrip $(DESTDIR)$(PREFIX)/share/geotrip/gazetteer.bin $(DESTDIR)$(PREFIX)/share/geotrip/basemap.bin $(DESTDIR)$(PREFIX)/share/geotrip/zones.bin
	-rmdir $(DESTDIR)$(PREFIX)/share/geotrip

clean:
	rm -rf .build bench-data

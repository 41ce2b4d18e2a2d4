/// The trip map's script. It reads the page's JSON data and builds the map with Leaflet; every
/// name, note and label goes into the page through `textContent` or an attribute, never as
/// markup, so nothing in the data can become HTML.
enum TripMapScript {
    static let source = #"""
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('trip-data').textContent);
  // Each day's visits and videos are in an element of their own, in order.
  data.visits = [];
  data.videos = [];
  document.querySelectorAll('script.trip-day').forEach(function (element) {
    var day = JSON.parse(element.textContent);
    data.visits = data.visits.concat(day.visits);
    data.videos = data.videos.concat(day.videos);
  });
  // The base layer and the towns are an element of their own, which an export reuses while
  // the trip's extent stays the same.
  var layer = JSON.parse(document.getElementById('trip-base').textContent);
  data.base = layer.base;
  // The towns visited first (the page's own), then the layer's others.
  var visitedTown = {};
  data.visitedTowns.forEach(function (town) { visitedTown[town.name + '|' + town.lat + '|' + town.lon] = true; });
  data.towns = data.visitedTowns.concat(layer.towns.filter(function (town) { return !visitedTown[town.name + '|' + town.lat + '|' + town.lon]; }));
  var words = data.words;
  var scale = data.base.scale;
  // Readers who asked for less motion get jumps instead of flights.
  var calm = !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
  var css = function (name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function pairs(flat, divisor) {
    var out = [];
    for (var i = 0; i + 1 < flat.length; i += 2) out.push([flat[i] / divisor, flat[i + 1] / divisor]);
    return out;
  }

  // ---- The map and its panes: the offline base below everything, tiles above it.
  // A zoom limit, which the marker groups need: a town's on the offline base map, whose coasts
  // are drawn for a region (visits closer than that are fanned out around their spot
  // instead), a street's while online tiles are shown (`tilesShown`, below).
  var map = L.map('map', { zoomSnap: 0.25, zoomDelta: 0.5, maxZoom: 15, worldCopyJump: false, preferCanvas: false,
                           zoomAnimation: !calm, fadeAnimation: !calm, markerZoomAnimation: !calm });
  map.attributionControl.setPrefix(false);
  var mapElement = map.getContainer();
  map.createPane('base');
  map.getPane('base').style.zIndex = 150;
  map.createPane('towns');
  map.getPane('towns').style.zIndex = 390;
  // The legs' casings under every leg, so a later leg's casing does not cut an earlier leg
  // where they cross.
  map.createPane('casings');
  map.getPane('casings').style.zIndex = 395;
  // The legs' arrows above the legs, below every marker and group.
  map.createPane('arrows');
  map.getPane('arrows').style.zIndex = 450;
  // The drawing panes are pictures of what the markers and the timeline say in words.
  ['base', 'towns', 'casings', 'arrows', 'overlayPane', 'tooltipPane'].forEach(function (name) { map.getPane(name).setAttribute('aria-hidden', 'true'); });
  var baseRenderer = L.canvas({ pane: 'base', padding: 0.5 });
  var townRenderer = L.canvas({ pane: 'towns', padding: 0.5 });
  var routeRenderer = L.svg({ padding: 0.5 });
  var casingRenderer = L.svg({ padding: 0.5, pane: 'casings' });

  // ---- Base layer: the world's countries, the window's sea, its land and lakes, coasts, borders.
  var styled = [];
  var markers = {};
  function styledLayer(layer, styleOf) { styled.push([layer, styleOf]); layer.setStyle(styleOf()); return layer; }
  function countryRings(shapes) {
    var countries = [];
    shapes.forEach(function (shape) {
      var ring = pairs(shape.p, scale);
      if (shape.k === 21 && countries.length) countries[countries.length - 1].rings.push(ring);
      else countries.push({ code: shape.c || null, rings: [ring] });
    });
    return countries;
  }
  var countries = countryRings(data.base.countries);
  var visited = {};
  data.visited.forEach(function (code) { visited[code] = true; });
  var w = data.base.window;
  var baseLayer = L.layerGroup();
  // Each country is thinned on its own, so neighbours' edges part by a hair: land drawn over
  // them (a land-coloured edge) closes the slivers of sea, then the borders go on top.
  countries.forEach(function (country) {
    baseLayer.addLayer(styledLayer(L.polygon(country.rings, { renderer: baseRenderer, interactive: false }), function () {
      return { stroke: true, weight: 2.5, color: css('--land'), fillColor: css('--land'), fillOpacity: 1 };
    }));
  });
  countries.forEach(function (country) {
    baseLayer.addLayer(styledLayer(L.polygon(country.rings, { renderer: baseRenderer, interactive: false }), function () {
      return { stroke: true, weight: 0.6, color: css('--border'), fill: false };
    }));
  });
  baseLayer.addLayer(styledLayer(L.rectangle([[w.south, w.west], [w.north, w.east]], { renderer: baseRenderer, interactive: false }), function () {
    return { stroke: false, fillColor: css('--sea'), fillOpacity: 1 };
  }));
  // An edge laid along a cut is not coast: the window's edges, the antimeridian where a window
  // across the Pacific is cut in two, and Greenwich south of 60°S, where the shore data cuts
  // Antarctica in two.
  var onCut = function (a, b) {
    var e = 1.5 / scale;
    if (Math.abs(a[0] - b[0]) < e && (Math.abs(a[0] - w.south) < e || Math.abs(a[0] - w.north) < e)) return true;
    if (Math.abs(a[1] - b[1]) >= e) return false;
    var lon = a[1], turn = ((lon % 360) + 360) % 360;
    return Math.abs(lon - w.west) < e || Math.abs(lon - w.east) < e || Math.abs(Math.abs(lon) - 180) < e ||
      ((turn < e || 360 - turn < e) && a[0] < -60 && b[0] < -60);
  };
  var coasts = [];
  data.base.shores.forEach(function (shape) {
    var ring = pairs(shape.p, scale);
    var water = shape.k === 2 || shape.k === 4;
    baseLayer.addLayer(styledLayer(L.polygon(ring, { renderer: baseRenderer, interactive: false }), function () {
      return { stroke: false, fillColor: css(water ? '--sea' : '--land'), fillOpacity: 1 };
    }));
    // The coast is the ring's edges, less those the clipping laid along the window's edge.
    var run = [];
    for (var i = 0; i < ring.length; i++) {
      if (i > 0 && onCut(ring[i - 1], ring[i])) { if (run.length > 1) coasts.push(run); run = []; }
      run.push(ring[i]);
    }
    if (run.length > 1) coasts.push(run);
  });
  if (coasts.length) baseLayer.addLayer(styledLayer(L.polyline(coasts, { renderer: baseRenderer, interactive: false }), function () {
    return { weight: 1, color: css('--coast') };
  }));
  var borders = data.base.borders.map(function (shape) { return pairs(shape.p, scale); });
  if (borders.length) baseLayer.addLayer(styledLayer(L.polyline(borders, { renderer: baseRenderer, interactive: false }), function () {
    return { weight: 1.2, color: css('--border'), dashArray: '5 3' };
  }));
  baseLayer.addTo(map);
  map.attributionControl.addAttribution('<a href="#credits">GSHHG, Natural Earth, GeoNames</a>');

  // ---- Nearby towns, by size as the map zooms in. They come the towns visited first, then
  // the largest. A label that would cover a visit or an earlier town's label is hidden, but
  // for the first town whose dot is under a visit's marker (the place visited, mostly): that
  // one is named beside the marker, right of it, else left, below or above, wherever it
  // covers nothing. A label that would run past the map's right edge goes left of its dot;
  // one the top or bottom edge would cut moves down or up, still level with its dot's side.
  // A town whose dot is off the map has no label.
  var townTiers = [null, L.layerGroup(), L.layerGroup(), L.layerGroup(), L.layerGroup()];
  var townDots = [];
  data.towns.forEach(function (town) {
    var dot = styledLayer(L.circleMarker([town.lat, town.lon], { renderer: townRenderer, radius: town.tier === 1 ? 3 : 2, interactive: false }), function () {
      return { stroke: false, fillColor: css('--town'), fillOpacity: 0.8 };
    });
    dot.bindTooltip(el('span', null, town.name), { permanent: true, direction: 'right', className: 'town-label tier-' + town.tier, offset: [2, 0] });
    townTiers[town.tier].addLayer(dot);
    dot.visited = !!visitedTown[town.name + '|' + town.lat + '|' + town.lon];
    townDots.push(dot);
  });
  function showTiers() {
    var z = map.getZoom();
    [0, 0, 7, 9, 11].forEach(function (from, tier) {
      if (!tier) return;
      var layer = townTiers[tier];
      if (z >= from) { if (!map.hasLayer(layer)) layer.addTo(map); } else if (map.hasLayer(layer)) map.removeLayer(layer);
    });
    declutter();
  }
  function overlaps(a, b) { return a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top; }
  function declutter() {
    var placed = [];
    mapElement.querySelectorAll('.leaflet-marker-pane .visit-icon, .leaflet-marker-pane .group-icon').forEach(function (node) {
      placed.push(node.getBoundingClientRect());
    });
    var markers = placed.slice(), named = [], frame = mapElement.getBoundingClientRect();
    // A leg's arrow is not covered either (it says which way the trip went).
    mapElement.querySelectorAll('.route-arrow').forEach(function (node) { placed.push(node.getBoundingClientRect()); });
    function clear(box) { return !placed.some(function (other) { return overlaps(box, other); }); }
    function shifted(box, dx, dy) { return { left: box.left + dx, right: box.right + dx, top: box.top + dy, bottom: box.bottom + dy }; }
    // Within the map (its edges would cut the name).
    function fits(box) { return box.left >= frame.left && box.right <= frame.right && box.top >= frame.top && box.bottom <= frame.bottom; }
    townDots.forEach(function (dot) {
      var tip = dot.getTooltip(), node = tip && tip.getElement();
      if (!node || !map.hasLayer(dot)) return;
      node.style.visibility = '';
      node.style.translate = '';
      var box = node.getBoundingClientRect();
      var at = map.latLngToContainerPoint(dot.getLatLng()), x = frame.left + at.x, y = frame.top + at.y;
      // A town whose dot is off the map is not named: moved inside, its label would sit by
      // other towns (Casablanca at the bottom edge of a map of Spain).
      if (x < frame.left || x > frame.right || y < frame.top || y > frame.bottom) { node.style.visibility = 'hidden'; return; }
      if (clear(box) && fits(box)) { placed.push(box); return; }
      var under = markers.filter(function (m) { return x >= m.left && x <= m.right && y >= m.top && y <= m.bottom; });
      var moves = [];
      if (!fits(box)) {
        var inside = box.top < frame.top ? frame.top - box.top : box.bottom > frame.bottom ? frame.bottom - box.bottom : 0;
        if (inside) moves.push([0, inside]);
        moves.push([x - 4 - box.right, inside]);
      }
      if (under.length && !under.some(function (m) { return named.indexOf(m) >= 0; })) {
        named = named.concat(under);
        var right = Math.max.apply(null, under.map(function (m) { return m.right; })), left = Math.min.apply(null, under.map(function (m) { return m.left; }));
        var bottom = Math.max.apply(null, under.map(function (m) { return m.bottom; })), top = Math.min.apply(null, under.map(function (m) { return m.top; }));
        var across = x - (box.left + box.right) / 2;
        moves = moves.concat([[right + 2 - box.left, 0], [left - 2 - box.right, 0], [across, bottom + 1 - box.top], [across, top - 1 - box.bottom]]);
      } else if (dot.visited) {
        // A town visited, its dot beside a marker rather than under it: named left of its
        // dot, or above or below it, rather than not at all.
        // (Above and below, centred on the dot, then starting at it, then ending at it: a dot
        // near the map's edge.)
        var middle = x - (box.left + box.right) / 2, from = x - 2 - box.left, to = x + 2 - box.right;
        moves = moves.concat([[x - 4 - box.right, 0], [middle, y - 5 - box.bottom], [middle, y + 5 - box.top],
                              [from, y - 5 - box.bottom], [from, y + 5 - box.top], [to, y - 5 - box.bottom], [to, y + 5 - box.top]]);
      }
      for (var i = 0; i < moves.length; i++) {
        var moved = shifted(box, moves[i][0], moves[i][1]);
        if (clear(moved) && fits(moved)) {
          node.style.translate = Math.round(moves[i][0]) + 'px ' + Math.round(moves[i][1]) + 'px';
          placed.push(moved);
          return;
        }
      }
      node.style.visibility = 'hidden';
    });
  }

  // ---- The route: each leg in its day's colour, flights dashed, an arrow halfway along each.
  var dayLayers = data.days.map(function () { return L.layerGroup(); });
  // Each day's visit and video markers, which go into the marker groups below.
  var dayMarkers = data.days.map(function () { return []; });
  var project = function (p) { return L.CRS.EPSG3857.project(L.latLng(p[0], p[1])); };
  function midpointAndBearing(line) {
    var lengths = [], total = 0;
    for (var i = 1; i < line.length; i++) { var d = project(line[i - 1]).distanceTo(project(line[i])); lengths.push(d); total += d; }
    var half = total / 2;
    for (var j = 0; j < lengths.length; j++) {
      if (half <= lengths[j] || j === lengths.length - 1) {
        var a = project(line[j]), b = project(line[j + 1]);
        var t = lengths[j] > 0 ? Math.min(1, half / lengths[j]) : 0;
        var mid = L.CRS.EPSG3857.unproject(L.point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t));
        // Projected y grows northwards; screen rotation is clockwise from north.
        return { at: mid, degrees: Math.atan2(b.x - a.x, b.y - a.y) * 180 / Math.PI, length: total };
      }
      half -= lengths[j];
    }
    return null;
  }
  data.legs.forEach(function (leg) {
    var colour = data.days[leg.day] ? data.days[leg.day].colour : '#555';
    var pieces = leg.pieces.map(function (flat) { return pairs(flat, 1); });
    pieces.forEach(function (line) {
      // A casing in the page's colour below it, so a light line stands out from the land.
      dayLayers[leg.day].addLayer(styledLayer(L.polyline(line, {
        pane: 'casings', renderer: casingRenderer, weight: (leg.kind === 'flight' ? 2.5 : 4) + 3, opacity: 0.85, lineCap: 'round', lineJoin: 'round',
        interactive: false, className: 'route-casing'
      }), function () { return { color: css('--bg') }; }));
      dayLayers[leg.day].addLayer(L.polyline(line, {
        renderer: routeRenderer, color: colour, weight: leg.kind === 'flight' ? 2.5 : 4, opacity: 0.9,
        dashArray: leg.kind === 'flight' ? '8 7' : null, lineCap: 'round', lineJoin: 'round', interactive: false,
        className: 'route-line route-' + leg.kind
      }));
    });
    var longest = pieces.reduce(function (a, b) { return b.length > a.length ? b : a; }, []);
    var middle = longest.length > 1 ? midpointAndBearing(longest) : null;
    if (middle && middle.length > 0) {
      var arrow = el('span');
      arrow.style.borderBottomColor = colour;
      arrow.style.transform = 'rotate(' + middle.degrees.toFixed(1) + 'deg)';
      dayLayers[leg.day].addLayer(L.marker(middle.at, {
        icon: L.divIcon({ className: 'route-arrow', html: arrow, iconSize: [12, 11], iconAnchor: [6, 5.5] }),
        pane: 'arrows', interactive: false, keyboard: false
      }));
    }
  });

  // ---- Visits: numbered markers sized by photo count, with popups; the timeline beside.
  var items = {};
  document.querySelectorAll('li.visit').forEach(function (li) { items[li.getAttribute('data-visit')] = li; });
  function popupContent(visit) {
    var box = el('div', 'popup');
    var title = el('p', 'popup-title', visit.number + '. ' + visit.name);
    title.setAttribute('tabindex', '-1');
    box.appendChild(title);
    if (visit.place) box.appendChild(el('p', null, visit.place));
    if (visit.time) box.appendChild(el('p', null, visit.time));
    box.appendChild(el('p', null, visit.photos));
    var notes = items[visit.id] && items[visit.id].querySelector('.notes');
    if (notes) box.appendChild(notes.cloneNode(true));
    if (visit.media.length) {
      var thumbs = el('div', 'thumbs');
      visit.media.forEach(function (media) {
        var holder = thumbs;
        if (media.href) {
          holder = el('a');
          holder.setAttribute('href', media.href);
          holder.setAttribute('title', words.openOriginal);
          thumbs.appendChild(holder);
        }
        if (media.thumb) {
          var img = el('img');
          img.setAttribute('src', media.thumb);
          img.setAttribute('alt', media.label);
          holder.appendChild(img);
        } else {
          holder.appendChild(spoken('no-thumb', media.short, media.label));
        }
      });
      if (visit.more) {
        var more = el('a', 'more-link');
        more.setAttribute('href', visit.moreHref);
        more.appendChild(spoken('more-media', '+' + visit.more, visit.moreLabel));
        thumbs.appendChild(more);
      }
      box.appendChild(thumbs);
    }
    return box;
  }
  // A marker as a button named `label`: Enter (Leaflet's) and Space open its popup, which
  // remembers the marker to give the focus back to (`shownPopup`).
  var shownPopup = null;
  function asButton(marker, label) {
    marker.on('add', function () {
      var element = marker.getElement();
      element.setAttribute('role', 'button');
      element.setAttribute('aria-label', label);
      if (element.dataset.keys) return;
      element.dataset.keys = '1';
      element.addEventListener('keydown', function (event) {
        if (event.key !== ' ') return;
        event.preventDefault();
        marker.openPopup();
      });
    });
    marker.on('popupopen', function (event) {
      var owner = marker.getElement(), element = event.popup.getElement();
      shownPopup = { popup: event.popup, owner: owner };
      var close = element && element.querySelector('.leaflet-popup-close-button');
      if (close) { close.setAttribute('role', 'button'); close.setAttribute('aria-label', words.close); }
      var first = element && element.querySelector('.popup-title, a');
      if (document.activeElement === owner && first) first.focus({ preventScroll: true });
    });
  }
  // A box that shows `shown` and is read as `said` (a span takes no aria-label).
  function spoken(className, shown, said) {
    var box = el('span', className), face = el('span', null, shown);
    face.setAttribute('aria-hidden', 'true');
    box.appendChild(face);
    box.appendChild(el('span', 'visually-hidden', said));
    return box;
  }
  var selectedId = null;
  function select(id, fromMap) {
    if (selectedId && items[selectedId]) { items[selectedId].classList.remove('selected'); items[selectedId].removeAttribute('aria-current'); }
    if (selectedId && markers[selectedId] && markers[selectedId].getElement()) markers[selectedId].getElement().classList.remove('selected');
    selectedId = id;
    var li = items[id], marker = markers[id];
    if (li) {
      li.classList.add('selected');
      li.setAttribute('aria-current', 'true');
      if (fromMap) li.scrollIntoView({ block: 'nearest', behavior: calm ? 'auto' : 'smooth' });
    }
    if (marker && marker.getElement()) marker.getElement().classList.add('selected');
  }
  data.visits.forEach(function (visit) {
    var colour = data.days[visit.day] ? data.days[visit.day].colour : '#555';
    var size = Math.round(Math.min(44, 20 + 5 * Math.sqrt(Math.max(0, visit.photoCount))));
    var face = el('div', 'visit-marker', String(visit.number));
    // A long trip's visits run past 99: a smaller figure, in a marker wide enough for it.
    var digits = String(visit.number).length;
    if (digits > 2) {
      face.style.fontSize = '11px';
      size = Math.max(size, 10 + 7 * digits);
    }
    face.style.width = size + 'px';
    face.style.height = size + 'px';
    face.style.background = colour;
    face.style.color = data.days[visit.day] ? data.days[visit.day].ink : '#fff';
    var marker = L.marker([visit.lat, visit.lon], {
      icon: L.divIcon({ className: 'visit-icon', html: face, iconSize: [size, size], iconAnchor: [size / 2, size / 2], popupAnchor: [0, -size / 2] }),
      title: visit.number + '. ' + visit.name, alt: visit.name, riseOnHover: true, keyboard: true, visit: visit, day: visit.day,
      order: visit.number
    });
    // At least three thumbnails wide: measured before its images load, a popup was a column.
    marker.bindPopup(popupContent(visit), { maxWidth: 280, minWidth: 272, autoPanPadding: [16, 16] });
    marker.on('click', function () { select(visit.id, true); });
    marker.on('popupopen', function () { select(visit.id, true); });
    // A marker's element is made again each time the groups give it back to the map.
    marker.on('add', function () {
      marker.getElement().classList.toggle('selected', selectedId === visit.id);
      marker.getElement().setAttribute('data-order', String(visit.number));
    });
    asButton(marker, [visit.number + '. ' + visit.name, visit.time, visit.place, visit.photos].filter(Boolean).join(', '));
    markers[visit.id] = marker;
    dayMarkers[visit.day].push(marker);
  });
  // ---- Videos: a marker of their own where each was made, opening the clip.
  (data.videos || []).forEach(function (video) {
    var face = el('div', 'video-marker', '\u25B6');
    var marker = L.marker([video.lat, video.lon], {
      // Its corner on the place it was made, below and right of it, so a clip made where its
      // visit's marker stands does not hide the visit's number.
      icon: L.divIcon({ className: 'video-icon', html: face, iconSize: [18, 18], iconAnchor: [-4, -4], popupAnchor: [13, 4] }),
      title: video.label, alt: video.label, keyboard: true, day: video.day,
      // Read after its visit's marker.
      order: (markers[video.visit] ? markers[video.visit].options.order : 0) + 0.5
    });
    marker.on('add', function () { marker.getElement().setAttribute('data-order', String(marker.options.order)); });
    var box = el('div', 'popup');
    var link = el(video.href ? 'a' : 'span', null, '\u25B6 ' + video.label);
    if (video.href) link.setAttribute('href', video.href);
    box.appendChild(link);
    marker.bindPopup(box, { maxWidth: 280 });
    marker.on('click', function () { select(video.visit, true); });
    asButton(marker, video.label);
    dayMarkers[video.day].push(marker);
  });
  dayLayers.forEach(function (layer) { layer.addTo(map); });

  // ---- Markers that would overlap are one group (Leaflet.markercluster), which shows how
  // many visits it holds and is a button named by them. Opening it zooms in until they part,
  // or fans out markers that stand on one spot.
  var GroupIcon = L.DivIcon.extend({
    createIcon: function (old) {
      var icon = L.DivIcon.prototype.createIcon.call(this, old);
      // The group it stands for now (the plugin gives an element to the next icon of its group).
      icon.geotripGroup = this.options.group;
      icon.setAttribute('role', 'button');
      icon.setAttribute('aria-label', this.options.label);
      icon.setAttribute('title', this.options.label);
      icon.setAttribute('data-visits', String(this.options.visits));
      icon.setAttribute('data-videos', String(this.options.videos));
      icon.setAttribute('data-order', String(this.options.order));
      if (!icon.dataset.keys) {
        icon.dataset.keys = '1';
        // Enter (the plugin's) or Space opens it: zoomed into, the focus goes to the map; fanned
        // out, to its first visit (`spiderfied` below). On a group fanned out, either folds it.
        icon.addEventListener('keydown', function (event) {
          if (event.key !== ' ' && event.key !== 'Enter') return;
          if (fanned && fanned.getElement() === icon) {
            event.preventDefault();
            clusters.unspiderfy();
            return;
          }
          openedByKey = Date.now();
          if (event.key !== ' ') return;
          event.preventDefault();
          // As the plugin opens it on a click or Enter (its `fire` makes a group's 'click'
          // 'clusterclick'); a click made by the script would be dropped by Leaflet after any
          // drag of the map (until the next press of a button).
          if (icon.geotripGroup) clusters.fire('click', { layer: icon.geotripGroup, propagatedFrom: icon.geotripGroup, originalEvent: event });
          mapElement.focus({ preventScroll: true });
        });
      }
      return icon;
    }
  });
  function counted(n, one, many) { return n === 1 ? one : many.replace('{n}', String(n)); }
  function groupIcon(group) {
    var visits = [], videos = 0, days = {};
    group.getAllChildMarkers().forEach(function (marker) {
      if (marker.options.visit) visits.push(marker.options.visit); else videos += 1;
      days[marker.options.day] = true;
    });
    visits.sort(function (a, b) { return a.number - b.number; });
    var order = visits.length ? visits[0].number : Math.min.apply(null, group.getAllChildMarkers().map(function (m) { return m.options.order; }));
    var parts = [];
    if (visits.length) parts.push(counted(visits.length, words.groupVisit, words.groupVisits));
    if (videos) parts.push(counted(videos, words.groupVideo, words.groupVideos));
    var names = visits.slice(0, 8).map(function (visit) { return visit.number + '. ' + visit.name; });
    if (visits.length > 8) names.push(words.groupMore.replace('{n}', String(visits.length - 8)));
    var label = parts.join(words.groupAnd) + (names.length ? ': ' + names.join(', ') : '') + '. ' + words.groupOpen;
    var shown = visits.length || videos;
    var size = Math.round(Math.min(48, 26 + 5 * Math.sqrt(shown)));
    // One visit with its videos (a clip made where its marker stands never parts from it):
    // the visit's own number, marked as holding videos, not a count of one that reads as
    // visit 1.
    var lone = visits.length === 1;
    var face = el('div', 'group-marker', lone ? String(visits[0].number) : (visits.length ? '' : '\u25B6') + String(shown));
    if (lone && videos) face.appendChild(el('span', 'group-video', '\u25B6'));
    var only = Object.keys(days);
    var day = only.length === 1 ? data.days[Number(only[0])] : null;
    // The page's colours as variables, so a group follows the system into dark and back.
    var colour = day ? day.colour : 'var(--muted)';
    face.style.width = size + 'px';
    face.style.height = size + 'px';
    // Unlike a visit's marker (a disc of its day's colour with its number), a group is drawn
    // in the page's colours, ringed in its day's, as a stack: a second ring behind it.
    face.style.borderColor = colour;
    face.style.boxShadow = '5px -5px 0 -1px var(--bg), 5px -5px 0 2px ' + colour + ', 0 1px 4px rgba(0,0,0,.5)';
    return new GroupIcon({ className: 'group-icon', html: face, iconSize: [size, size], label: label, visits: visits.length, videos: videos, order: order, group: group });
  }
  var clusters = L.markerClusterGroup({
    maxClusterRadius: 50, showCoverageOnHover: false, spiderfyOnMaxZoom: true, zoomToBoundsOnClick: true,
    animate: !calm, iconCreateFunction: groupIcon,
    spiderfyDistanceMultiplier: 1.8, spiderLegPolylineOptions: { weight: 1.5, className: 'spider-leg', opacity: 0.8, interactive: false }
  });
  function markersOf(dayIndex) {
    return dayMarkers.reduce(function (all, list, i) { return dayIndex === null || i === dayIndex ? all.concat(list) : all; }, []);
  }
  // The group fanned out (at most one), and when a key last opened a group.
  var fanned = null, openedByKey = 0;
  clusters.on('spiderfied', function (event) {
    fanned = event.cluster;
    var asked = fanAsked;
    fanAsked = null;
    var icon = fanned.getElement();
    if (icon) icon.setAttribute('aria-expanded', 'true');
    // The fan drawn inside the map: moved in by what it overhangs (the plugin fans out around
    // the spot, wherever that is in the map's box).
    var size = map.getSize(), margin = 28, dx = 0, dy = 0;
    event.markers.forEach(function (marker) {
      var p = map.latLngToContainerPoint(marker.getLatLng());
      dx = Math.max(dx, margin - p.x);
      dx = Math.min(dx, size.x - margin - p.x);
      dy = Math.max(dy, margin - p.y);
      dy = Math.min(dy, size.y - margin - p.y);
    });
    if (dx || dy) map.panBy([-dx, -dy], { animate: !calm });
    orderMarkers();
    declutter();
    // Opened from the keyboard: the focus goes to its first visit (after the plugin's own
    // handling of the key, which gives it to the map).
    if (Date.now() - openedByKey < 2000) {
      openedByKey = 0;
      var first = event.markers.slice().sort(function (a, b) { return a.options.order - b.options.order; })[0];
      setTimeout(function () { if (first.getElement()) first.getElement().focus({ preventScroll: true }); }, 0);
    }
    if (asked && asked.request === revealing && asked.group === event.cluster && map.hasLayer(asked.marker)) asked.then();
  });
  clusters.on('unspiderfied', function (event) {
    var icon = event.cluster.getElement();
    if (icon) icon.removeAttribute('aria-expanded');
    if (fanned === event.cluster) fanned = null;
    declutter();
  });
  // The markers and groups in the order of their visits, for the Tab key and screen readers
  // (the plugin adds them in the order of its grid). One that had the focus gets it back:
  // moving it takes the focus away.
  function orderMarkers() {
    var pane = map.getPane('markerPane'), focused = document.activeElement;
    var nodes = Array.prototype.slice.call(pane.children);
    var key = function (node) { return Number(node.getAttribute('data-order')) || 0; };
    var sorted = nodes.slice().sort(function (a, b) { return key(a) - key(b); });
    if (sorted.every(function (node, i) { return node === nodes[i]; })) return;
    sorted.forEach(function (node) { pane.appendChild(node); });
    if (focused && pane.contains(focused) && document.activeElement !== focused) focused.focus({ preventScroll: true });
  }

  // ---- Popups for keyboards (`asButton`): a popup opened from a focused marker takes the
  // focus, its close button is a named button, and Escape or the close button gives the focus
  // back to the marker (from the popup or the marker only: a reader in the timeline stays there).
  map.on('popupclose', function (event) {
    if (!shownPopup || shownPopup.popup !== event.popup) return;
    var owner = shownPopup.owner;
    shownPopup = null;
    // Closed under the focus (its close button): the focus would fall to the page.
    if (!document.activeElement || document.activeElement === document.body) owner.focus({ preventScroll: true });
  });
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Escape') return;
    // With no popup open, Escape folds a fan, and gives the focus from the map to its group.
    if (!shownPopup && fanned) {
      var group = fanned, inMap = mapElement.contains(document.activeElement);
      clusters.unspiderfy();
      if (inMap && group.getElement()) group.getElement().focus({ preventScroll: true });
      return;
    }
    if (!shownPopup) return;
    var element = shownPopup.popup.getElement(), owner = shownPopup.owner;
    var fromPopup = (element && element.contains(document.activeElement)) || document.activeElement === owner;
    map.closePopup(shownPopup.popup);
    if (fromPopup) owner.focus({ preventScroll: true });
  });

  document.querySelectorAll('button.visit-button').forEach(function (button) {
    button.addEventListener('click', function () {
      var id = button.getAttribute('data-visit'), marker = markers[id];
      // A visit of a day the filter hides is not on the map (nor is its button in view).
      if (!marker || !clusters.hasLayer(marker)) return;
      select(id, false);
      // Closer with tiles shown; the offline base map's coasts are drawn for a region, not a street.
      var close = tilesShown() ? 13 : 11;
      var target = marker.getLatLng(), zoom = Math.max(map.getZoom(), close);
      var request = ++revealing;
      var open = function () { reveal(marker, request, function () { marker.openPopup(); }); };
      if (map.getBounds().pad(-0.1).contains(target) && map.getZoom() >= close) { open(); return; }
      if (calm) { map.setView(target, zoom, { animate: false }); open(); return; }
      afterMove(request, open);
      flying = true;
      map.flyTo(target, zoom, { duration: 0.8 });
    });
  });

  // ---- One visit's marker shown on its own: its group zoomed into until the marker stands
  // alone, or fanned out where the group cannot part (its markers on one spot, or the map at
  // its closest). Each request (`revealing`) cancels the ones before, so quick clicks in the
  // timeline end on the last visit clicked, and nothing waits on a move that another began.
  // (The plugin's own `zoomToShowLayer` leaves its waits behind when interrupted, and a fan it
  // opens at the end of a zoom is closed again by its handler of that zoom's end.)
  // A fan asked for by the request `fanAsked.request`: when that group fans out (`spiderfied`),
  // its marker's `then` runs; any other fan, or a later request, drops it.
  // `flying`: the map is on its way to a visit (`flyTo`).
  var revealing = 0, fanAsked = null, flying = false;
  function reveal(marker, request, then) {
    (function step(tries) {
      if (request !== revealing || !clusters.hasLayer(marker)) return;
      if (map.hasLayer(marker)) { then(); return; }
      var group = clusters.getVisibleParent(marker);
      if (!group || !group.spiderfy || tries > 12) return;
      var bounds = group.getBounds();
      var zoom = Math.min(map.getMaxZoom(), map.getBoundsZoom(bounds.pad(0.3)));
      if (zoom <= map.getZoom() + 0.01) {
        fanAsked = { request: request, group: group, marker: marker, then: then };
        group.spiderfy();
        return;
      }
      afterMove(request, function () { step(tries + 1); });
      map.setView(bounds.getCenter(), zoom, { animate: !calm });
    })(0);
  }
  // Calls `next` for `request` once the map's move and the groups' regrouping after it (the
  // plugin's 0.3 s animation) are over; a later request drops it.
  function afterMove(request, next) {
    var done = function () {
      map.off('moveend', done);
      setTimeout(function () { if (request === revealing) next(); }, calm ? 0 : 350);
    };
    map.on('moveend', done);
  }
  // The reader taking the map in hand (a drag, the wheel, a pinch, its keys) ends a reveal under
  // way: the map stays where they take it, and no popup opens there later.
  function cancelReveal() {
    revealing += 1;
    fanAsked = null;
    if (!flying) return;
    // A flight stopped by Leaflet (a drag does so) ends without the events that tell the groups,
    // the drawn lines and the popup the zoom changed: ended here at the zoom it had reached,
    // snapped to the map's steps, as a flight's last frame ends it.
    flying = false;
    var zoom = Math.round(map.getZoom() * 4) / 4;
    map.stop();
    if (zoom !== map.getZoom()) map.setView(map.getCenter(), zoom, { animate: false });
    else map.fire('zoomend').fire('moveend');
  }
  map.on('moveend', function () { flying = false; });
  ['mousedown', 'touchstart', 'wheel'].forEach(function (type) {
    mapElement.addEventListener(type, cancelReveal, { passive: true, capture: true });
  });
  mapElement.addEventListener('keydown', function (event) {
    if (/^(Arrow(Up|Down|Left|Right)|\+|-|=|_)$/.test(event.key)) cancelReveal();
  }, true);

  // ---- Bounds and the day filter.
  function boundsOf(dayIndex) {
    var points = [];
    data.visits.forEach(function (v) { if (dayIndex === null || v.day === dayIndex) points.push([v.lat, v.lon]); });
    data.legs.forEach(function (leg) {
      if (dayIndex === null || leg.day === dayIndex) leg.pieces.forEach(function (flat) { points = points.concat(pairs(flat, 1)); });
    });
    return points.length ? L.latLngBounds(points) : null;
  }
  // A day with nothing on the map (its visits private, or its photos without a position)
  // shows the whole trip, not the world; a trip with nothing on it, the world.
  function fit(dayIndex) {
    var bounds = boundsOf(dayIndex) || boundsOf(null);
    if (bounds) map.fitBounds(bounds, { padding: [40, 40], maxZoom: 14, animate: false });
    else map.fitBounds([[w.south, w.west], [w.north, w.east]], { animate: false });
    showTiers();
  }
  var chips = document.querySelectorAll('.day-filter button');
  var daySections = document.querySelectorAll('section.day');
  var dayStatus = document.getElementById('day-status');
  function showDay(value) {
    var dayIndex = value === 'all' ? null : Number(value);
    chips.forEach(function (chip) { chip.setAttribute('aria-pressed', String(chip.getAttribute('data-day') === value)); });
    // Said to a screen reader (a status region): what the map and the timeline show now.
    var chosen = Array.prototype.filter.call(chips, function (chip) { return chip.getAttribute('data-day') === value; })[0];
    var shown = data.visits.filter(function (v) { return dayIndex === null || v.day === dayIndex; }).length;
    if (dayStatus && chosen) dayStatus.textContent = chosen.textContent.trim() + ': ' + counted(shown, words.groupVisit, words.groupVisits);
    dayLayers.forEach(function (layer, i) {
      if (dayIndex === null || i === dayIndex) { if (!map.hasLayer(layer)) layer.addTo(map); }
      else if (map.hasLayer(layer)) map.removeLayer(layer);
    });
    clusters.clearLayers();
    clusters.addLayers(markersOf(dayIndex));
    if (selectedId && markers[selectedId] && !clusters.hasLayer(markers[selectedId])) select(null, false);
    daySections.forEach(function (section) {
      section.hidden = !(dayIndex === null || Number(section.getAttribute('data-day')) === dayIndex);
    });
    map.closePopup();
    shownDay = dayIndex;
    pristine = true;
    fit(dayIndex);
  }
  chips.forEach(function (chip) { chip.addEventListener('click', function () { showDay(chip.getAttribute('data-day')); }); });
  var shownDay = null, pristine = true;
  fit(null);
  // A trip with nothing on the map says so over it, rather than leave the world bare.
  if (!boundsOf(null)) mapElement.appendChild(el('p', 'map-empty', words.nothingOnMap));
  // Grouped once the map has a view; the towns' labels then make way for the groups too.
  clusters.addLayers(markersOf(null));
  clusters.addTo(map);
  clusters.on('animationend', function () { orderMarkers(); declutter(); });
  map.on('zoomend', showTiers);
  map.on('moveend', function () { orderMarkers(); declutter(); });
  orderMarkers();
  showTiers();
  // Leaflet greys a zoom button out at the limit; it is said too.
  function zoomButtons() {
    mapElement.querySelectorAll('.leaflet-control-zoom a').forEach(function (a) {
      a.setAttribute('aria-disabled', String(a.classList.contains('leaflet-disabled')));
    });
  }
  map.on('zoomend zoomlevelschange', zoomButtons);
  zoomButtons();
  map.on('dragstart', function () { pristine = false; });
  mapElement.addEventListener('wheel', function () { pristine = false; }, { passive: true });
  mapElement.addEventListener('touchstart', function () { pristine = false; }, { passive: true });

  // ---- Online tiles, only ever on top of the offline map and only when asked for.
  var overlays = {};
  var OriginTiles = L.TileLayer.extend({
    createTile: function (coords, done) {
      var tile = document.createElement('img');
      // Sends the page's origin, as tile servers ask; set before src so the first request has it.
      tile.referrerPolicy = 'strict-origin-when-cross-origin';
      tile.alt = '';
      tile.setAttribute('role', 'presentation');
      L.DomEvent.on(tile, 'load', L.Util.bind(this._tileOnLoad, this, done, tile));
      L.DomEvent.on(tile, 'error', L.Util.bind(this._tileOnError, this, done, tile));
      tile.src = this.getTileUrl(coords);
      return tile;
    }
  });
  var tileOptions = function (attribution) { return { attribution: attribution, maxZoom: 19, errorTileUrl: '', crossOrigin: false }; };
  if (/^https?:$/.test(location.protocol)) {
    overlays['OpenStreetMap'] = new OriginTiles('https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      tileOptions('© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>'));
  }
  if (data.tiles) {
    var attribution = el('span', null, data.tiles.attribution).innerHTML;
    overlays[el('span', null, words.onlineTiles).innerHTML] = new OriginTiles(data.tiles.url, tileOptions(attribution));
  }
  if (Object.keys(overlays).length) L.control.layers(null, overlays, { collapsed: true }).addTo(map);
  // Closer with tiles shown: the limit follows them, and the groups are made again for it
  // (the plugin plans its groups for the limit it finds).
  function tilesShown() { return Object.keys(overlays).some(function (name) { return map.hasLayer(overlays[name])}); }
  map.on('overlayadd overlayremove', function () {
    var limit = tilesShown() ? 18 : 15;
    if (limit === map.getMaxZoom()) return;
    map.setMaxZoom(limit);
    clusters.clearLayers();
    clusters.addLayers(markersOf(shownDay));
  });

  // ---- The overview: the world's countries, the visited ones highlighted, the trip's box.
  var overview = L.map('overview', {
    zoomControl: false, attributionControl: false, dragging: false, scrollWheelZoom: false, doubleClickZoom: false,
    boxZoom: false, keyboard: false, touchZoom: false, tap: false, zoomSnap: 0.25
  });
  var overviewRenderer = L.canvas({ padding: 0.2 });
  var visitedBounds = null;
  countries.forEach(function (country) {
    var hit = country.code && visited[country.code];
    var polygon = styledLayer(L.polygon(country.rings, { renderer: overviewRenderer, interactive: false }), function () {
      return { stroke: true, weight: 0.4, color: css('--bg'), fillColor: css(hit ? '--visited' : '--overview-land'), fillOpacity: 1 };
    });
    polygon.addTo(overview);
    if (hit) visitedBounds = visitedBounds ? visitedBounds.extend(polygon.getBounds()) : polygon.getBounds();
  });
  var tripBounds = boundsOf(null);
  if (tripBounds) styledLayer(L.rectangle(tripBounds.pad(0.1), { renderer: overviewRenderer, interactive: false }), function () {
    return { weight: 2, color: css('--accent'), fill: false };
  }).addTo(overview);
  // The countries visited and the trip's box, all of it.
  var overviewFocus = visitedBounds && tripBounds ? L.latLngBounds(visitedBounds.getSouthWest(), visitedBounds.getNorthEast()).extend(tripBounds.pad(0.1))
    : visitedBounds || tripBounds;
  if (overviewFocus) overview.fitBounds(overviewFocus.pad(1.2), { maxZoom: 5, animate: false });
  else overview.fitWorld({ animate: false });

  // ---- A map whose box changes size (a phone turned, a window resized, the layout settling
  // after load) is told so, and keeps showing the whole trip until the reader moves it.
  if (window.ResizeObserver) {
    new ResizeObserver(function () {
      map.invalidateSize({ animate: false });
      if (pristine) fit(shownDay);
      overview.invalidateSize({ animate: false });
      if (overviewFocus) overview.fitBounds(overviewFocus.pad(1.2), { maxZoom: 5, animate: false });
    }).observe(mapElement);
  }

  // ---- Dark and light follow the system while the page is open.
  if (window.matchMedia) {
    var scheme = window.matchMedia('(prefers-color-scheme: dark)');
    var restyle = function () { styled.forEach(function (entry) { entry[0].setStyle(entry[1]()); }); };
    if (scheme.addEventListener) scheme.addEventListener('change', restyle);
  }
})();
"""#
}

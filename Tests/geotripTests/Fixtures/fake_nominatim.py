#!/usr/bin/env python3
"""A Nominatim-compatible /reverse and /search on 127.0.0.1 for geotrip's tests: a real HTTP server.

Usage: fake_nominatim.py LOG_FILE [MODE]. Prints the port it listens on, then serves until
killed. Every request is appended to LOG_FILE as one JSON line (path, query, User-Agent,
Host, Authorization, Accept-Language, and `t`, the server's monotonic clock when the request arrived), so tests see
the spacing of requests as the server saw it.

Modes (also set while running with GET /_control/mode?m=MODE):
  ok         answers properly
  fail       503 to everything
  flaky      503 to the first request about each point, then properly
  throttle   429 with Retry-After: 0 to the first request about each point, then properly
  drop       closes the connection without answering the first request about each point
  slow       takes 3.5 s over the very first answer
  malformed  answers requests about Spain with a body that is not JSON
  wrongtype  answers requests about Spain with `address` as a list
  hold       keeps every answer until GET /_control/release (then answers properly)
  elsewhere  answers requests about Spain with an object 20 degrees farther north (a service
             answering for another point)
  fail4      answers the first 4 requests properly, then 503 to everything (a service that
             goes down in the middle of a run)
  redirect   301 to the same request on `localhost` (another host name for this server) for
             /reverse; 301 to itself under /moved/ (same host) for /search
  searchobj  answers /search with one object instead of the list of results
  portal     answers everything with a web page (a network's sign-in page)
  wait4      429 with Retry-After: 4 to the very first request, then properly
  waitever   429 with Retry-After: 2 to everything (a rate-limiting proxy that lets nothing by)
  codeonly   answers properly, but every address without its country's name and its state
             (country_code alone)
  vast       answers requests about Spain with an object whose middle is 4 degrees north (a
             vast borough's), its bounding box holding the point asked about
  portugal   a self-hosted service with Portugal's data alone: about Spain, `Unable to geocode`
             (POI requests) or an object with no name and no address (address requests)
  sights     answers every POI request with a named sight at the point asked about (so each
             small place takes one request: `make bench` uses it)
  stall      sends the head of every answer and a few bytes of its body, then nothing for a minute
  nanbox     answers requests about Spain with an object 20 degrees farther north whose bounding
             box holds a "nan"
GET /_control/count answers the number of requests logged.

Answers take their shape from Nominatim's jsonv2 output (nominatim.org, "Place Output"), in
English or Korean by Accept-Language: a named sight (Torre de Belém) for points near Belém; a
street (no sight, no `name` for some) elsewhere; with `layer=poi,...`, the nearest POI, which
away from Belém is a café 400 m off (so geotrip must ask again at address level); the sea's
`{"error": "Unable to geocode"}` at 0,0.
"""
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

LOG = sys.argv[1]
STATE = {"mode": sys.argv[2] if len(sys.argv) > 2 else "ok"}
SEEN = set()
LOCK = threading.Lock()
RELEASED = threading.Event()

NAMES = {
    "en": {"tower": "Belém Tower", "suburb": "Baixa", "city": "Lisbon", "state": "Lisbon", "country": "Portugal",
           "street": "Rua Augusta", "es": "Spain", "es_city": "Madrid", "es_state": "Community of Madrid", "es_suburb": "Centro",
           "cafe": "Far Café"},
    "ko": {"tower": "벨렝 탑", "suburb": "바이샤", "city": "리스본", "state": "리스본", "country": "포르투갈",
           "street": "아우구스타 거리", "es": "스페인", "es_city": "마드리드", "es_state": "마드리드 지방", "es_suburb": "센트로",
           "cafe": "먼 카페"},
}
TOWER = (38.6916, -9.2160)


def near_tower(lat, lon):
    return abs(lat - TOWER[0]) < 0.003 and abs(lon - TOWER[1]) < 0.003


def tower(names):
    return {"place_id": 1, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright",
            "osm_type": "way", "osm_id": 25407093, "lat": str(TOWER[0]), "lon": str(TOWER[1]), "category": "historic",
            "type": "castle", "place_rank": 30, "importance": 0.43, "addresstype": "historic", "name": names["tower"],
            "display_name": names["tower"] + ", Avenida Brasília, Belém, " + names["city"] + ", " + names["country"],
            "address": {"historic": names["tower"], "road": "Avenida Brasília", "suburb": "Belém", "city": names["city"],
                        "state": names["state"], "country": names["country"], "country_code": "pt"}}


def street(lat, lon, names):
    spain = lon > -7.5
    answer = {"place_id": 2, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright",
              "osm_type": "way", "osm_id": 4, "lat": str(lat), "lon": str(lon), "category": "highway", "type": "residential",
              "place_rank": 26, "importance": 0.1, "addresstype": "road",
              "display_name": names["street"],
              "address": {"road": names["street"], "suburb": names["es_suburb" if spain else "suburb"],
                          "city": names["es_city" if spain else "city"], "state": names["es_state" if spain else "state"],
                          "country": names["es" if spain else "country"], "country_code": "es" if spain else "pt"}}
    # Nominatim leaves `name` out of objects without one; in Portugal the street is named.
    if not spain:
        answer["name"] = names["street"]
    return answer


def reverse(lat, lon, layer, names):
    if lat == 0 and lon == 0:
        return {"error": "Unable to geocode"}
    if near_tower(lat, lon) and "address" not in layer:
        return tower(names)
    if "poi" in layer:
        # The nearest POI is a café 400 m north: too far to be where the photos were.
        far = lat + 400 / 111_320
        return {"place_id": 3, "lat": str(far), "lon": str(lon), "category": "amenity", "type": "cafe", "place_rank": 30,
                "addresstype": "amenity", "name": names["cafe"], "display_name": names["cafe"],
                "address": {"amenity": names["cafe"], "city": names["city"], "country": names["country"], "country_code": "pt"}}
    return street(lat, lon, names)


def search(q, names):
    q = q.lower()
    if q in ("torre de belém", "belém tower", "벨렝 탑"):
        return [tower(names)]
    if q in ("null island", "off the globe"):
        # Positions no place has: 0,0 (a service with nothing there) and a latitude past the pole.
        return [dict(street(0, 0, names), name=q.title(), display_name=q.title(),
                     lat="0" if q == "null island" else "999", lon="0")]
    if q == "c++ bar":
        # A name that would steer a terminal: a title, a cleared screen, a line of its own.
        return [dict(street(38.7075, -9.1365, names), name="Evil\x1b]0;PWNED\x07\x1b[2J\nFAKE", display_name="Evil bar")]
    if q == "centro":
        # Ambiguous: two places of that name.
        madrid = dict(street(40.4168, -3.7038, names), name="Centro", display_name="Centro, Madrid, España",
                      category="place", type="neighbourhood", boundingbox=["40.40", "40.43", "-3.72", "-3.69"])
        sevilla = dict(street(37.3891, -5.9845, names), name="Centro", display_name="Centro, Sevilla, España",
                       category="place", type="neighbourhood")
        sevilla["address"] = dict(sevilla["address"], city="Sevilla", state="Andalucía")
        return [madrid, sevilla]
    if q == "same":
        # Two results named alike to the last word: only where they are tells them apart.
        return [dict(street(38.70, -9.14, names), name="Same", display_name="Same"),
                dict(street(38.75, -9.20, names), name="Same", display_name="Same")]
    return []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def send_body(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        arrived = time.monotonic()
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path.startswith("/_control/"):
            if url.path == "/_control/release":
                RELEASED.set()
            elif url.path == "/_control/mode":
                STATE["mode"] = query["m"]
                RELEASED.clear()
            with open(LOG) as log:
                count = sum(1 for _ in log)
            return self.send_body(200, str(count).encode())
        with LOCK:
            with open(LOG, "a") as log:
                log.write(json.dumps({"path": url.path, "query": query, "userAgent": self.headers.get("User-Agent"),
                                      "host": self.headers.get("Host"), "authorization": self.headers.get("Authorization"),
                                      "language": self.headers.get("Accept-Language"), "t": arrived}) + "\n")
            point = (url.path, query.get("lat"), query.get("lon"), query.get("layer"), query.get("q"))
            first_of_point = point not in SEEN
            first_of_all = not SEEN
            SEEN.add(point)
            STATE["count"] = STATE.get("count", 0) + 1
            late = STATE["count"] > 4
        mode = STATE["mode"]
        if mode == "redirect" and url.path == "/reverse":
            port = self.server.server_address[1]
            return self.send_body(301, b"", [("Location", f"http://localhost:{port}{self.path}")])
        if mode == "redirect" and url.path == "/search":
            return self.send_body(301, b"", [("Location", "/moved" + self.path)])
        if url.path.startswith("/moved/"):
            url = url._replace(path=url.path[len("/moved"):])
        if mode == "fail" or (mode == "flaky" and first_of_point) or (mode == "fail4" and late):
            return self.send_body(503, b"")
        if mode == "waitever":
            return self.send_body(429, b"", [("Retry-After", "2")])
        if mode == "wait4" and first_of_all:
            return self.send_body(429, b"", [("Retry-After", "4")])
        if mode == "throttle" and first_of_point:
            return self.send_body(429, b"", [("Retry-After", "0")])
        if mode == "drop" and first_of_point:
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        if mode == "bloated":
            # Over the 4 MiB geotrip reads of an answer: a broken proxy, not a place.
            return self.send_body(200, b'{"padding": "' + b"x" * (5 << 20) + b'"}', [("Content-Type", "application/json")])
        if mode == "slow" and first_of_all:
            time.sleep(3.5)
        if mode == "hold":
            RELEASED.wait()
        if mode == "stall":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"name": ')
            self.wfile.flush()
            time.sleep(60)
            return
        names = NAMES["ko" if self.headers.get("Accept-Language", "en").startswith("ko") else "en"]
        if url.path == "/search":
            if mode == "portal":
                return self.send_body(200, b"<html><body>Sign in to the hotel's Wi-Fi</body></html>", [("Content-Type", "text/html")])
            answer = search(query.get("q", ""), names)
            if mode == "searchobj":
                answer = answer[0] if answer else {}
        else:
            lat, lon = float(query["lat"]), float(query["lon"])
            if mode == "malformed" and lon > -7.5 or mode == "portal":
                return self.send_body(200, b"<html>Service Unavailable</html>", [("Content-Type", "text/html")])
            answer = reverse(lat, lon, query.get("layer", ""), names)
            if mode == "sights" and "poi" in query.get("layer", ""):
                answer = dict(tower(names), lat=str(lat), lon=str(lon), name=f"Sight {lat:.4f},{lon:.4f}")
            if mode == "elsewhere" and lon > -7.5:
                answer["lat"] = str(lat + 20)
            if mode == "nanbox" and lon > -7.5:
                answer["lat"] = str(lat + 20)
                answer["boundingbox"] = ["nan", "1", "2", "3"]
            if mode == "vast" and lon > -7.5:
                answer["lat"] = str(lat + 4)
                answer["boundingbox"] = [str(lat - 1), str(lat + 5), str(lon - 1), str(lon + 1)]
            if mode == "portugal" and lon > -7.5:
                answer = {"error": "Unable to geocode"} if "poi" in query.get("layer", "") else {"place_id": 9, "lat": str(lat), "lon": str(lon)}
            if mode == "wrongtype" and lon > -7.5:
                answer["address"] = ["not", "an", "object"]
            if mode == "codeonly" and isinstance(answer.get("address"), dict):
                answer["address"] = {k: v for k, v in answer["address"].items() if k not in ("country", "state")}
        self.send_body(200, json.dumps(answer).encode(), [("Content-Type", "application/json; charset=utf-8")])

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()

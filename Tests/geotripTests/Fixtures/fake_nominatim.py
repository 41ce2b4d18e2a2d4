#!/usr/bin/env python3
"""A Nominatim-compatible /reverse on 127.0.0.1 for geotrip's tests: a real HTTP server.

Usage: fake_nominatim.py LOG_FILE [ok|fail|flaky|slow]. Prints the port it listens on, then
serves until killed: `fail` answers 503 to everything, `flaky` answers 503 to the first
request about each point and then properly, `slow` takes 3.5 s over its first answer. Every request is appended to LOG_FILE as one JSON line (path, query, User-Agent,
Accept-Language). Answers take their shape from Nominatim's jsonv2 output (nominatim.org,
"Place Output"): a named sight near Belém, a street (no sight) elsewhere, in English or Korean.
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

LOG, MODE = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "ok")
SEEN = set()
LOCK = threading.Lock()

NAMES = {
    "en": {"tower": "Belém Tower", "suburb": "Baixa", "city": "Lisbon", "state": "Lisbon", "country": "Portugal",
           "street": "Rua Augusta", "es": "Spain", "es_city": "Madrid", "es_state": "Community of Madrid", "es_suburb": "Centro"},
    "ko": {"tower": "벨렝 탑", "suburb": "바이샤", "city": "리스본", "state": "리스본", "country": "포르투갈",
           "street": "아우구스타 거리", "es": "스페인", "es_city": "마드리드", "es_state": "마드리드 지방", "es_suburb": "센트로"},
}


def answer(lat, lon, language):
    names = NAMES["ko" if language.startswith("ko") else "en"]
    if lat == 0 and lon == 0:
        return {"error": "Unable to geocode"}
    if abs(lat - 38.6916) < 0.003 and abs(lon + 9.2160) < 0.003:
        # A sight: Nominatim's category/type for Torre de Belém.
        return {"place_id": 1, "lat": str(lat), "lon": str(lon), "category": "historic", "type": "castle",
                "place_rank": 30, "addresstype": "historic", "name": names["tower"],
                "display_name": names["tower"] + ", " + names["city"],
                "address": {"historic": names["tower"], "road": "Avenida Brasília", "suburb": "Belém", "city": names["city"],
                            "state": names["state"], "country": names["country"], "country_code": "pt"}}
    spain = lon > -7.5
    return {"place_id": 2, "lat": str(lat), "lon": str(lon), "category": "highway", "type": "residential", "place_rank": 26,
            "addresstype": "road", "name": names["street"], "display_name": names["street"],
            "address": {"road": names["street"], "suburb": names["es_suburb" if spain else "suburb"],
                        "city": names["es_city" if spain else "city"], "state": names["es_state" if spain else "state"],
                        "country": names["es" if spain else "country"], "country_code": "es" if spain else "pt"}}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        with open(LOG, "a") as log:
            log.write(json.dumps({"path": url.path, "query": query, "userAgent": self.headers.get("User-Agent"),
                                  "language": self.headers.get("Accept-Language")}) + "\n")
        with LOCK:
            first_of_point = (query.get("lat"), query.get("lon")) not in SEEN
            first_of_all = not SEEN
            SEEN.add((query.get("lat"), query.get("lon")))
        if MODE == "fail" or (MODE == "flaky" and first_of_point):
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if MODE == "slow" and first_of_all:
            time.sleep(3.5)
        body = json.dumps(answer(float(query["lat"]), float(query["lon"]), self.headers.get("Accept-Language", "en"))).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()

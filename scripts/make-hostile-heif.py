#!/usr/bin/env python3
"""Makes Tests/GeoTripCoreTests/Fixtures/hostile/heic-grid-past-4096-items.heic from heic-grid.heic:
DUMMIES items of an unknown type (each with a one-byte extent in idat) listed in iinf before
the grid, whose descriptor then asks for SIDE x SIDE pixels while its ispe says 64 x 48.
Usage: make-hostile-heif.py SOURCE OUT DUMMIES SIDE (the fixture: 4100 25000)."""
import struct, sys
src, out, dummies, side = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
b = bytearray(open(src, 'rb').read())
mstart = 28; msz = struct.unpack_from('>I', b, mstart)[0]
kids = []; p = mstart + 12
while p < mstart + msz:
    sz, t = struct.unpack_from('>I4s', b, p); kids.append([t, bytes(b[p:p+sz])]); p += sz
def rebuild(delta):
    parts = []
    for t, body in kids:
        if t == b'iinf':
            n = struct.unpack_from('>H', body, 12)[0]
            entries = body[14:]
            first = struct.unpack_from('>I', entries, 0)[0]
            dummy = b''.join(struct.pack('>I4sIHH4sB', 21, b'infe', (2 << 24) | 1, 100 + i, 0, b'xxxx', 0) for i in range(dummies))
            nb = body[8:12] + struct.pack('>H', n + dummies) + entries[:first] + dummy + entries[first:]
            parts.append(struct.pack('>I', 8 + len(nb)) + b'iinf' + nb)
        elif t == b'iloc':
            body = bytearray(body)
            count = struct.unpack_from('>H', body, 14)[0]; q = 16
            for _ in range(count):
                item, cm, dref, base, ne = struct.unpack_from('>HHHIH', body, q)
                if cm & 0xF == 0: struct.pack_into('>I', body, q + 6, base + delta)
                q += 12 + ne * 8
            body[14:16] = struct.pack('>H', count + dummies)
            body += b''.join(struct.pack('>HHHIHII', 100 + i, 1, 0, 0, 1, 0, 1) for i in range(dummies))
            struct.pack_into('>I', body, 0, len(body))
            parts.append(bytes(body))
        elif t == b'idat':
            parts.append(body[:8] + struct.pack('>BBBBHH', 0, 0, 0, 0, side, side))
        else:
            parts.append(body)
    m = b''.join(parts)
    return struct.pack('>I', 12 + len(m)) + b'meta' + bytes(b[mstart+8:mstart+12]) + m
m0 = rebuild(0); delta = len(m0) - msz
m = rebuild(delta)
open(out, 'wb').write(bytes(b[:mstart]) + m + bytes(b[mstart+msz:]))

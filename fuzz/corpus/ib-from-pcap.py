#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Extract the answer MADs of a fabaudit mads.pcap (fabric/ib_pcap.c: ERF
# records of IBA local UD packets, interface 1 = received) into seed files
# for the IB fuzz targets, in their input formats (fuzz/fuzz_ib_*.c):
#   ib_smp/  selector byte + MAD      ib_gmp/  selector byte + MAD
#   ib_sa/   selector byte + LID (2 bytes, big-endian) + SA message
# Run once by hand (fuzz/README); not part of the build.
# usage: fuzz/corpus/ib-from-pcap.py OUTDIR PCAP...
import hashlib
import os
import struct
import sys

ERF_LEN, HDR_LEN, MAD_LEN = 16, 8 + 12 + 8, 256
SMP_SEL = {0x11: 0, 0x10: 1, 0x15: 2, 0x16: 4, 0x20: 5}
GMP_SEL = {0x21: 0, 0x0a: 1, 0x0b: 2, 0x04: 3, 0x05: 4}
PER_KIND = 4


def mads(path):
    with open(path, 'rb') as f:
        data = f.read()
    magic = data[:4]
    end = '<' if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
    off = 24
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + 'IIII', data[off:off + 16])
        pkt = data[off + 16:off + 16 + incl]
        off += 16 + incl
        if len(pkt) < ERF_LEN + HDR_LEN + MAD_LEN:
            continue
        received = pkt[9] & 0x3 == 1
        if received:
            yield pkt[ERF_LEN + HDR_LEN:ERF_LEN + HDR_LEN + MAD_LEN]


def main():
    out = sys.argv[1]
    seen, count = set(), {}

    def put(target, kind, blob):
        if count.get((target, kind), 0) >= PER_KIND:
            return
        h = hashlib.sha1(blob).hexdigest()[:12]
        if h in seen:
            return
        seen.add(h)
        count[(target, kind)] = count.get((target, kind), 0) + 1
        os.makedirs(os.path.join(out, target), exist_ok=True)
        with open(os.path.join(out, target, kind + '-' + h), 'wb') as f:
            f.write(blob)

    for path in sys.argv[2:]:
        for m in mads(path):
            cls, attr = m[1], m[16] << 8 | m[17]
            if cls in (0x01, 0x81) and attr in SMP_SEL:
                sel = SMP_SEL[attr] | (8 if cls == 0x81 else 0)
                put('ib_smp', 'smp%d' % sel, bytes([sel]) + m)
                if attr == 0x15:    # also as a switch's external port
                    ext = (sel & 8) | 3
                    put('ib_smp', 'smp%d' % ext, bytes([ext]) + m)
            elif cls in GMP_SEL:
                put('ib_gmp', 'gmp%d' % GMP_SEL[cls],
                    bytes([GMP_SEL[cls]]) + m)
            elif cls == 0x03:
                rec = m[56:]
                recsz = (m[44] << 8 | m[45]) * 8
                if attr == 0x33:
                    put('ib_sa', 'pkeyrec', bytes([0]) + rec[0:2] + m)
                elif attr == 0x18:
                    put('ib_sa', 'sminforec', bytes([1, 0, 0]) + m)
                elif attr == 0x35 and recsz >= 64:
                    slid, dlid = rec[42:44], rec[40:42]
                    put('ib_sa', 'pathtable', bytes([2]) + slid + m)
                    put('ib_sa', 'pathport', bytes([3]) + dlid + m)
                    # A reassembled RMPP transfer of several MADs: the
                    # header, then the records three times over.
                    n = (len(m) - 56) // recsz
                    body = m[56:56 + n * recsz] * 3
                    put('ib_sa', 'pathtable-rmpp',
                        bytes([2]) + slid + m[:56] + body)


main()

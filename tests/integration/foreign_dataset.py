#!/usr/bin/python3
"""Builds a folder of foreign dataset files for tests/integration/test_index.sh, and writes what
the files hold (TFRecord record boundaries, Parquet row groups, tar members, image dimensions)
to a JSON file beside it, computed here independently of dlsize.

usage: foreign_dataset.py DIR EXPECTED.json
"""
import gzip
import json
import os
import random
import struct
import sys
import tarfile
import zipfile

try:
    import numpy
except ImportError:  # Debian's python3-numpy; without it the NPY/NPZ files are written by hand
    numpy = None

TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    TABLE.append(c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def tfrecord(path, sizes, rnd):
    records, off = [], 0
    with open(path, "wb") as f:
        for n in sizes:
            data = rnd.randbytes(n)
            length = struct.pack("<Q", n)
            f.write(length + struct.pack("<I", masked(length)) + data +
                    struct.pack("<I", masked(data)))
            records.append([off, 16 + n])
            off += 16 + n
    return records


def jpeg(path, w, h, n, rnd):
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, h, w, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    with open(path, "wb") as f:
        f.write(b"\xff\xd8" + app0 + sof + b"\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00")
        f.write(rnd.randbytes(n).replace(b"\xff", b"\x00") + b"\xff\xd9")


def png(path, w, h, n, rnd):
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + b"\0\0\0\0")
        f.write(rnd.randbytes(n))


def npy_bytes(shape, dtype="<f4"):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        dtype, "".join("%d, " % d for d in shape) if len(shape) == 1 else ", ".join(map(str, shape)))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    count = 1
    for d in shape:
        count *= d
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + bytes(4 * count)


# Thrift compact protocol, just what a Parquet footer needs.
def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def zigzag(v):
    return varint((v << 1) ^ (v >> 63))


def field(last, fid, ftype):
    delta = fid - last
    return bytes([(delta << 4) | ftype]) if 0 < delta <= 15 else bytes([ftype]) + zigzag(fid)


def struct_(fields):
    """fields: [(id, type, encoded value)] in increasing id order."""
    out, last = bytearray(), 0
    for fid, ftype, value in fields:
        out += field(last, fid, ftype) + value
        last = fid
    return bytes(out) + b"\x00"


def list_(etype, items):
    n = len(items)
    head = bytes([(n << 4) | etype]) if n < 15 else bytes([0xF0 | etype]) + varint(n)
    return head + b"".join(items)


def binary(s):
    return varint(len(s)) + s


def parquet(path, groups, rnd):
    """groups: byte sizes of the row groups (one column each). Returns their [offset, length]."""
    ranges, body = [], bytearray(b"PAR1")
    for n in groups:
        ranges.append([len(body), n])
        body += rnd.randbytes(n)
    row_groups = []
    for (off, n) in ranges:
        meta = struct_([(1, 5, zigzag(1)), (2, 9, list_(5, [zigzag(0)])),
                        (3, 9, list_(8, [binary(b"x")])), (4, 5, zigzag(0)),
                        (5, 6, zigzag(100)), (6, 6, zigzag(n)), (7, 6, zigzag(n)),
                        (9, 6, zigzag(off))])
        chunk = struct_([(2, 6, zigzag(off)), (3, 12, meta[:])])
        row_groups.append(struct_([(1, 9, list_(12, [chunk])), (2, 6, zigzag(n)),
                                   (3, 6, zigzag(100))]))
    schema = [struct_([(4, 8, binary(b"schema")), (5, 5, zigzag(1))]),
              struct_([(1, 5, zigzag(1)), (3, 5, zigzag(0)), (4, 8, binary(b"x"))])]
    footer = struct_([(1, 5, zigzag(1)), (2, 9, list_(12, schema)),
                      (3, 6, zigzag(100 * len(groups))), (4, 9, list_(12, row_groups))])
    with open(path, "wb") as f:
        f.write(bytes(body) + footer + struct.pack("<I", len(footer)) + b"PAR1")
    return ranges


def main(root, expected_path):
    rnd = random.Random(16)
    exp = {"tfrecord": {}, "parquet": {}, "tar": {}, "images": {}, "npy": {}, "npz": {}}
    for d in ["images/a", "images/b/deeper", "shards", "arrays", "tables", "wds"]:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    for i in range(12):
        w, h = 64 + i, 48 + 2 * i
        p = "images/a/img%03d.jpg" % i
        jpeg(os.path.join(root, p), w, h, 2000 + 97 * i, rnd)
        exp["images"][p] = [w, h]
    for i in range(5):
        p = "images/b/deeper/pic%02d.png" % i
        png(os.path.join(root, p), 32 + i, 16 + i, 3000 + 11 * i, rnd)
        exp["images"][p] = [32 + i, 16 + i]
    for s in range(3):
        p = "shards/train-%05d-of-00003.tfrecord" % s
        sizes = [rnd.randint(100, 3000) for _ in range(20 + 7 * s)]
        exp["tfrecord"][p] = tfrecord(os.path.join(root, p), sizes, rnd)
    with gzip.open(os.path.join(root, "shards/eval.tfrecord"), "wb") as f:
        f.write(rnd.randbytes(500))
    shapes = [(16, 16), (8, 4, 2), (100,)]
    for i, shape in enumerate(shapes):
        p = "arrays/vol%d.npy" % i
        if numpy is not None:
            numpy.save(os.path.join(root, p), numpy.zeros(shape, dtype="<f4"))
        else:
            with open(os.path.join(root, p), "wb") as f:
                f.write(npy_bytes(shape))
        exp["npy"][p] = list(shape)
    p = "arrays/case.npz"
    if numpy is not None:
        numpy.savez(os.path.join(root, p), image=numpy.zeros((4, 5), "<f4"),
                    mask=numpy.ones((4, 5), "<f4"))
    else:
        with zipfile.ZipFile(os.path.join(root, p), "w", zipfile.ZIP_STORED) as z:
            z.writestr("image.npy", npy_bytes((4, 5)))
            z.writestr("mask.npy", npy_bytes((4, 5)))
    exp["npz"][p] = {"image.npy": [4, 5], "mask.npy": [4, 5]}
    p = "tables/part-0.parquet"
    exp["parquet"][p] = parquet(os.path.join(root, p), [4000, 2500, 6100], rnd)
    p = "wds/shard-000000.tar"
    with tarfile.open(os.path.join(root, p), "w", format=tarfile.USTAR_FORMAT) as t:
        for k in range(6):
            for ext, n in (("jpg", 1500 + k), ("cls", 2)):
                src = os.path.join(root, "wds", ".member")
                with open(src, "wb") as f:
                    f.write(rnd.randbytes(n))
                t.add(src, arcname="%06d.%s" % (k, ext))
                os.unlink(src)
    exp["tar"][p] = 12
    with open(os.path.join(root, "notes.txt"), "w") as f:
        f.write("not a dataset file\n")
    os.symlink("images/a/img000.jpg", os.path.join(root, "link.jpg"))
    os.link(os.path.join(root, "images/a/img001.jpg"), os.path.join(root, "images/b/hard.jpg"))
    os.mkfifo(os.path.join(root, "pipe"))
    with open(os.path.join(os.fsencode(root), b"odd\xffname.bin"), "wb") as f:
        f.write(b"a name that is not UTF-8")
    with open(expected_path, "w") as f:
        json.dump(exp, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

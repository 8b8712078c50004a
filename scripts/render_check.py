#!/usr/bin/env python3
"""The checks of scripts/render-check.sh on what Chromium made of a page.

Usage: render_check.py DOM.html SHOT.png MIN_SVG NAME
DOM.html: Chromium's --dump-dom of the page; it must hold MIN_SVG <svg> elements that each
draw marks (circle, polyline, polygon or rect), a <table>, and no Chromium error page.
SHOT.png: its --screenshot; it must decode and hold more than one colour in several rows.
"""
import re
import struct
import sys
import zlib

from check_html import report


def png_rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, ctype, depth = 8, b"", 0, 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if depth != 8 or ctype not in (2, 6):
        raise ValueError(f"unexpected PNG format: depth {depth}, colour type {ctype}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows, i = [], 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    dom_path, shot, min_svg, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    dom = open(dom_path, encoding="utf-8", errors="replace").read()
    problems = []
    svgs = re.findall(r"<svg\b.*?</svg>", dom, re.S)
    drawn = [s for s in svgs if re.search(r"<(?:circle|polyline|polygon)\b|<rect class=\"bar\"", s)]
    if len(drawn) < min_svg:
        problems.append(f"{len(drawn)} charts with marks in the DOM, wanted {min_svg}")
    if "<table" not in dom:
        problems.append("no <table> in the DOM")
    if re.search(r"ERR_[A-Z_]+|This site can.t be reached|id=\"main-frame-error\"", dom):
        problems.append("Chromium shows an error page")
    try:
        width, height, bpp, rows = png_rows(shot)
        varied = sum(1 for r in rows[:: max(1, height // 200)] if len(set(r[i:i + 3] for i in range(0, len(r), bpp))) > 1)
        if varied < 10:
            problems.append(f"the screenshot is almost blank ({varied} sampled rows with more than one colour)")
    except (OSError, ValueError, zlib.error) as e:
        problems.append(f"screenshot unreadable: {e}")
    return report(f"render-check: {name}", problems, lambda: f"rendered, {len(drawn)} charts, screenshot {width}x{height} not blank")


if __name__ == "__main__":
    sys.exit(main())

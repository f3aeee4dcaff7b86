#!/usr/bin/env python3
"""test_diff_html_render: the page of `ggufsafe diff --html` as a browser draws it.

Makes the three files of gs_diff_html_inputs, writes the three-way page (REF Q8_0 Q4_0) and a
two-way one (REF Q4_0), renders each with headless Chromium (--screenshot) and decodes the PNG
(zlib from the standard library: no dependency). Each chart's plot area is read from the SVG's
own attributes (data-left, data-top: the chart's place on the page; data-plot: the plot area in
it; data-series: its series' colours), not hard-coded, and must hold pixels of each series'
colour. Then the same page with its <svg class="chart"> elements removed (the layout kept: the
charts' block keeps its height) must FAIL that check for every chart: a check that passes without
charts proves nothing.

Exit 0 when both hold, 1 when not, 77 (ctest's skip) when there is no Chromium, 2 on a usage or
tool failure.
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

MIN_PIXELS = 4  # of a series' colour in a chart's plot area
TOLERANCE = 3   # per channel


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def decode_png(data):
    """(width, height, rows of RGB tuples' bytes) of an 8-bit RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace != 0:
                raise ValueError("unsupported PNG: depth %d colour type %d interlace %d"
                                 % (depth, ctype, interlace))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if width is None:
        raise ValueError("no IHDR")
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
            elif f != 0:
                raise ValueError("bad filter %d" % f)
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def charts_of(page):
    """The charts' places and colours, from the page's own attributes."""
    out = []
    for m in re.finditer(r'<svg class="chart"([^>]*)>', page):
        attrs = dict(re.findall(r'([a-z-]+)="([^"]*)"', m.group(1)))
        x, y, w, h = (int(v) for v in attrs["data-plot"].split())
        left, top = int(attrs["data-left"]), int(attrs["data-top"])
        series = attrs["data-series"].split()
        out.append({"kind": attrs["data-chart"], "rect": (left + x, top + y, w, h),
                    "series": series})
    return out


def count_colour(img, rect, colour):
    width, height, bpp, rows = img
    r0, g0, b0 = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    x0, y0, w, h = rect
    n = 0
    for y in range(max(0, y0), min(height, y0 + h + 1)):
        row = rows[y]
        for x in range(max(0, x0), min(width, x0 + w + 1)):
            p = x * bpp
            if (abs(row[p] - r0) <= TOLERANCE and abs(row[p + 1] - g0) <= TOLERANCE
                    and abs(row[p + 2] - b0) <= TOLERANCE):
                n += 1
    return n


def render(chromium, html_path, png_path, work, size):
    if os.path.exists(png_path):
        os.remove(png_path)
    cmd = ["timeout", "60", chromium, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
           "--no-first-run", "--user-data-dir=" + os.path.join(work, "profile"),
           "--screenshot=" + png_path, "--window-size=%d,%d" % size,
           "file://" + os.path.abspath(html_path)]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         env=dict(os.environ, HOME=work))
    if res.returncode != 0 or not os.path.exists(png_path):
        print(res.stdout.decode("utf-8", "replace")[-4000:])
        print("error: chromium exited %d without a screenshot" % res.returncode)
        sys.exit(2)
    with open(png_path, "rb") as f:
        return decode_png(f.read())


def check(img, charts):
    """The (chart, colour, pixels) that lack their colour."""
    missing = []
    for c in charts:
        for colour in c["series"]:
            n = count_colour(img, c["rect"], colour)
            if n < MIN_PIXELS:
                missing.append((c["kind"], c["rect"], colour, n))
    return missing


def check_page(chromium, page_path, work, label):
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    for bad in ("<script", "http:", "https:", " href=", " src=", "url("):
        if bad in page:
            fail("%s: the page holds %r" % (label, bad))
    charts = charts_of(page)
    if len(charts) < 2:
        fail("%s: %d charts, expected the scatter and at least one role chart" % (label,
                                                                                len(charts)))
    m = re.search(r'<div class="charts" data-width="(\d+)" data-height="(\d+)"', page)
    if not m:
        fail("%s: no charts block" % label)
    width = int(m.group(1))
    height = max(c["rect"][1] + c["rect"][3] for c in charts) + 60
    # Chromium sometimes captures before every tile is painted (a band of the page left white):
    # a failed check is retried, twice at most; the check without charts below is not.
    for attempt in range(3):
        img = render(chromium, page_path, os.path.join(work, label + ".png"), work,
                     (width, height))
        missing = check(img, charts)
        if not missing:
            break
        print("%s: attempt %d: %d series missing, rendering again" % (label, attempt + 1,
                                                                     len(missing)))
    if missing:
        fail("%s: series colours missing from their charts: %r" % (label, missing[:8]))
    # the same page without the charts must fail the same check, chart by chart
    stripped = re.sub(r'<svg class="chart".*?</svg>\n', "", page, flags=re.S)
    if stripped.count("<svg") != 0:
        fail("%s: could not strip the charts" % label)
    bare = os.path.join(work, label + "-nocharts.html")
    with open(bare, "w", encoding="utf-8") as f:
        f.write(stripped)
    img2 = render(chromium, bare, os.path.join(work, label + "-nocharts.png"), work,
                  (width, height))
    missing2 = check(img2, charts)
    lacking = {(k, r) for (k, r, _, _) in missing2}
    if len(lacking) != len(charts):
        fail("%s: without its charts the page still passes the check for %d of %d charts"
             % (label, len(charts) - len(lacking), len(charts)))
    print("%s: %d charts, every series' colour in its chart; without the charts none passes"
          % (label, len(charts)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", default="")
    ap.add_argument("--cli", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    chromium = a.chromium if a.chromium and os.path.exists(a.chromium) else shutil.which(
        "chromium")
    if not chromium:
        print("SKIP: no chromium (ci/install_deps.sh installs it)")
        return 77
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    if subprocess.run([a.inputs, a.work, "6"]).returncode != 0:
        print("error: gs_diff_html_inputs failed")
        return 2
    ref, q8, q4 = (os.path.join(a.work, n) for n in ("ref.gguf", "q8_0.gguf", "q4_0.gguf"))
    runs = {"three-way": [ref, q8, q4, "--max-nmse-ratio", "1"],
            "two-way": [ref, q4, "--max-nmse", "0.01"]}
    for label, args in runs.items():
        page = os.path.join(a.work, label + ".html")
        res = subprocess.run([a.cli, "diff"] + args + ["--html", page, "--output",
                                                       os.path.join(a.work, label + ".txt")])
        if res.returncode not in (0, 1) or not os.path.exists(page):
            print("error: ggufsafe diff exited %d" % res.returncode)
            return 2
        check_page(chromium, page, a.work, label)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Make a large generated level for the bake figures of docs/benchmarks.md.

    python3 data/make_big_level.py 2048 > big2048.map
    python3 data/make_big_level.py 768 --seed 7 > big768.map
    python3 data/make_big_level.py 160 --noise 25 > noise160.map

A square Moving AI .map (type octile) of the given side: a lattice of
rooms of random sizes, each joined to its right and lower neighbours by
corridors of random widths (some left out, so paths detour), pillars
and rubble inside the rooms, and a few rooms carved as caves (random
open blobs). Everything is deterministic (splitmix64 below, not
Python's random), so a side and a seed always give the same bytes.
With --noise P the level is instead open ground with P percent of its
cells blocked at random: rows of first moves with many runs, the
largest CPD output for its size.
Nothing here is committed as output: the levels are large.
"""

import sys

PITCH = 40          # rooms are laid on a lattice of this many cells


class Rng:
    """splitmix64, as in make_levels.py."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n


def make(side, seed):
    rng = Rng(seed)
    rows = [bytearray(b"@" * side) for _ in range(side)]

    def rect(x0, y0, x1, y1, c=ord(".")):
        x0, y0 = max(x0, 1), max(y0, 1)
        x1, y1 = min(x1, side - 2), min(y1, side - 2)
        if x0 > x1:
            return
        for y in range(y0, y1 + 1):
            rows[y][x0:x1 + 1] = bytes([c]) * (x1 - x0 + 1)

    n = max(1, (side - 2) // PITCH)
    rooms = {}
    for j in range(n):
        for i in range(n):
            w = 10 + rng.below(PITCH - 14)
            h = 10 + rng.below(PITCH - 14)
            x0 = 1 + i * PITCH + rng.below(PITCH - w - 1)
            y0 = 1 + j * PITCH + rng.below(PITCH - h - 1)
            rooms[i, j] = (x0, y0, x0 + w - 1, y0 + h - 1)
            if rng.below(6) == 0:
                # A cave: overlapping open blobs inside the room's box.
                for _ in range(6 + rng.below(6)):
                    cx = x0 + rng.below(w)
                    cy = y0 + rng.below(h)
                    r = 2 + rng.below(5)
                    for y in range(cy - r, cy + r + 1):
                        dx = int((r * r - (y - cy) ** 2) ** 0.5)
                        rect(cx - dx, y, cx + dx, y)
                # The blobs reach the room's centre, where corridors end.
                rect(x0 + w // 2 - 1, y0, x0 + w // 2 + 1, y0 + h - 1)
                rect(x0, y0 + h // 2 - 1, x0 + w - 1, y0 + h // 2 + 1)
                continue
            rect(*rooms[i, j])
            for _ in range(rng.below(w * h // 40 + 1)):
                px = x0 + 1 + rng.below(w - 2)
                py = y0 + 1 + rng.below(h - 2)
                s = rng.below(3)
                rect(px, py, px + s, py + s, ord("@"))

    def centre(r):
        return (r[0] + r[2]) // 2, (r[1] + r[3]) // 2

    for j in range(n):
        for i in range(n):
            ax, ay = centre(rooms[i, j])
            for ni, nj in ((i + 1, j), (i, j + 1)):
                if (ni, nj) not in rooms or rng.below(5) == 0:
                    continue
                bx, by = centre(rooms[ni, nj])
                wd = rng.below(4)       # 1 to 4 cells wide
                # An L-shaped corridor, bending at a random end.
                if rng.below(2):
                    rect(min(ax, bx), ay, max(ax, bx), ay + wd)
                    rect(bx, min(ay, by), bx + wd, max(ay, by))
                else:
                    rect(ax, min(ay, by), ax + wd, max(ay, by))
                    rect(min(ax, bx), by, max(ax, bx), by + wd)
    out = ["type octile", "height %d" % side, "width %d" % side, "map"]
    out.extend(r.decode() for r in rows)
    return "\n".join(out) + "\n"


def make_noise(side, percent, seed):
    rng = Rng(seed)
    rows = []
    for y in range(side):
        if y in (0, side - 1):
            rows.append("@" * side)
            continue
        rows.append("@" + "".join("@" if rng.below(100) < percent else "."
                                  for _ in range(side - 2)) + "@")
    out = ["type octile", "height %d" % side, "width %d" % side, "map"]
    return "\n".join(out + rows) + "\n"


def main(argv):
    usage = "usage: make_big_level.py SIDE [--seed N] [--noise P] > LEVEL.map\n"
    if len(argv) < 2 or len(argv) % 2:
        sys.stderr.write(usage)
        return 2
    opts = dict(zip(argv[2::2], argv[3::2]))
    if set(opts) - {"--seed", "--noise"}:
        sys.stderr.write(usage)
        return 2
    try:
        side = int(argv[1])
        seed = int(opts.get("--seed", "1"))
        noise = int(opts["--noise"]) if "--noise" in opts else None
    except ValueError:
        sys.stderr.write("make_big_level.py: SIDE, N and P are whole numbers\n")
        return 2
    if noise is not None and not 0 <= noise <= 90:
        sys.stderr.write("make_big_level.py: P from 0 to 90\n")
        return 2
    if side < PITCH + 2 or side > 16384:
        sys.stderr.write("make_big_level.py: SIDE from %d to 16384\n" % (PITCH + 2))
        return 2
    sys.stdout.write(make(side, seed) if noise is None
                     else make_noise(side, noise, seed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

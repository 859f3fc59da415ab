#!/usr/bin/env python3
"""Make the project's own small levels and their scenario files.

    python3 data/make_levels.py            # (re)write the files in data/
    python3 data/make_levels.py --check    # exit 1 if a file in data/ differs
    python3 data/make_levels.py --out DIR  # write them somewhere else

Levels are Moving AI .map files (type octile). Scenarios are Moving AI
.map.scen files, version 1, tab separated:

    bucket  map  width  height  start_x  start_y  goal_x  goal_y  optimal_length

with the optimal length printed to 8 decimals and bucket = floor(length / 4).
The lengths come from this script's own Dijkstra (8-connected, straight 1,
diagonal sqrt(2), no corner cutting), which shares nothing with the C code
of twigz, so `twigz verify` against these files is an independent check.

Everything is deterministic: the random numbers come from a splitmix64
generator defined here, not from Python's `random`, so every Python version
writes the same bytes.
"""

import heapq
import math
import os
import sys

SQRT2 = math.sqrt(2.0)

# Moves as (dx, dy): straight first, then diagonal.
STRAIGHT = [(0, -1), (1, 0), (0, 1), (-1, 0)]
DIAGONAL = [(1, -1), (1, 1), (-1, 1), (-1, -1)]

WALKABLE = set(".GS")


class Rng:
    """splitmix64: small, well mixed, and the same everywhere."""

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

    def chance(self, percent):
        return self.below(100) < percent


class Grid:
    def __init__(self, width, height, fill="@"):
        self.width = width
        self.height = height
        self.cells = [[fill] * width for _ in range(height)]

    def inside(self, x, y):
        return 0 <= x < self.width and 0 <= y < self.height

    def get(self, x, y):
        return self.cells[y][x]

    def set(self, x, y, c):
        if self.inside(x, y):
            self.cells[y][x] = c

    def rect(self, x0, y0, x1, y1, c="."):
        """Fill the inclusive rectangle [x0, x1] x [y0, y1]."""
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.set(x, y, c)

    def walkable(self, x, y):
        return self.inside(x, y) and self.cells[y][x] in WALKABLE

    def border(self, c="@"):
        for x in range(self.width):
            self.set(x, 0, c)
            self.set(x, self.height - 1, c)
        for y in range(self.height):
            self.set(0, y, c)
            self.set(self.width - 1, y, c)

    def text(self):
        rows = ["".join(r) for r in self.cells]
        return "type octile\nheight %d\nwidth %d\nmap\n%s\n" % (
            self.height, self.width, "\n".join(rows))


# ---- the searches ---------------------------------------------------------

def neighbours(g, x, y):
    """Legal octile moves from (x, y) with their exact cost (a, b) =
    a straight steps + b diagonal steps."""
    for dx, dy in STRAIGHT:
        if g.walkable(x + dx, y + dy):
            yield x + dx, y + dy, 1, 0
    for dx, dy in DIAGONAL:
        # No corner cutting: both cells the diagonal passes between.
        if (g.walkable(x + dx, y + dy) and g.walkable(x + dx, y) and
                g.walkable(x, y + dy)):
            yield x + dx, y + dy, 0, 1


def dijkstra(g, sx, sy):
    """Optimal costs from (sx, sy) to every reachable cell, as a dict
    (x, y) -> (straight, diagonal). The heap key is recomputed from the
    integer pair each time, so no error accumulates along a path."""
    best = {(sx, sy): (0, 0)}
    heap = [(0.0, 0, 0, sx, sy)]
    done = set()
    while heap:
        _, a, b, x, y = heapq.heappop(heap)
        if (x, y) in done:
            continue
        done.add((x, y))
        for nx, ny, da, db in neighbours(g, x, y):
            if (nx, ny) in done:
                continue
            na, nb = a + da, b + db
            key = na + nb * SQRT2
            old = best.get((nx, ny))
            if old is None or key < old[0] + old[1] * SQRT2 - 1e-9:
                best[(nx, ny)] = (na, nb)
                heapq.heappush(heap, (key, na, nb, nx, ny))
    return best


def regions(g):
    """Connected regions (lists of cells), largest first."""
    seen = set()
    out = []
    for y in range(g.height):
        for x in range(g.width):
            if not g.walkable(x, y) or (x, y) in seen:
                continue
            region = list(dijkstra(g, x, y).keys())
            seen.update(region)
            out.append(sorted(region, key=lambda c: (c[1], c[0])))
    out.sort(key=lambda r: -len(r))
    return out


def scenario(g, name, rng, per_bucket=10, starts=60):
    """Moving AI style: up to per_bucket problems for each bucket of
    length 4, start and goal in one region (every region of more than one
    cell gets some starts, in proportion to its size)."""
    regs = [r for r in regions(g) if len(r) > 1]
    total = sum(len(r) for r in regs)
    buckets = {}
    for reg in regs:
        n = max(2, starts * len(reg) // total)
        for _ in range(n):
            sx, sy = reg[rng.below(len(reg))]
            dist = dijkstra(g, sx, sy)
            by_bucket = {}
            for (gx, gy), (a, b) in sorted(dist.items(),
                                           key=lambda i: (i[0][1], i[0][0])):
                if (gx, gy) == (sx, sy):
                    continue
                length = a + b * SQRT2
                by_bucket.setdefault(int(length // 4), []).append(
                    (gx, gy, length))
            for bucket in sorted(by_bucket):
                have = buckets.setdefault(bucket, [])
                if len(have) >= per_bucket:
                    continue
                cand = by_bucket[bucket]
                gx, gy, length = cand[rng.below(len(cand))]
                have.append((sx, sy, gx, gy, length))
    lines = ["version 1"]
    for bucket in sorted(buckets):
        for sx, sy, gx, gy, length in buckets[bucket]:
            lines.append("%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f" % (
                bucket, name, g.width, g.height, sx, sy, gx, gy, length))
    return "\n".join(lines) + "\n"


# ---- the levels -----------------------------------------------------------

def make_demo():
    """64x48: six rooms joined by corridors of several widths (a loop, a
    diagonal staircase, a winding one-cell passage), pillars, trees, and
    three places no path reaches: a sealed room, the inside of a hollow
    block, and a cell that touches a room only at a corner."""
    g = Grid(64, 48)
    rng = Rng(0x7419)
    # Rooms.
    g.rect(2, 2, 20, 14)                  # hall with pillars
    for px in (5, 10, 15):
        for py in (5, 10):
            g.rect(px, py, px + 1, py + 1, "@")
    g.rect(26, 2, 44, 16)                 # garden with trees
    for y in range(4, 15):
        for x in range(28, 43):
            if rng.chance(14):
                g.set(x, y, "T")
    g.rect(50, 2, 61, 12)                 # study
    g.rect(2, 20, 14, 45)                 # long gallery
    for y in range(23, 44, 4):            # alcove walls
        g.rect(8, y, 14, y, "@")
    g.rect(20, 24, 40, 44)                # courtyard
    g.rect(27, 30, 33, 37, "@")           # with a solid block
    g.rect(22, 40, 26, 40, "@")           # and an L wall
    g.rect(26, 36, 26, 40, "@")
    g.rect(46, 18, 61, 30)                # vault
    g.rect(50, 21, 56, 27, "@")           # a hollow block in it
    g.rect(51, 22, 55, 26, ".")
    # Corridors.
    g.rect(21, 7, 25, 8)                  # hall - garden, two wide
    g.rect(45, 6, 49, 6)                  # garden - study, one wide
    g.rect(6, 15, 8, 19)                  # hall - gallery, three wide
    g.rect(15, 34, 19, 34)                # gallery - courtyard, a door
    for i in range(7):                    # garden - courtyard, staircase
        g.rect(30 + i, 17 + i, 31 + i, 17 + i)
    g.rect(55, 13, 56, 17)                # study - vault
    g.rect(41, 40, 43, 40)                # courtyard - vault, winding
    g.rect(43, 26, 43, 40)
    g.rect(44, 26, 45, 26)
    # Unreachable: a sealed room, and a cell diagonal to the vault's corner.
    g.rect(48, 36, 60, 45)
    g.rect(52, 39, 56, 42, "T")
    g.set(45, 31, ".")
    g.border()
    return g


def make_maze():
    """49x49 maze of one-cell corridors (a depth-first carve), with a few
    extra openings so some pairs have several optimal paths."""
    cells = 24
    g = Grid(2 * cells + 1, 2 * cells + 1)
    rng = Rng(0x3A2E)
    seen = [[False] * cells for _ in range(cells)]
    stack = [(0, 0)]
    seen[0][0] = True
    g.set(1, 1, ".")
    while stack:
        cx, cy = stack[-1]
        opts = [(dx, dy) for dx, dy in STRAIGHT
                if 0 <= cx + dx < cells and 0 <= cy + dy < cells and
                not seen[cy + dy][cx + dx]]
        if not opts:
            stack.pop()
            continue
        dx, dy = opts[rng.below(len(opts))]
        nx, ny = cx + dx, cy + dy
        seen[ny][nx] = True
        g.set(2 * cx + 1 + dx, 2 * cy + 1 + dy, ".")
        g.set(2 * nx + 1, 2 * ny + 1, ".")
        stack.append((nx, ny))
    for _ in range(40):
        x = 1 + rng.below(g.width - 2)
        y = 1 + rng.below(g.height - 2)
        if (x + y) % 2 == 1:              # a wall between two cells
            g.set(x, y, ".")
    g.border()
    return g


def make_open():
    """64x64 open ground: scattered trees, rectangular buildings, round
    ponds (water), and a ring wall with a gap. Many ties between optimal
    paths, long diagonal runs."""
    g = Grid(64, 64, ".")
    rng = Rng(0x0FE2)
    for y in range(64):
        for x in range(64):
            if rng.chance(6):
                g.set(x, y, "T")
    for _ in range(9):
        w = 3 + rng.below(8)
        h = 3 + rng.below(8)
        x = 2 + rng.below(60 - w)
        y = 2 + rng.below(60 - h)
        g.rect(x, y, x + w - 1, y + h - 1, "@")
    for _ in range(4):
        cx = 8 + rng.below(48)
        cy = 8 + rng.below(48)
        r = 2 + rng.below(4)
        for y in range(cy - r, cy + r + 1):
            for x in range(cx - r, cx + r + 1):
                if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                    g.set(x, y, "W")
    for a in range(0, 360, 2):             # ring wall, gap in the east
        if 340 <= a or a <= 20:
            continue
        t = math.radians(a)
        g.set(int(round(40 + 12 * math.cos(t))),
              int(round(24 + 12 * math.sin(t))), "@")
    g.border("T")
    return g


def make_caves():
    """64x48 caves from a cellular automaton: ragged walls, narrow
    squeezes, and several separate caverns."""
    g = Grid(64, 48)
    rng = Rng(0xCA7E)
    for y in range(48):
        for x in range(64):
            g.set(x, y, "@" if rng.chance(45) else ".")
    for _ in range(4):
        nxt = Grid(64, 48)
        for y in range(48):
            for x in range(64):
                walls = 0
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        if not g.walkable(x + dx, y + dy):
                            walls += 1
                nxt.set(x, y, "@" if walls >= 5 else ".")
        g = nxt
    g.border()
    return g


LEVELS = [
    ("demo", make_demo, 0xD3E0),
    ("maze", make_maze, 0x3A2F),
    ("open", make_open, 0x0FE3),
    ("caves", make_caves, 0xCA7F),
]


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    out = here
    check = False
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--check":
            check = True
        elif a == "--out" and args:
            out = args.pop(0)
        else:
            sys.stderr.write(__doc__)
            return 2
    differ = 0
    for name, make, seed in LEVELS:
        g = make()
        files = [(name + ".map", g.text()),
                 (name + ".map.scen", scenario(g, name + ".map", Rng(seed)))]
        for fname, text in files:
            path = os.path.join(out, fname)
            if check:
                try:
                    with open(path, "r", newline="") as f:
                        same = f.read() == text
                except OSError:
                    same = False
                if not same:
                    sys.stderr.write("make_levels: %s differs from what "
                                     "the generator makes\n" % path)
                    differ += 1
            else:
                with open(path, "w", newline="") as f:
                    f.write(text)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

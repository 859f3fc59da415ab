#!/usr/bin/env python3
"""Make mazes of one-cell corridors, the levels junction graphs are for
(`twigz build --junctions`): long chains of cells with two neighbours
between a few junctions and dead ends.

    python3 data/make_junction_maze.py                 # (re)write data/junctions.map(.scen)
    python3 data/make_junction_maze.py --check         # exit 1 if they differ
    python3 data/make_junction_maze.py --size 512 --seed 7 --loops 2 -o maze512.map
                                                       # any size, no scenarios

A maze of S x S cells is (2S+1) x (2S+1) squares: a depth-first carve
(every cell reachable by exactly one path), then --loops percent of the
remaining inner walls between two cells opened, so that some pairs have
several paths and chains close into loops. Corridors stay one cell wide,
so on 8-connected levels no diagonal move is legal in them. The random
numbers and the scenario lengths come from make_levels.py in this
directory (splitmix64 and an independent Dijkstra), so every Python
version writes the same bytes.
"""

import os
import sys

sys.dont_write_bytecode = True  # leave no cache in data/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_levels  # noqa: E402  (same directory)

Grid, Rng, STRAIGHT = make_levels.Grid, make_levels.Rng, make_levels.STRAIGHT


def make_maze(cells, seed, loops):
    g = Grid(2 * cells + 1, 2 * cells + 1)
    rng = Rng(seed)
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
    # Open some of the walls left between two cells (odd x + y inside).
    for y in range(1, g.height - 1):
        for x in range(1, g.width - 1):
            if (x + y) % 2 == 1 and not g.walkable(x, y) and \
                    rng.chance(loops):
                g.set(x, y, ".")
    g.border()
    return g


# The committed level: small, with loops, dead ends and long chains.
COMMITTED = ("junctions", 24, 0x1C7, 4, 0x51CE)


def usage():
    sys.stderr.write(__doc__)
    return 2


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    args = list(argv[1:])
    size = seed = out = None
    loops = 2
    check = False
    while args:
        a = args.pop(0)
        try:
            if a == "--check":
                check = True
            elif a == "--size" and args:
                size = int(args.pop(0))
            elif a == "--seed" and args:
                seed = int(args.pop(0), 0)
            elif a == "--loops" and args:
                loops = int(args.pop(0))
            elif a == "-o" and args:
                out = args.pop(0)
            else:
                return usage()
        except ValueError:
            return usage()
    if size is not None:
        # Any size: the level only, to a file or stdout.
        cells = max(1, (size - 1) // 2)
        if not 0 <= loops <= 100 or cells > 8191:
            return usage()
        text = make_maze(cells, 1 if seed is None else seed, loops).text()
        if out:
            with open(out, "w", newline="") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0
    name, cells, seed, loops, scen_seed = COMMITTED
    g = make_maze(cells, seed, loops)
    files = [(name + ".map", g.text()),
             (name + ".map.scen",
              make_levels.scenario(g, name + ".map", Rng(scen_seed)))]
    differ = 0
    for fname, text in files:
        path = os.path.join(here, fname)
        if check:
            try:
                with open(path, "r", newline="") as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                sys.stderr.write("make_junction_maze: %s differs from what "
                                 "the generator makes\n" % path)
                differ += 1
        else:
            with open(path, "w", newline="") as f:
                f.write(text)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Make the project's own road graphs in the DIMACS shortest-path format.

    python3 data/make_graphs.py             # (re)write city.gr/.co/.p2p in data/
    python3 data/make_graphs.py --check     # exit 1 if a file in data/ differs
    python3 data/make_graphs.py --out DIR   # write them somewhere else
    python3 data/make_graphs.py --city COLSxROWS --out DIR [--name NAME]
                                            # a larger city (benchmarks)
    python3 data/make_graphs.py --golden DIR  # tests/golden/v1_4_graph.gr

A city is a grid of intersections (100 m apart, each moved a little) with
the street plan of many real downtowns: every fourth street across and
every fifth street down is a two-way avenue, the streets between are
one-way and alternate in direction, a diagonal boulevard crosses the
grid both ways at a higher speed, a river cuts the city in two with a
bridge on every sixth street, a few blocks of street are closed, a few
streets have a slow parallel lane (a parallel arc of a higher weight),
and a small island off the coast has a one-way ring of its own that no
bridge reaches. Arc weights are travel times in tenths of a second:
the segment's length in metres times 36 / the speed in km/h, rounded,
at least 1.

city.gr holds the arcs ("a U V W", ids from 1), city.co the coordinates
("v ID X Y", metres, integers) and city.p2p 200 queries ("q S T"),
some of which have no path (to and from the island, and out of one-way
dead ends). twigz verify checks a database against them with a Dijkstra
of its own; this script's Dijkstra writes each query's optimum as a "c"
line before it, an independent figure (it shares nothing with the C
code).

Everything is deterministic: the random numbers come from a splitmix64
generator defined here, not from Python's `random`.
"""

import heapq
import math
import os
import sys


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


def weight(p, q, speed):
    """Travel time in tenths of a second at speed km/h."""
    d = math.hypot(p[0] - q[0], p[1] - q[1])
    return max(1, int(round(d * 36.0 / speed)))


def city(cols, rows, seed, island=5):
    """(coords, arcs): coords[i] = (x, y) of id i + 1, arcs (u, v, w)."""
    rng = Rng(seed)
    coords = []
    for r in range(rows):
        for c in range(cols):
            coords.append((c * 100 + rng.below(41) - 20,
                           r * 100 + rng.below(41) - 20))
    arcs = []
    river = rows // 2  # between rows river - 1 and river

    def node(c, r):
        return r * cols + c

    def street(a, b, speed, both):
        w = weight(coords[a], coords[b], speed)
        arcs.append((a, b, w))
        if both:
            arcs.append((b, a, w))
        if rng.chance(3):
            # A slow lane beside the street: a dearer parallel arc.
            arcs.append((a, b, w + 1 + rng.below(20)))

    for r in range(rows):
        avenue = r % 4 == 0
        for c in range(cols - 1):
            if not avenue and rng.chance(4):
                continue  # closed for works
            a, b = node(c, r), node(c + 1, r)
            if not avenue and r % 2 == 0:
                a, b = b, a  # westbound
            street(a, b, 50 if avenue else 30, avenue)
    for c in range(cols):
        avenue = c % 5 == 0
        for r in range(rows - 1):
            if r + 1 == river and c % 6 != 3:
                continue  # the river: bridges only
            if not avenue and rng.chance(4):
                continue
            a, b = node(c, r), node(c, r + 1)
            if not avenue and c % 2 == 1:
                a, b = b, a  # northbound
            street(a, b, 50 if avenue else 30, avenue or r + 1 == river)
    # The boulevard, both ways, at 70 km/h, on the diagonal north of the
    # river.
    for k in range(min(cols, river) - 1):
        a, b = node(k, k), node(k + 1, k + 1)
        w = weight(coords[a], coords[b], 70)
        arcs.append((a, b, w))
        arcs.append((b, a, w))
    # A U-turn nobody may take, and a loop: the reader drops loops.
    arcs.append((node(1, 1), node(1, 1), 5))
    # The island: a one-way ring off the east coast.
    first = len(coords)
    for i in range(island):
        ang = 2 * math.pi * i / island
        coords.append((cols * 100 + 400 + int(round(150 * math.cos(ang))),
                       rows * 50 + int(round(150 * math.sin(ang)))))
    for i in range(island):
        a, b = first + i, first + (i + 1) % island
        arcs.append((a, b, weight(coords[a], coords[b], 20)))
    return coords, arcs


def dijkstra(n, arcs, s):
    adj = [[] for _ in range(n)]
    for u, v, w in arcs:
        if u != v:
            adj[u].append((v, w))
    dist = [None] * n
    dist[s] = 0
    heap = [(0, s)]
    while heap:
        d, u = heapq.heappop(heap)
        if d != dist[u]:
            continue
        for v, w in adj[u]:
            nd = d + w
            if dist[v] is None or nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


def gr_text(name, coords, arcs):
    out = ["c %s: a city of one-way streets, avenues, a river and an island"
           % name,
           "c made by data/make_graphs.py",
           "p sp %d %d" % (len(coords), len(arcs))]
    out += ["a %d %d %d" % (u + 1, v + 1, w) for u, v, w in arcs]
    return "\n".join(out) + "\n"


def co_text(name, coords):
    out = ["c %s: coordinates in metres" % name,
           "p aux sp co %d" % len(coords)]
    out += ["v %d %d %d" % (i + 1, x, y) for i, (x, y) in enumerate(coords)]
    return "\n".join(out) + "\n"


def p2p_text(name, coords, arcs, count, seed):
    rng = Rng(seed)
    n = len(coords)
    pairs = [(rng.below(n), rng.below(n)) for _ in range(count)]
    # Always some queries to and from the island's first node.
    pairs[0] = (0, n - 1)
    pairs[1] = (n - 1, 0)
    out = ["c %s: %d queries; each 'c optimum' line is this script's own"
           % (name, count),
           "c Dijkstra (none: no path)",
           "p aux sp p2p %d" % count]
    for s, t in pairs:
        d = dijkstra(n, arcs, s)[t]
        out.append("c optimum %s" % ("none" if d is None else d))
        out.append("q %d %d" % (s + 1, t + 1))
    return "\n".join(out) + "\n"


def files(name, cols, rows, seed, queries=200, island=5):
    coords, arcs = city(cols, rows, seed, island)
    return {
        name + ".gr": gr_text(name, coords, arcs),
        name + ".co": co_text(name, coords),
        name + ".p2p": p2p_text(name, coords, arcs, queries, seed + 1),
    }


def write(out_dir, contents, check):
    bad = 0
    for fname, text in contents.items():
        path = os.path.join(out_dir, fname)
        if check:
            try:
                with open(path, encoding="ascii", newline="") as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print("differs: %s" % path)
                bad = 1
            continue
        with open(path, "w", encoding="ascii", newline="\n") as f:
            f.write(text)
    return bad


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir, check, size, name, golden = here, False, None, None, None
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--check":
            check = True
        elif a == "--out" and args:
            out_dir = args.pop(0)
        elif a == "--city" and args:
            cols, _, rows = args.pop(0).partition("x")
            size = (int(cols), int(rows))
        elif a == "--name" and args:
            name = args.pop(0)
        elif a == "--golden" and args:
            golden = args.pop(0)
        else:
            print(__doc__.strip().splitlines()[2], file=sys.stderr)
            return 2
    if golden:
        coords, arcs = city(5, 4, 44, island=3)
        return write(golden, {"v1_4_graph.gr": gr_text("golden", coords, arcs)},
                     check)
    if size:
        name = name or "city_%dx%d" % size
        return write(out_dir, files(name, size[0], size[1], 12, queries=100),
                     check)
    return write(out_dir, files("city", 12, 10, 7), check)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

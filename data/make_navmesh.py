#!/usr/bin/env python3
"""Make the project's navmesh levels: rooms and doors on two floors.

    python3 data/make_navmesh.py                 # (re)write data/rooms.obj, .points,
                                                 # rooms_fan.obj
    python3 data/make_navmesh.py --check         # exit 1 if a file in data/ differs
    python3 data/make_navmesh.py --out DIR       # write them somewhere else
    python3 data/make_navmesh.py --rooms N --seed S --name NAME --out DIR
                                                 # a larger mesh (N x N rooms)

The mesh is a Wavefront OBJ (y up): a ground floor (y = 0) of N x N
square rooms joined by door polygons (some doors left out, chosen by the
seed), a ramp of four sloped polygons rising from the ground floor's
south-east room to a landing at y = 3, and an upper floor at y = 3 (a
corridor and rooms above the ground floor's rooms, so the two floors
overlap in x-z). Every polygon is convex; where a door meets a room, the
room's side carries the door's two vertices (straight-angle vertices, as
Recast writes them), so faces that touch share edges by index. Rooms on
odd squares are written as triangle fans around their centre, so the mesh
mixes triangles and larger polygons.

NAME_fan.obj holds the same polygons (no room split round its centre)
dumped the way Recast's duDumpPolyMeshToObj writes a poly mesh: every
vertex with "%f", every polygon as the triangle fan p0 p[j-1] p[j] from
its first vertex, a corner. Where a door's vertices lie on a polygon's
first or last side the fan holds triangles of zero area (slivers), two
in a row when a side carries both of a door's vertices.

The points file holds one query a line, `sx sy sz gx gy gz`, between
random points inside random polygons of either floor.

Deterministic: splitmix64 random numbers, fixed float formatting.
"""

import os
import sys


class Rng:
    """splitmix64: small, well mixed, and the same everywhere."""

    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def unit(self):
        return (self.next() >> 11) / float(1 << 53)


def rect(x0, z0, x1, z1, y):
    """Corners of an axis-aligned rectangle at height y, counter-clockwise
    seen with x right and z up."""
    return [(x0, y, z0), (x1, y, z0), (x1, y, z1), (x0, y, z1)]


def build(rooms, seed):
    rng = Rng(seed)
    polys = []  # (corners, fan)
    size, gap = 8, 2
    step = size + gap
    for j in range(rooms):
        for i in range(rooms):
            x0, z0 = step * i, step * j
            polys.append((rect(x0, z0, x0 + size, z0 + size, 0), (i + j) % 2 == 1))
            # Doors east and north; about one in five left out, never the
            # ones on the first row and column (the floor stays connected).
            if i + 1 < rooms and (j == 0 or rng.below(5) != 0):
                polys.append((rect(x0 + size, z0 + 3, x0 + step, z0 + 5, 0), False))
            if j + 1 < rooms and (i == 0 or rng.below(5) != 0):
                polys.append((rect(x0 + 3, z0 + size, x0 + 5, z0 + step, 0), False))
    # The ramp: east of the south-east room, four sloped pieces.
    east = step * (rooms - 1) + size
    ramp_len, top = 20, 3
    for k in range(4):
        xa = east + ramp_len * k / 4
        xb = east + ramp_len * (k + 1) / 4
        ya = top * k / 4
        yb = top * (k + 1) / 4
        polys.append(([(xa, ya, 2), (xb, yb, 2), (xb, yb, 6), (xa, ya, 6)], False))
    end = east + ramp_len
    # The landing and the upper floor, above the ground floor's rooms.
    polys.append((rect(end, 2, end + 4, 12, top), False))
    polys.append((rect(size + 4, 8, end, 12, top), False))
    upper = max(1, (rooms * step - 6) // 12)
    for a in range(upper):
        ux = size + 4 + 12 * a
        if ux + 10 > end:
            break
        polys.append((rect(ux + 4, 12, ux + 6, 14, top), False))
        polys.append((rect(ux, 14, ux + 10, 24, top), (a % 2) == 0))
    return polys


def on_segment(p, a, b):
    """Whether p lies strictly inside segment a-b (exact: all small
    numbers on a grid of quarters)."""
    if p == a or p == b:
        return False
    d = [b[k] - a[k] for k in range(3)]
    e = [p[k] - a[k] for k in range(3)]
    cross = (d[1] * e[2] - d[2] * e[1], d[2] * e[0] - d[0] * e[2],
             d[0] * e[1] - d[1] * e[0])
    if any(abs(c) > 1e-12 for c in cross):
        return False
    t = sum(d[k] * e[k] for k in range(3))
    return 0 < t < sum(d[k] * d[k] for k in range(3))


def mesh(rooms, seed):
    polys = build(rooms, seed)
    corners = set()
    for c, _ in polys:
        corners.update(c)
    corners = sorted(corners)
    verts, index = [], {}

    def vid(p):
        if p not in index:
            index[p] = len(verts) + 1
            verts.append(p)
        return index[p]

    faces, kept = [], []
    for c, fan in polys:
        ring = []
        for k in range(len(c)):
            a, b = c[k], c[(k + 1) % len(c)]
            ring.append(a)
            mid = [p for p in corners if on_segment(p, a, b)]
            d = [b[m] - a[m] for m in range(3)]
            mid.sort(key=lambda p: sum((p[m] - a[m]) * d[m] for m in range(3)))
            ring.extend(mid)
        if fan:
            cx = sum(p[0] for p in c) / len(c)
            cy = sum(p[1] for p in c) / len(c)
            cz = sum(p[2] for p in c) / len(c)
            centre = vid((cx, cy, cz))
            ids = [vid(p) for p in ring]
            for k in range(len(ids)):
                faces.append([centre, ids[k], ids[(k + 1) % len(ids)]])
                kept.append(ring)
        else:
            faces.append([vid(p) for p in ring])
            kept.append(ring)
    return verts, faces, kept


def mesh_fan(rooms, seed):
    """The polygons of mesh() unsplit, each as a Recast fan."""
    _, _, rings = mesh(rooms, seed)
    verts, index, faces, seen = [], {}, [], set()
    for ring in rings:
        key = tuple(ring)
        if key in seen:
            continue
        seen.add(key)
        ids = []
        for p in ring:
            if p not in index:
                index[p] = len(verts) + 1
                verts.append(p)
            ids.append(index[p])
        for j in range(2, len(ids)):
            faces.append([ids[0], ids[j - 1], ids[j]])
    return verts, faces


def write_fan_obj(verts, faces):
    out = ["# Recast Navmesh", "o NavMesh", ""]
    for v in verts:
        out.append("v %f %f %f" % (v[0], v[1], v[2]))
    out.append("")
    for f in faces:
        out.append("f %d %d %d" % tuple(f))
    return "\n".join(out) + "\n"


def fmt(x):
    s = "%.4f" % x
    return "0.0000" if s == "-0.0000" else s


def write_obj(verts, faces, rooms, seed):
    out = ["# twigz navmesh: %d x %d rooms on two floors (seed %d)" % (rooms, rooms, seed),
           "o rooms"]
    for v in verts:
        out.append("v %s %s %s" % (fmt(v[0]), fmt(v[1]), fmt(v[2])))
    for f in faces:
        out.append("f " + " ".join(str(i) for i in f))
    return "\n".join(out) + "\n"


def random_point(rng, verts, face):
    """A random point inside a convex face: a random convex combination."""
    w = [rng.unit() + 0.05 for _ in face]
    s = sum(w)
    return tuple(sum(w[k] * verts[face[k] - 1][m] for k in range(len(face))) / s
                 for m in range(3))


def write_points(verts, faces, count, seed):
    rng = Rng(seed * 7919 + 1)
    out = ["# twigz navmesh queries: sx sy sz gx gy gz"]
    for _ in range(count):
        a = random_point(rng, verts, faces[rng.below(len(faces))])
        b = random_point(rng, verts, faces[rng.below(len(faces))])
        out.append(" ".join("%.4f" % c for c in a + b))
    return "\n".join(out) + "\n"


def main(argv):
    out_dir = os.path.dirname(os.path.abspath(__file__))
    check, rooms, seed, name, count = False, 3, 12, "rooms", 200
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--check":
            check = True
        elif a == "--out":
            out_dir = args.pop(0)
        elif a == "--rooms":
            rooms = int(args.pop(0))
        elif a == "--seed":
            seed = int(args.pop(0))
        elif a == "--name":
            name = args.pop(0)
        elif a == "--points":
            count = int(args.pop(0))
        else:
            sys.stderr.write(__doc__)
            return 2
    verts, faces, _ = mesh(rooms, seed)
    files = {name + ".obj": write_obj(verts, faces, rooms, seed),
             name + ".points": write_points(verts, faces, count, seed),
             name + "_fan.obj": write_fan_obj(*mesh_fan(rooms, seed))}
    status = 0
    for fname, text in files.items():
        path = os.path.join(out_dir, fname)
        if check:
            try:
                with open(path) as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print("%s differs" % path)
                status = 1
        else:
            with open(path, "w") as f:
                f.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

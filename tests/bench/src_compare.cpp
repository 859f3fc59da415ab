/*
 * src_compare.cpp - twigz's CPD side by side with SRC, the GPPC-2014
 * winning CPD (Strasser, Botea and Harabor, "Compressing Optimal Paths
 * with Run Length Encoding", JAIR 54, 2015), built from its public code
 * with its own build script. Compiled by src_compare.sh against SRC's
 * sources in the folder it was built in; the project never needs SRC.
 *
 * For each level, on the same machine and the same queries:
 *   bake      SRC's own `dfs_src -pre` and `twigz build`, each in a forked
 *             child on the same number of threads (OMP_NUM_THREADS for
 *             SRC), rounds interleaved: wall, CPU, peak memory and node
 *             pairs (nodes squared) a second of wall time;
 *   file      SRC's file compressed by libzstd at level 19 (`zstd -19`),
 *             against the .twz as baked;
 *   memory    what the queries read: SRC's CPD (row offsets, u32 runs),
 *             its cell map and node cells and the adjacency array it takes
 *             a move's next node from; twigz's twz_info memory_size. The
 *             growth of this process's resident set while each is loaded
 *             is printed beside them as a check;
 *   first move  random pairs of cells of one region, the same cells on
 *             both sides, each turned into the side's own node ids before
 *             timing. SRC: CPD::get_first_move then the adjacency array's
 *             arc to the next node (its GetPath); twigz: twz_next. Three
 *             ways: warm (one untimed pass first, then the batch),
 *             chained (the same batch, each query's pair chosen by the
 *             last answer, so its reads wait for the last query's: the
 *             latency a game sees when one answer feeds the next) and
 *             cold (before each query a sweep of a buffer larger than the
 *             last-level cache, 64 MB unless asked, evicts caches and TLB; each
 *             query timed alone, the clock's own cost subtracted);
 *   path step the level's scenario paths walked move by move to the end,
 *             per move: SRC's loop of get_first_move and arc (its
 *             GetPath), twigz's twz_path (and a walk by twz_next).
 * Every answer is checked: each first move of both sides is one optimal
 * step (twz_cost_exact of the rest), each scenario path's cost is the
 * published optimal length. Rounds interleave the sides; figures are
 * medians over rounds. Ratios are SRC's over twigz's: above 1, twigz is
 * faster or smaller.
 *
 *   src_compare --src DIR --twigz TWIGZ --work DIR [--threads N]
 *               [--rounds N] [--bake-rounds N] [--pairs N] [--cold N]
 *               [--sweep-mb N] [--format F]... [--no-bake] LEVEL.map...
 *
 * --format adds a twigz bake with `--format F` beside the default one.
 * Not a test: its figures depend on the machine and its load.
 */
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <zstd.h>

/* SRC's own headers, from its folder. */
#include "adj_graph.h"
#include "cpd.h"
#include "mapper.h"
#include "order.h"

#include "twigz.h"

namespace {

double now_s()
{
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double median(std::vector<double> v)
{
	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	size_t n = v.size();
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

uint64_t rng_state = 0x9E3779B97F4A7C15ull;

uint32_t below(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

volatile uint64_t sink;

/* ---- levels and scenarios ---------------------------------------------- */

struct level {
	std::string path, name;
	int width = 0, height = 0;
	std::vector<bool> walkable;  /* the benchmarks' rule: . G S */
};

bool load_level(const std::string &path, level &lv)
{
	FILE *f = fopen(path.c_str(), "r");
	if (!f) {
		fprintf(stderr, "src_compare: %s: %s\n", path.c_str(), strerror(errno));
		return false;
	}
	char word[64];
	bool ok = fscanf(f, "type %63s height %d width %d map", word,
			 &lv.height, &lv.width) == 3 && lv.width > 0 &&
		  lv.height > 0 && lv.width < 32768 && lv.height < 32768;
	if (ok) {
		lv.walkable.assign((size_t)lv.width * lv.height, false);
		for (size_t i = 0; ok && i < lv.walkable.size(); i++) {
			int c;
			do
				c = fgetc(f);
			while (c == ' ' || c == '\n' || c == '\r' || c == '\t');
			ok = c != EOF;
			lv.walkable[i] = c == '.' || c == 'G' || c == 'S';
		}
	}
	fclose(f);
	if (!ok) {
		fprintf(stderr, "src_compare: %s: not a Moving AI octile map\n",
			path.c_str());
		return false;
	}
	lv.path = path;
	size_t slash = path.find_last_of('/');
	lv.name = path.substr(slash == std::string::npos ? 0 : slash + 1);
	if (lv.name.size() > 4 && lv.name.compare(lv.name.size() - 4, 4, ".map") == 0)
		lv.name.resize(lv.name.size() - 4);
	return true;
}

struct scen_query {
	int sx, sy, gx, gy;
	double optimal, tolerance;
};

/* LEVEL.map.scen; tolerance as the project's verify: 1e-4 relative or
 * half a unit of the last printed digit, whichever is larger. */
bool load_scen(const std::string &path, std::vector<scen_query> &out)
{
	FILE *f = fopen(path.c_str(), "r");
	if (!f) {
		fprintf(stderr, "src_compare: %s: %s\n", path.c_str(), strerror(errno));
		return false;
	}
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		char map[1024], len[64];
		int bucket, w, h;
		scen_query q;
		if (sscanf(line, "%d %1023s %d %d %d %d %d %d %63s", &bucket, map,
			   &w, &h, &q.sx, &q.sy, &q.gx, &q.gy, len) != 9)
			continue;
		q.optimal = strtod(len, NULL);
		const char *dot = strchr(len, '.');
		int digits = dot ? (int)strlen(dot + 1) : 0;
		q.tolerance = std::max(1e-4 * q.optimal, 0.5 * std::pow(10.0, -digits));
		out.push_back(q);
	}
	fclose(f);
	return !out.empty();
}

/* ---- bakes in forked children ------------------------------------------ */

struct bake_run {
	double wall_s = 0, cpu_s = 0, peak_mb = 0;
};

bool run_child(const std::vector<std::string> &argv, const char *cwd,
	       unsigned threads, bake_run &r)
{
	double start = now_s();
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("src_compare: fork");
		return false;
	}
	if (pid == 0) {
		char t[16];
		snprintf(t, sizeof t, "%u", threads);
		setenv("OMP_NUM_THREADS", t, 1);
		if (cwd && chdir(cwd) != 0)
			_exit(126);
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		std::vector<char *> args;
		for (const auto &a : argv)
			args.push_back(const_cast<char *>(a.c_str()));
		args.push_back(NULL);
		execv(args[0], args.data());
		_exit(127);
	}
	int status;
	rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("src_compare: wait4");
			return false;
		}
	r.wall_s = now_s() - start;
	r.cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
		  (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
	r.peak_mb = ru.ru_maxrss / 1024.0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "src_compare: %s failed (status %d)\n",
			argv[0].c_str(), status);
		return false;
	}
	return true;
}

bool read_file(const std::string &path, std::vector<char> &out)
{
	FILE *f = fopen(path.c_str(), "rb");
	if (!f) {
		fprintf(stderr, "src_compare: %s: %s\n", path.c_str(), strerror(errno));
		return false;
	}
	out.clear();
	char buf[1 << 16];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		out.insert(out.end(), buf, buf + got);
	fclose(f);
	return true;
}

uint64_t file_bytes(const std::string &path)
{
	struct stat st;
	return stat(path.c_str(), &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Resident bytes of this process now. */
uint64_t resident_bytes()
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size = 0, res = 0;
	if (f) {
		if (fscanf(f, "%lu %lu", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* ---- the two sides ----------------------------------------------------- */

/* SRC's query state, made as its PrepareForSearch makes it. */
struct src_side {
	CPD cpd;
	Mapper mapper;
	AdjGraph graph;
	uint64_t memory = 0;     /* bytes its queries read from */
	uint64_t resident = 0;   /* growth of the resident set at load */

	bool load(const level &lv, const std::string &file)
	{
		uint64_t before = resident_bytes();
		FILE *f = fopen(file.c_str(), "rb");
		if (!f) {
			fprintf(stderr, "src_compare: %s: %s\n", file.c_str(),
				strerror(errno));
			return false;
		}
		std::vector<bool> bits(lv.walkable);
		mapper = Mapper(bits, lv.width, lv.height);
		NodeOrdering order;
		order.load(f);
		cpd.load(f);
		fclose(f);
		mapper.reorder(order);
		graph = AdjGraph(extract_graph(mapper));
		resident = resident_bytes() - before;
		uint64_t n = (uint64_t)cpd.node_count(), arcs = 0;
		for (uint64_t v = 0; v < n; v++)
			arcs += (uint64_t)graph.out_deg((int)v);
		memory = 4 * (n + 1) + 4 * (uint64_t)cpd.entry_count() +
			 4 * (uint64_t)lv.width * lv.height + 4 * n +
			 4 * (n + 1) + sizeof(OutArc) * arcs;
		return true;
	}

	uint32_t node_at(int x, int y) const
	{
		return (uint32_t)mapper(xyLoc{(int16_t)x, (int16_t)y});
	}

	/* SRC's GetPath step: the move, then the arc it names. */
	uint32_t next(uint32_t s, uint32_t t) const
	{
		return (uint32_t)graph.out((int)s, cpd.get_first_move((int)s, (int)t)).target;
	}

	/* SRC's GetPath loop, into buf; nodes written (s and t included). */
	size_t path(uint32_t s, uint32_t t, uint32_t *buf, size_t cap) const
	{
		size_t k = 0;
		buf[k++] = s;
		for (uint32_t at = s; at != t && k < cap; ) {
			at = next(at, t);
			buf[k++] = at;
		}
		return k;
	}
};

struct twz_side {
	std::string label, file;
	twz_db *db = nullptr;
	uint64_t resident = 0;
	std::vector<bake_run> bakes;

	bool open()
	{
		uint64_t before = resident_bytes();
		twz_status st = twz_open(file.c_str(), 0, &db);
		if (st != TWZ_OK) {
			fprintf(stderr, "src_compare: %s: %s\n", file.c_str(),
				twz_strerror(st));
			return false;
		}
		resident = resident_bytes() - before;
		return true;
	}

	uint32_t next(uint32_t s, uint32_t t) const { return twz_next(db, s, t); }

	size_t path(uint32_t s, uint32_t t, uint32_t *buf, size_t cap) const
	{
		size_t len = 0;
		return twz_path(db, s, t, buf, cap, &len) == TWZ_OK ? len : 0;
	}
};

/* twigz walked by twz_next, one call a move, as a game stepping an agent
 * does. */
struct twz_next_side {
	const twz_side &side;

	size_t path(uint32_t s, uint32_t t, uint32_t *buf, size_t cap) const
	{
		size_t k = 0;
		buf[k++] = s;
		for (uint32_t at = s; at != t && at != TWZ_NONE && k < cap; ) {
			at = twz_next(side.db, at, t);
			buf[k++] = at;
		}
		return k;
	}
};

/* ---- timing ------------------------------------------------------------ */

/* Pairs as each side numbers them. */
struct pairs {
	std::vector<uint32_t> s, t;
};

/* This thread's CPU time: a batch preempted by the machine's other work
 * does not count the time it waited. */
double cpu_s()
{
	timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

const size_t batch = 4096;   /* queries a timed batch */

/* Independent queries: the batches of the pairs, after one untimed pass
 * over all of them; the median batch, per query. */
template <class Side>
double warm_ns(const Side &side, const pairs &p)
{
	uint64_t sum = 0;
	size_t n = p.s.size();
	std::vector<double> per;
	for (size_t j = 0; j < n; j++)
		sum += side.next(p.s[j], p.t[j]);
	for (size_t b = 0; b + batch <= n; b += batch) {
		double a = cpu_s();
		for (size_t j = b; j < b + batch; j++)
			sum += side.next(p.s[j], p.t[j]);
		per.push_back((cpu_s() - a) / batch * 1e9);
	}
	sink += sum;
	return median(per);
}

/* The same batches, each query's pair chosen by the last answer: its
 * index takes the answer's top bit (always 0 for a node), so its loads
 * wait for the last query to finish. */
template <class Side>
double chained_ns(const Side &side, const pairs &p)
{
	size_t n = p.s.size();
	uint32_t answer = 0;
	std::vector<double> per;
	for (size_t b = 0; b + batch <= n; b += batch) {
		double a = cpu_s();
		for (size_t j = b; j < b + batch; ) {
			answer = side.next(p.s[j], p.t[j]);
			j += 1 + (answer >> 31);
		}
		per.push_back((cpu_s() - a) / batch * 1e9);
	}
	sink += answer;
	return median(per);
}

/* A buffer larger than the last-level cache (--sweep-mb), read a line
 * at a time before each cold query: caches and TLB then hold none of
 * either side's data. */
std::vector<uint64_t> sweep_buf;

void sweep()
{
	uint64_t sum = 0;
	for (size_t i = 0; i < sweep_buf.size(); i += 8)
		sum += sweep_buf[i];
	sink += sum;
}

double clock_cost_ns;

/* Each query alone after a sweep, by the wall clock less its own (warm)
 * cost;
 * the mean, leaving out queries the machine preempted (over 50 us). */
template <class Side>
double cold_ns(const Side &side, const pairs &p, size_t count)
{
	double total = 0;
	size_t kept = 0;
	uint64_t sum = 0;
	for (size_t j = 0; j < count; j++) {
		sweep();
		/* The clock's own code and data, warm again: only the query
		 * runs cold. */
		sink += (uint64_t)now_s();
		double a = now_s();
		sum += side.next(p.s[j], p.t[j]);
		double ns = (now_s() - a) * 1e9 - clock_cost_ns;
		if (ns < 50e3) {
			total += ns;
			kept++;
		}
	}
	sink += sum;
	return kept ? total / kept : 0;
}

std::vector<uint32_t> path_buf;

/* Per move of the scenario's walks, one untimed pass first. */
template <class Side>
double step_ns(const Side &side, const pairs &walks)
{
	size_t moves = 0;
	double a = 0;
	for (int pass = 0; pass < 2; pass++) {
		a = cpu_s();
		moves = 0;
		for (size_t j = 0; j < walks.s.size(); j++)
			moves += side.path(walks.s[j], walks.t[j], path_buf.data(),
					   path_buf.size()) - 1;
	}
	return moves ? (cpu_s() - a) / moves * 1e9 : 0;
}

/* ---- checks ------------------------------------------------------------ */

struct cost {
	uint32_t straight = 0, diagonal = 0;
	bool operator==(const cost &o) const
	{
		return straight == o.straight && diagonal == o.diagonal;
	}
};

/* twigz's exact cost of s -> t (nodes of db). */
cost exact(twz_db *db, uint32_t s, uint32_t t)
{
	cost c;
	twz_cost_exact(db, s, t, &c.straight, &c.diagonal);
	return c;
}

/* One move from cell a to cell b: straight or diagonal. */
cost move_cost(uint32_t ax, uint32_t ay, uint32_t bx, uint32_t by)
{
	cost c;
	(ax != bx && ay != by ? c.diagonal : c.straight) = 1;
	return c;
}

/* Every first move of either side on the random pairs is one optimal
 * step: the move's cost plus the rest equals the whole. Counted as
 * failures, by side. */
size_t check_first_moves(const level &lv, const src_side &src, const twz_side &tw,
			 const std::vector<int> &cells_s, const std::vector<int> &cells_t,
			 const pairs &ps, const pairs &pt, size_t *src_bad)
{
	size_t bad = 0;
	*src_bad = 0;
	for (size_t j = 0; j < ps.s.size(); j++) {
		uint32_t s = pt.s[j], t = pt.t[j];
		cost whole = exact(tw.db, s, t);
		uint32_t sx = (uint32_t)(cells_s[j] % lv.width), sy = (uint32_t)(cells_s[j] / lv.width);
		uint32_t nx, ny;
		uint32_t ours = tw.next(s, t);
		bool ok = twz_node_xy(tw.db, ours, &nx, &ny) == TWZ_OK;
		cost step = move_cost(sx, sy, nx, ny), rest = exact(tw.db, ours, t);
		ok = ok && step.straight + rest.straight == whole.straight &&
		     step.diagonal + rest.diagonal == whole.diagonal;
		bad += !ok;
		xyLoc theirs = src.mapper((int)src.next(ps.s[j], ps.t[j]));
		uint32_t at = twz_node_at(tw.db, theirs.x, theirs.y);
		step = move_cost(sx, sy, (uint32_t)theirs.x, (uint32_t)theirs.y);
		rest = exact(tw.db, at, t);
		*src_bad += !(std::abs(theirs.x - (int)sx) <= 1 &&
			      std::abs(theirs.y - (int)sy) <= 1 &&
			      step.straight + rest.straight == whole.straight &&
			      step.diagonal + rest.diagonal == whole.diagonal);
	}
	(void)cells_t;
	return bad;
}

/* Scenario paths of one side against the published lengths. */
template <class Side, class CellOf>
size_t check_paths(const Side &side, const pairs &walks,
		   const std::vector<scen_query> &scen, CellOf cell_of)
{
	size_t bad = 0;
	for (size_t j = 0; j < walks.s.size(); j++) {
		size_t len = side.path(walks.s[j], walks.t[j], path_buf.data(),
				       path_buf.size());
		double c = 0;
		bool ok = len > 0 && path_buf[len - 1] == walks.t[j];
		for (size_t k = 1; ok && k < len; k++) {
			int ax, ay, bx, by;
			cell_of(path_buf[k - 1], ax, ay);
			cell_of(path_buf[k], bx, by);
			int dx = std::abs(ax - bx), dy = std::abs(ay - by);
			ok = dx <= 1 && dy <= 1 && dx + dy > 0;
			c += dx && dy ? std::sqrt(2.0) : 1.0;
		}
		bad += !(ok && std::fabs(c - scen[j].optimal) <= scen[j].tolerance);
	}
	return bad;
}

/* ---- the run ----------------------------------------------------------- */

struct options {
	std::string src_dir, twigz, work;
	unsigned threads = 0, rounds = 5, bake_rounds = 3;  /* threads 0: a core each */
	size_t pairs = 1 << 15, cold = 1000;
	size_t sweep_mb = 64;     /* twice the 32 MB L3 of the machine used */
	std::vector<std::string> formats;
	bool bake = true;
};

struct figures {
	std::vector<double> warm, chained, cold, step, next_step;
};

/* One level and twigz file, for the closing table: [0] SRC, [1] twigz. */
struct summary {
	std::string level, side, format;
	uint32_t nodes = 0;
	double warm[2] = {}, cold[2] = {}, step[2] = {}, memory[2] = {};
	double file[2] = {}, bake[2] = {};
	double raw_file = 0;
	bool all_ok = false;
};

std::vector<summary> summaries;

double ratio(double theirs, double ours)
{
	return ours > 0 ? theirs / ours : 0;
}

void print_row(const char *what, double src, double ours, const char *unit,
	       double goal)
{
	double r = ratio(src, ours);
	printf("  %-28s %12.2f %12.2f %-3s %7.2fx", what, src, ours, unit, r);
	if (goal > 0)
		printf("   goal %gx: %s", goal, r >= goal ? "met" : "missed");
	printf("\n");
}

/* A level's files and bakes, made before anything is measured while
 * this process is small: a forked child's peak memory counts what it
 * shares of its parent until it execs. */
struct level_bakes {
	level lv;
	std::string src_file;
	std::vector<bake_run> src;
	std::vector<std::string> labels, files;
	std::vector<std::vector<bake_run>> tw;
};

bool bake_level(const options &o, const std::string &map_path, level_bakes &lb)
{
	if (!load_level(map_path, lb.lv))
		return false;
	const std::string &name = lb.lv.name;
	/* SRC names its output after the map argument: bake in the work
	 * folder on a link named as the level. */
	std::string map_link = o.work + "/" + name + ".map";
	unlink(map_link.c_str());
	char real[PATH_MAX];
	if (!realpath(map_path.c_str(), real) || symlink(real, map_link.c_str()) != 0) {
		fprintf(stderr, "src_compare: %s: cannot link %s\n", map_link.c_str(),
			map_path.c_str());
		return false;
	}
	lb.src_file = o.work + "/DFS-SRC-RLE-" + name + ".map";
	size_t sides = 1 + o.formats.size();
	lb.tw.resize(sides);
	for (size_t i = 0; i < sides; i++) {
		lb.labels.push_back(i ? "twigz --format " + o.formats[i - 1] : "twigz default");
		lb.files.push_back(o.work + "/" + name + (i ? "." + o.formats[i - 1] : "") + ".twz");
	}
	/* Rounds interleave the bakes, SRC first in every other one. */
	for (unsigned r = 0; r < o.bake_rounds; r++)
		for (size_t k = 0; k <= sides; k++) {
			size_t i = (k + r) % (sides + 1);
			bake_run b;
			if (i == sides) {
				if (!o.bake && file_bytes(lb.src_file))
					continue;
				if (!run_child({ o.src_dir + "/dfs_src", "-pre", name + ".map",
						 name + ".map.scen" }, o.work.c_str(), o.threads, b))
					return false;
				lb.src.push_back(b);
				continue;
			}
			if (!o.bake && file_bytes(lb.files[i]))
				continue;
			std::vector<std::string> argv = { o.twigz, "build", map_path, "-o",
				lb.files[i], "--threads", std::to_string(o.threads), "--quiet" };
			if (i) {
				argv.push_back("--format");
				argv.push_back(o.formats[i - 1]);
			}
			if (!run_child(argv, NULL, o.threads, b))
				return false;
			lb.tw[i].push_back(b);
		}
	return true;
}

bool measure_level(const options &o, const std::string &map_path, const level_bakes &lb)
{
	const level &lv = lb.lv;
	const std::string &src_file = lb.src_file;
	std::vector<scen_query> scen;
	if (!load_scen(map_path + ".scen", scen))
		return false;
	std::vector<twz_side> tw(lb.files.size());
	for (size_t i = 0; i < tw.size(); i++) {
		tw[i].label = lb.labels[i];
		tw[i].file = lb.files[i];
		tw[i].bakes = lb.tw[i];
	}
	const std::vector<bake_run> &src_bakes = lb.src;

	std::vector<char> raw;
	if (!read_file(src_file, raw))
		return false;
	std::vector<char> packed(ZSTD_compressBound(raw.size()));
	size_t zsize = ZSTD_compress(packed.data(), packed.size(), raw.data(),
				     raw.size(), 19);
	if (ZSTD_isError(zsize)) {
		fprintf(stderr, "src_compare: zstd: %s\n", ZSTD_getErrorName(zsize));
		return false;
	}

	src_side src;
	if (!src.load(lv, src_file))
		return false;
	for (auto &t : tw)
		if (!t.open())
			return false;
	uint32_t nodes = twz_node_count(tw[0].db);
	if ((uint32_t)src.cpd.node_count() != nodes) {
		fprintf(stderr, "src_compare: %s: SRC has %d nodes, twigz %u\n",
			lv.name.c_str(), src.cpd.node_count(), nodes);
		return false;
	}

	/* Random pairs of cells of one region, then each side's nodes. */
	std::vector<int> cells;
	for (int i = 0; i < lv.width * lv.height; i++)
		if (lv.walkable[i] && twz_node_at(tw[0].db, i % lv.width, i / lv.width) != TWZ_NONE)
			cells.push_back(i);
	size_t n = o.pairs;
	std::vector<int> cs(n), ct(n);
	pairs ps;
	std::vector<pairs> pt(tw.size());
	for (size_t j = 0; j < n; j++) {
		uint32_t a, b;
		do {
			cs[j] = cells[below((uint32_t)cells.size())];
			ct[j] = cells[below((uint32_t)cells.size())];
			a = twz_node_at(tw[0].db, cs[j] % lv.width, cs[j] / lv.width);
			b = twz_node_at(tw[0].db, ct[j] % lv.width, ct[j] / lv.width);
		} while (a == b || twz_next(tw[0].db, a, b) == TWZ_NONE);
		ps.s.push_back(src.node_at(cs[j] % lv.width, cs[j] / lv.width));
		ps.t.push_back(src.node_at(ct[j] % lv.width, ct[j] / lv.width));
		for (size_t i = 0; i < tw.size(); i++) {
			pt[i].s.push_back(twz_node_at(tw[i].db, cs[j] % lv.width, cs[j] / lv.width));
			pt[i].t.push_back(twz_node_at(tw[i].db, ct[j] % lv.width, ct[j] / lv.width));
		}
	}
	/* The scenario's walks (pairs with s == t walk nothing). */
	pairs ws;
	std::vector<pairs> wt(tw.size());
	std::vector<scen_query> walked;
	for (const auto &q : scen) {
		uint32_t s = src.node_at(q.sx, q.sy), t = src.node_at(q.gx, q.gy);
		if (s == (uint32_t)-1 || t == (uint32_t)-1 || s == t)
			continue;
		ws.s.push_back(s);
		ws.t.push_back(t);
		for (size_t i = 0; i < tw.size(); i++) {
			wt[i].s.push_back(twz_node_at(tw[i].db, q.sx, q.sy));
			wt[i].t.push_back(twz_node_at(tw[i].db, q.gx, q.gy));
		}
		walked.push_back(q);
	}
	path_buf.assign((size_t)nodes + 1, 0);

	/* Every answer checked before anything is timed. */
	bool all_ok = true;
	for (size_t i = 0; i < tw.size(); i++) {
		size_t src_bad, bad = check_first_moves(lv, src, tw[i], cs, ct, ps, pt[i], &src_bad);
		size_t path_bad = check_paths(tw[i], wt[i], walked,
			[&](uint32_t v, int &x, int &y) {
				uint32_t ux, uy;
				twz_node_xy(tw[i].db, v, &ux, &uy);
				x = (int)ux;
				y = (int)uy;
			});
		if (bad || path_bad || src_bad) {
			fprintf(stderr, "src_compare: %s: %s: %zu first moves and %zu "
				"scenario paths not optimal (SRC: %zu first moves)\n",
				lv.name.c_str(), tw[i].label.c_str(), bad, path_bad, src_bad);
			all_ok = false;
		}
	}
	size_t src_path_bad = check_paths(src, ws, walked, [&](uint32_t v, int &x, int &y) {
		xyLoc p = src.mapper((int)v);
		x = p.x;
		y = p.y;
	});
	if (src_path_bad) {
		fprintf(stderr, "src_compare: %s: SRC: %zu scenario paths not optimal\n",
			lv.name.c_str(), src_path_bad);
		all_ok = false;
	}

	figures fs;
	std::vector<figures> ft(tw.size());
	for (unsigned r = 0; r < o.rounds; r++) {
		/* Sides alternate, and which goes first alternates too. */
		for (size_t k = 0; k <= tw.size(); k++) {
			size_t i = (k + r) % (tw.size() + 1);
			if (i == tw.size()) {
				fs.warm.push_back(warm_ns(src, ps));
				fs.chained.push_back(chained_ns(src, ps));
				fs.cold.push_back(cold_ns(src, ps, o.cold));
				fs.step.push_back(step_ns(src, ws));
			} else {
				ft[i].warm.push_back(warm_ns(tw[i], pt[i]));
				ft[i].chained.push_back(chained_ns(tw[i], pt[i]));
				ft[i].cold.push_back(cold_ns(tw[i], pt[i], o.cold));
				ft[i].step.push_back(step_ns(tw[i], wt[i]));
				ft[i].next_step.push_back(step_ns(twz_next_side{ tw[i] }, wt[i]));
			}
		}
	}

	double pairs2 = (double)nodes * nodes;
	printf("\n%s (%u nodes, %zu random pairs, %zu cold, %zu scenario paths; "
	       "%u threads; medians of %u rounds)%s\n", lv.name.c_str(), nodes, n,
	       o.cold, walked.size(), o.threads, o.rounds,
	       all_ok ? "; every answer optimal" : "; SOME ANSWERS NOT OPTIMAL");
	std::vector<double> sw, sc, sp;
	for (const auto &b : src_bakes) {
		sw.push_back(b.wall_s);
		sc.push_back(b.cpu_s);
		sp.push_back(b.peak_mb);
	}
	for (size_t i = 0; i < tw.size(); i++) {
		const twz_side &t = tw[i];
		twz_info in;
		twz_get_info(t.db, &in);
		std::vector<double> w, c, p;
		for (const auto &b : t.bakes) {
			w.push_back(b.wall_s);
			c.push_back(b.cpu_s);
			p.push_back(b.peak_mb);
		}
		summary row;
		row.level = lv.name;
		row.nodes = nodes;
		row.side = t.label;
		row.format = std::to_string(in.format_major) + "." + std::to_string(in.format_minor);
		row.warm[0] = median(fs.warm);
		row.warm[1] = median(ft[i].warm);
		row.cold[0] = median(fs.cold);
		row.cold[1] = median(ft[i].cold);
		row.step[0] = median(fs.step);
		row.step[1] = median(ft[i].step);
		row.memory[0] = (double)src.memory;
		row.memory[1] = (double)in.memory_size;
		row.file[0] = (double)zsize;
		row.file[1] = (double)in.file_size;
		row.raw_file = (double)raw.size();
		row.bake[0] = median(sw);
		row.bake[1] = median(w);
		row.all_ok = all_ok;
		summaries.push_back(row);

		printf(" %s (format %s)          %12s %12s\n", t.label.c_str(),
		       row.format.c_str(), "SRC", "twigz");
		print_row("first move, warm", row.warm[0], row.warm[1], "ns", 2);
		print_row("first move, cold", row.cold[0], row.cold[1], "ns", 2);
		print_row("first move, chained", median(fs.chained), median(ft[i].chained), "ns", 0);
		print_row("path step (twz_path)", row.step[0], row.step[1], "ns", 4);
		print_row("path step (twz_next walk)", row.step[0], median(ft[i].next_step), "ns", 0);
		print_row("in memory", row.memory[0] / 1e6, row.memory[1] / 1e6, "MB", 6);
		print_row("resident growth at load", src.resident / 1e6, t.resident / 1e6, "MB", 0);
		print_row("zstd -19 file", row.file[0] / 1e6, row.file[1] / 1e6, "MB", 15);
		print_row("file (SRC's raw)", row.raw_file / 1e6, row.file[1] / 1e6, "MB", 0);
		if (!sw.empty() && !w.empty()) {
			printf("  %-28s %12.2f %12.2f     %7.2fx   goal 5x: %s\n",
			       "bake Mpairs/s (wall)", pairs2 / row.bake[0] / 1e6,
			       pairs2 / row.bake[1] / 1e6, ratio(row.bake[0], row.bake[1]),
			       ratio(row.bake[0], row.bake[1]) >= 5 ? "met" : "missed");
			print_row("bake wall", row.bake[0], row.bake[1], "s", 0);
			print_row("bake CPU", median(sc), median(c), "s", 0);
			print_row("bake peak memory", median(sp), median(p), "MB", 0);
		}
	}
	for (auto &t : tw)
		twz_close(t.db);
	return all_ok;
}

/* Every level's figures again as one Markdown table: SRC's figure,
 * twigz's, and the ratio (SRC's over twigz's; bake: twigz's node pairs
 * a second over SRC's). */
void print_markdown(const options &o)
{
	printf("\n| level (nodes) | twigz | first move warm | cold | path step | "
	       "in memory | zstd file | bake (%u threads) |\n", o.threads);
	printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (const auto &r : summaries) {
		printf("| %s (%u) | %s%s | %.1f / %.1f ns (%.2fx) | %.0f / %.0f ns (%.2fx) | "
		       "%.1f / %.1f ns (%.2fx) | %.2f / %.3f MB (%.1fx) | "
		       "%.0f / %.1f KB (%.1fx) |", r.level.c_str(), r.nodes,
		       r.format.c_str(), r.all_ok ? "" : " (NOT OPTIMAL)",
		       r.warm[0], r.warm[1], ratio(r.warm[0], r.warm[1]),
		       r.cold[0], r.cold[1], ratio(r.cold[0], r.cold[1]),
		       r.step[0], r.step[1], ratio(r.step[0], r.step[1]),
		       r.memory[0] / 1e6, r.memory[1] / 1e6, ratio(r.memory[0], r.memory[1]),
		       r.file[0] / 1e3, r.file[1] / 1e3, ratio(r.file[0], r.file[1]));
		if (r.bake[0] > 0 && r.bake[1] > 0)
			printf(" %.2f / %.2f s (%.2fx) |\n", r.bake[0], r.bake[1],
			       ratio(r.bake[0], r.bake[1]));
		else
			printf(" - |\n");
	}
}

int usage()
{
	fprintf(stderr, "usage: src_compare --src DIR --twigz TWIGZ --work DIR "
		"[--threads N] [--rounds N] [--bake-rounds N] [--pairs N] "
		"[--cold N] [--sweep-mb N] [--format F]... [--no-bake] LEVEL.map...\n");
	return 2;
}

} /* namespace */

int main(int argc, char **argv)
{
	options o;
	std::vector<std::string> maps;
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		bool more = i + 1 < argc;
		if (a == "--src" && more)
			o.src_dir = argv[++i];
		else if (a == "--twigz" && more)
			o.twigz = argv[++i];
		else if (a == "--work" && more)
			o.work = argv[++i];
		else if (a == "--threads" && more)
			o.threads = (unsigned)atoi(argv[++i]);
		else if (a == "--rounds" && more)
			o.rounds = (unsigned)atoi(argv[++i]);
		else if (a == "--bake-rounds" && more)
			o.bake_rounds = (unsigned)atoi(argv[++i]);
		else if (a == "--pairs" && more)
			o.pairs = (size_t)atol(argv[++i]);
		else if (a == "--cold" && more)
			o.cold = (size_t)atol(argv[++i]);
		else if (a == "--sweep-mb" && more)
			o.sweep_mb = (size_t)atol(argv[++i]);
		else if (a == "--format" && more)
			o.formats.push_back(argv[++i]);
		else if (a == "--no-bake")
			o.bake = false;
		else if (a.size() > 1 && a[0] == '-')
			return usage();
		else
			maps.push_back(a);
	}
	if (o.src_dir.empty() || o.twigz.empty() || o.work.empty() || maps.empty() ||
	    o.rounds < 1 || o.bake_rounds < 1)
		return usage();
	if (o.threads == 0) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		o.threads = cores > 0 ? (unsigned)cores : 1;
	}
	/* Whole batches. */
	o.pairs = std::max(batch, o.pairs / batch * batch);
	o.cold = std::min(o.cold, o.pairs);

	std::vector<double> cost;
	for (int i = 0; i < 1001; i++) {
		double a = now_s();
		cost.push_back((now_s() - a) * 1e9);
	}
	clock_cost_ns = median(cost);
	printf("src_compare: SRC from %s, %s; sweep %zu MB, clock %.0f ns\n",
	       o.src_dir.c_str(), o.twigz.c_str(), o.sweep_mb, clock_cost_ns);
	int failed = 0;
	std::vector<level_bakes> bakes(maps.size());
	for (size_t i = 0; i < maps.size(); i++)
		if (!bake_level(o, maps[i], bakes[i]))
			return 1;
	sweep_buf.assign(o.sweep_mb << 17, 1);
	for (size_t i = 0; i < maps.size(); i++)
		failed += !measure_level(o, maps[i], bakes[i]);
	print_markdown(o);
	return failed ? 1 : 0;
}

// header.cpp - twigz.h from C++ under the strictest warnings a game's
// build might use (-Wold-style-cast among them, with -Werror): every
// macro the header defines is expanded here, so a cast or a C-only
// construct in one fails the build. Run, it opens nothing and says 0.
#include <cstdio>
#include <twigz.h>

int main()
{
	twz_node none = TWZ_NONE;
	size_t bytes = TWZ_CLOSED_BYTES(twz_node_count(nullptr) + 9u);
	unsigned version = TWZ_VERSION_NUMBER;
	uint32_t radius = TWZ_RADIUS_ANY;
	unsigned kinds = TWZ_KIND_GRID + TWZ_KIND_GRAPH + TWZ_KIND_NAVMESH;
	unsigned modes = TWZ_WAYPOINTS_FUNNEL + TWZ_WAYPOINTS_MIDPOINTS +
			 TWZ_NAVMESH_MAX_POLY_VERTS + TWZ_OPEN_SKIP_CHECKSUMS;
	twz_filter filter = {};
	twz_db *db = nullptr;
	twz_status st = twz_open(nullptr, 0, &db);

	if (none != 0xFFFFFFFFu || bytes != 2 || version != twz_version_number() ||
	    radius != 0xFFFFFFFFu || kinds != 3 || modes != 257 ||
	    filter.world != nullptr || st != TWZ_E_ARGUMENT) {
		std::printf("twigz.h from C++: unexpected values\n");
		return 1;
	}
	std::printf("%s\n", twz_strerror(TWZ_E_BUDGET));
	return 0;
}

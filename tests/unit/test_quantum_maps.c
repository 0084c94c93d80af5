/* test_quantum_maps.c: the map table of rules §11 and the geometry of §2.
 *
 * The expected values are transcribed from the rules (docs/rules/quantum.md
 * §11), not computed from the map table: the §11.2 summary table (seats, cubes,
 * tile grid, planets, Void tiles, cube locations, slack), the starred planet
 * coordinates of §11.3/§11.6 and the ASCII renders of §11.3-§11.5.
 */
#include <string.h>

#include "games/quantum/qt_maps.h"
#include "testhelp.h"

struct expect_row {
	const char *name;
	int seats, cubes, tile_rows, tile_cols, planets, voids, locations,
	    slack;
};

struct expect_start {
	const char *name;
	int n;
	int at[4][3]; /* row, col, number */
};

struct expect_render {
	const char *name;
	int rows;
	const char *row[21];
};

/* rules §11.2 summary table, row by row */
static const struct expect_row summary[] = {
    {"Tactics - Add-on pack", 2, 4, 3, 3, 5, 0, 7, -1},
    {"Blocus - Add-on pack", 2, 4, 1, 5, 5, 0, 7, -1},
    {"Precis", 2, 4, 2, 3, 5, 1, 10, 2},
    {"Alpha sector - Basic map", 2, 5, 3, 3, 9, 0, 10, 0},
    {"Null hypothesis", 2, 5, 3, 5, 7, 0, 11, 1},
    {"Interpolation", 2, 5, 3, 3, 5, 0, 10, 0},
    {"Axiomatic - The Void", 2, 5, 4, 4, 6, 1, 10, 0},
    {"Non Sequitur", 2, 5, 3, 3, 7, 1, 15, 5},
    {"False binary", 2, 6, 3, 3, 7, 0, 12, 0},
    {"Parallax", 2, 6, 2, 4, 8, 0, 14, 2},
    {"Circular logic", 2, 6, 3, 3, 8, 0, 14, 2},
    {"Wave function", 2, 6, 4, 4, 10, 0, 14, 2},
    {"From dust to dust - The Void", 2, 6, 3, 5, 8, 1, 12, 0},
    {"Asymptote - The Void", 2, 6, 4, 5, 7, 1, 12, 0},
    {"Rupture", 2, 6, 4, 4, 10, 0, 16, 4},
    {"Terra minor", 2, 7, 3, 4, 8, 0, 14, 0},
    {"Terra major", 2, 7, 3, 5, 11, 0, 17, 3},
    {"Matter and anti-matter", 2, 7, 3, 5, 9, 0, 15, 1},
    {"The great plan - The Void", 2, 7, 4, 5, 11, 1, 16, 2},
    {"Beyond", 2, 7, 3, 5, 9, 1, 14, 0},
    {"Outer Fringe", 2, 7, 3, 5, 10, 1, 16, 2},
    {"Ox", 2, 7, 4, 5, 10, 0, 15, 1},
    {"Invaders - Add-on pack", 3, 4, 3, 3, 6, 0, 10, -2},
    {"Circumnavigation - Add-on pack", 3, 4, 3, 3, 8, 0, 10, -2},
    {"Beta sector - Basic map", 3, 5, 3, 3, 9, 0, 19, 4},
    {"Beta sector - Add-on pack", 3, 5, 3, 3, 9, 0, 19, 4},
    {"Space-time continuum", 3, 5, 3, 4, 9, 0, 19, 4},
    {"Critical density", 3, 5, 3, 4, 8, 0, 17, 2},
    {"Gravitational constant", 3, 5, 3, 5, 7, 0, 15, 0},
    {"String theory", 3, 5, 4, 4, 8, 0, 17, 2},
    {"Pivot point - The Void", 3, 5, 3, 3, 7, 1, 17, 2},
    {"Aperture", 3, 5, 5, 5, 8, 1, 14, -1},
    {"Origin of thought", 3, 6, 4, 4, 10, 0, 19, 1},
    {"Equinox", 3, 6, 4, 5, 11, 0, 20, 2},
    {"Ouroboros", 3, 6, 3, 4, 10, 0, 20, 2},
    {"Quandary - The Void", 3, 6, 3, 4, 7, 1, 17, -1},
    {"The empty center - The Void", 3, 6, 3, 3, 8, 1, 19, 1},
    {"Infamous", 3, 6, 4, 4, 10, 1, 16, -2},
    {"Outer reaches", 3, 7, 4, 4, 15, 0, 26, 5},
    {"Foundation", 3, 7, 4, 5, 12, 0, 24, 3},
    {"Edge of oblivion - The Void", 3, 7, 5, 5, 13, 1, 27, 6},
    {"Crux", 3, 7, 5, 5, 10, 1, 19, -2},
    {"Einstein-Rosen Bridge", 3, 7, 5, 5, 13, 0, 19, -2},
    {"Lattice", 3, 7, 4, 5, 14, 0, 20, -1},
    {"Eden - Add-on pack", 4, 4, 3, 3, 9, 0, 13, -3},
    {"Theoric limit - Add-on pack", 4, 4, 3, 5, 11, 0, 14, -2},
    {"Singularity", 4, 4, 3, 3, 5, 0, 19, 3},
    {"Gamma sector - Basic map", 4, 5, 3, 3, 9, 0, 23, 3},
    {"Supercollider - The Void", 4, 5, 3, 3, 6, 1, 22, 2},
    {"Bifurcation", 4, 5, 4, 6, 10, 0, 18, -2},
    {"Circumgyration", 4, 5, 5, 5, 12, 1, 24, 4},
    {"Nexus", 4, 6, 4, 4, 12, 0, 30, 6},
    {"Spiral nebula", 4, 6, 4, 4, 8, 0, 28, 4},
    {"Tesseract", 4, 6, 5, 5, 13, 0, 28, 4},
    {"Galactic rotation", 4, 6, 5, 5, 13, 0, 28, 4},
    {"The great expanse", 4, 6, 4, 4, 16, 0, 28, 4},
    {"Brownian motion - The Void", 4, 6, 3, 5, 12, 1, 28, 4},
    {"Aegis", 4, 6, 5, 5, 14, 1, 22, -2},
    {"Convergence (huge)", 4, 6, 4, 7, 13, 1, 21, -3},
    {"Event horizon (huge)", 4, 6, 7, 7, 13, 0, 28, 4},
    {"Barren empire", 4, 7, 5, 5, 20, 0, 36, 8},
    {"Doppler effect - The Void", 4, 7, 3, 5, 12, 1, 32, 4},
    {"Helix - The Void", 4, 7, 5, 5, 14, 1, 32, 4},
    {"Centripetal Arc (huge)", 4, 7, 7, 7, 16, 1, 40, 12},
    {"Disunity", 4, 7, 5, 5, 13, 1, 25, -3},
    {"Everything (huge)", 4, 7, 5, 7, 24, 1, 52, 24},
    {"Gordian knot (huge)", 4, 7, 6, 6, 16, 0, 32, 4},
    {"Interception", 4, 7, 5, 5, 17, 0, 27, -1},
    {"Race to Glory", 4, 7, 5, 5, 13, 1, 25, -3},
    {"Space Jelly (huge)", 4, 7, 5, 6, 18, 0, 30, 2},
    {"Tangled", 4, 7, 5, 5, 14, 1, 26, -2},
    /* rules §11.3: the three first-printing basic maps */
    {"Alpha Sector — 1st printing (2013 rulebook)", 2, 5, 3, 3, 9, 0, 11, 1},
    {"Beta Sector — 1st printing (2013 rulebook)", 3, 5, 3, 3, 9, 0, 16, 1},
    {"Gamma Sector — 1st printing (2013 rulebook)", 4, 5, 3, 3, 9, 0, 23, 3},
};
/* starting planets: the starred "(row,col)=number*" of rules §11.3/§11.6 */
static const struct expect_start starts[] = {
    {"Alpha Sector — 1st printing (2013 rulebook)", 2, {{1, 7, 7}, {7, 1, 7}}},
    {"Beta Sector — 1st printing (2013 rulebook)",
     3,
     {{1, 1, 7}, {1, 7, 7}, {7, 4, 7}}},
    {"Gamma Sector — 1st printing (2013 rulebook)",
     4,
     {{1, 1, 8}, {1, 7, 8}, {7, 1, 9}, {7, 7, 9}}},
    {"Tactics - Add-on pack", 2, {{4, 1, 8}, {4, 7, 8}}},
    {"Blocus - Add-on pack", 2, {{1, 1, 7}, {1, 13, 7}}},
    {"Precis", 2, {{4, 1, 9}, {4, 7, 9}}},
    {"Alpha sector - Basic map", 2, {{1, 1, 7}, {7, 7, 7}}},
    {"Null hypothesis", 2, {{1, 7, 7}, {7, 7, 7}}},
    {"Interpolation", 2, {{1, 4, 8}, {7, 4, 8}}},
    {"Axiomatic - The Void", 2, {{4, 10, 7}, {10, 4, 7}}},
    {"Non Sequitur", 2, {{1, 1, 7}, {1, 7, 7}}},
    {"False binary", 2, {{1, 7, 7}, {7, 1, 7}}},
    {"Parallax", 2, {{1, 1, 8}, {4, 10, 8}}},
    {"Circular logic", 2, {{1, 1, 7}, {7, 7, 7}}},
    {"Wave function", 2, {{1, 1, 7}, {10, 10, 7}}},
    {"From dust to dust - The Void", 2, {{1, 13, 7}, {7, 1, 7}}},
    {"Asymptote - The Void", 2, {{4, 1, 7}, {4, 13, 7}}},
    {"Rupture", 2, {{4, 7, 7}, {7, 4, 7}}},
    {"Terra minor", 2, {{4, 1, 7}, {4, 10, 7}}},
    {"Terra major", 2, {{4, 1, 8}, {4, 13, 8}}},
    {"Matter and anti-matter", 2, {{1, 13, 7}, {7, 1, 7}}},
    {"The great plan - The Void", 2, {{10, 1, 7}, {10, 13, 7}}},
    {"Beyond", 2, {{1, 1, 7}, {7, 1, 7}}},
    {"Outer Fringe", 2, {{1, 7, 7}, {7, 7, 7}}},
    {"Ox", 2, {{4, 1, 9}, {4, 13, 9}}},
    {"Invaders - Add-on pack", 3, {{1, 4, 9}, {7, 1, 8}, {7, 7, 8}}},
    {"Circumnavigation - Add-on pack", 3, {{1, 4, 7}, {4, 1, 7}, {7, 7, 7}}},
    {"Beta sector - Basic map", 3, {{1, 4, 9}, {7, 1, 8}, {7, 7, 8}}},
    {"Beta sector - Add-on pack", 3, {{1, 1, 8}, {1, 7, 8}, {7, 4, 7}}},
    {"Space-time continuum", 3, {{1, 1, 7}, {4, 10, 7}, {7, 1, 7}}},
    {"Critical density", 3, {{1, 7, 9}, {4, 4, 9}, {7, 7, 9}}},
    {"Gravitational constant", 3, {{1, 1, 7}, {1, 13, 7}, {7, 7, 7}}},
    {"String theory", 3, {{4, 1, 8}, {4, 7, 8}, {10, 7, 8}}},
    {"Pivot point - The Void", 3, {{1, 4, 9}, {4, 1, 9}, {7, 7, 7}}},
    {"Aperture", 3, {{4, 4, 9}, {10, 4, 9}, {10, 10, 9}}},
    {"Origin of thought", 3, {{1, 1, 8}, {4, 10, 8}, {10, 4, 8}}},
    {"Equinox", 3, {{4, 7, 9}, {7, 4, 9}, {7, 10, 9}}},
    {"Ouroboros", 3, {{1, 7, 9}, {4, 1, 8}, {7, 7, 9}}},
    {"Quandary - The Void", 3, {{1, 4, 9}, {4, 1, 8}, {7, 4, 9}}},
    {"The empty center - The Void", 3, {{1, 1, 8}, {1, 7, 9}, {7, 4, 9}}},
    {"Infamous", 3, {{1, 7, 8}, {7, 1, 8}, {7, 7, 9}}},
    {"Outer reaches", 3, {{1, 1, 8}, {4, 10, 7}, {10, 7, 8}}},
    {"Foundation", 3, {{1, 1, 8}, {1, 13, 8}, {10, 7, 7}}},
    {"Edge of oblivion - The Void", 3, {{1, 4, 7}, {1, 10, 7}, {13, 7, 7}}},
    {"Crux", 3, {{1, 7, 8}, {7, 1, 8}, {7, 13, 8}}},
    {"Einstein-Rosen Bridge", 3, {{1, 7, 7}, {7, 7, 7}, {13, 7, 7}}},
    {"Lattice", 3, {{1, 7, 8}, {7, 4, 8}, {7, 10, 8}}},
    {"Eden - Add-on pack", 4, {{1, 4, 8}, {4, 1, 8}, {4, 7, 8}, {7, 4, 8}}},
    {"Theoric limit - Add-on pack",
     4,
     {{1, 1, 7}, {1, 13, 7}, {7, 1, 7}, {7, 13, 7}}},
    {"Singularity", 4, {{1, 4, 10}, {4, 1, 10}, {4, 7, 10}, {7, 4, 10}}},
    {"Gamma sector - Basic map",
     4,
     {{1, 1, 9}, {1, 7, 9}, {7, 1, 8}, {7, 7, 8}}},
    {"Supercollider - The Void",
     4,
     {{1, 1, 10}, {1, 7, 10}, {7, 1, 10}, {7, 7, 10}}},
    {"Bifurcation", 4, {{1, 7, 9}, {4, 16, 8}, {7, 1, 8}, {10, 10, 9}}},
    {"Circumgyration", 4, {{1, 4, 9}, {4, 13, 9}, {10, 1, 9}, {13, 10, 9}}},
    {"Nexus", 4, {{1, 7, 9}, {4, 1, 9}, {7, 10, 9}, {10, 4, 9}}},
    {"Spiral nebula", 4, {{1, 4, 9}, {4, 10, 9}, {7, 1, 9}, {10, 7, 9}}},
    {"Tesseract", 4, {{1, 7, 7}, {7, 1, 7}, {7, 13, 7}, {13, 7, 7}}},
    {"Galactic rotation", 4, {{1, 10, 9}, {4, 1, 9}, {10, 13, 9}, {13, 4, 9}}},
    {"The great expanse", 4, {{1, 1, 7}, {1, 10, 8}, {10, 1, 7}, {10, 10, 7}}},
    {"Brownian motion - The Void",
     4,
     {{1, 4, 7}, {1, 13, 7}, {7, 1, 8}, {7, 10, 8}}},
    {"Aegis", 4, {{4, 4, 8}, {4, 10, 8}, {10, 4, 8}, {10, 10, 8}}},
    {"Convergence (huge)", 4, {{4, 1, 7}, {4, 19, 7}, {10, 7, 7}, {10, 13, 7}}},
    {"Event horizon (huge)",
     4,
     {{1, 10, 7}, {10, 1, 7}, {10, 19, 7}, {19, 10, 7}}},
    {"Barren empire", 4, {{1, 1, 8}, {1, 13, 8}, {13, 1, 8}, {13, 13, 8}}},
    {"Doppler effect - The Void",
     4,
     {{1, 1, 8}, {1, 13, 7}, {7, 1, 7}, {7, 13, 8}}},
    {"Helix - The Void", 4, {{1, 7, 8}, {7, 1, 8}, {7, 13, 8}, {13, 7, 8}}},
    {"Centripetal Arc (huge)",
     4,
     {{7, 10, 7}, {10, 7, 7}, {10, 13, 7}, {13, 10, 7}}},
    {"Disunity", 4, {{1, 4, 10}, {4, 13, 8}, {7, 1, 9}, {13, 13, 7}}},
    {"Everything (huge)",
     4,
     {{4, 10, 10}, {7, 7, 10}, {7, 13, 10}, {10, 10, 10}}},
    {"Gordian knot (huge)",
     4,
     {{1, 7, 7}, {7, 1, 7}, {10, 16, 7}, {16, 10, 7}}},
    {"Interception", 4, {{4, 4, 8}, {4, 10, 9}, {10, 4, 8}, {10, 10, 8}}},
    {"Race to Glory", 4, {{1, 7, 7}, {4, 1, 7}, {10, 1, 7}, {13, 7, 7}}},
    {"Space Jelly (huge)", 4, {{4, 7, 8}, {4, 13, 8}, {10, 4, 8}, {10, 10, 8}}},
    {"Tangled", 4, {{1, 4, 8}, {4, 1, 8}, {10, 13, 8}, {13, 10, 8}}},
};
/* ASCII renders of rules §11.3-§11.5: # no square, . empty, ~ Void,
 * digit planet (X = 10), o orbital square of a starting planet */
static const struct expect_render renders[] = {
    {"Alpha sector - Basic map",
     9,
     {".o.......", "o7o.7..7.", ".o.......", ".........", ".7..8..7.",
      ".........", ".......o.", ".7..7.o7o", ".......o."}},
    {"Beta sector - Basic map",
     9,
     {"....o....", ".8.o9o.8.", "....o....", ".........", ".8..9..8.",
      ".........", ".o.....o.", "o8o.7.o8o", ".o.....o."}},
    {"Beta sector - Add-on pack",
     9,
     {".o.....o.", "o8o.9.o8o", ".o.....o.", ".........", ".8..9..8.",
      ".........", "....o....", ".8.o7o.8.", "....o...."}},
    {"Gamma sector - Basic map",
     9,
     {".o.....o.", "o9o.8.o9o", ".o.....o.", ".........", ".8..X..8.",
      ".........", ".o.....o.", "o8o.9.o8o", ".o.....o."}},
    {"Alpha Sector — 1st printing (2013 rulebook)",
     9,
     {".......o.", ".7..7.o7o", ".......o.", ".........", ".7..8..7.",
      ".........", ".o.......", "o7o.8..7.", ".o......."}},
    {"Beta Sector — 1st printing (2013 rulebook)",
     9,
     {".o.....o.", "o7o.8.o7o", ".o.....o.", ".........", ".8..9..8.",
      ".........", "....o....", ".8.o7o.8.", "....o...."}},
    {"Gamma Sector — 1st printing (2013 rulebook)",
     9,
     {".o.....o.", "o8o.9.o8o", ".o.....o.", ".........", ".8..X..8.",
      ".........", ".o.....o.", "o9o.8.o9o", ".o.....o."}},
    {"Tactics - Add-on pack",
     9,
     {"###...###", "###.7.###", "###...###", ".o.....o.", "o8o.7.o8o",
      ".o.....o.", "###...###", "###.7.###", "###...###"}},
    {"Blocus - Add-on pack",
     3,
     {".o...........o.", "o7o.8..7..8.o7o", ".o...........o."}},
    {"Invaders - Add-on pack",
     9,
     {"###.o.###", "###o9o###", "###.o.###", ".........", ".7..7..7.",
      ".........", ".o.###.o.", "o8o###o8o", ".o.###.o."}},
    {"Circumnavigation - Add-on pack",
     9,
     {"....o....", ".7.o7o.8.", "....o....", ".o.###...", "o7o###.7.",
      ".o.###...", ".......o.", ".8..7.o7o", ".......o."}},
    {"Eden - Add-on pack",
     9,
     {"....o....", ".7.o8o.7.", "....o....", ".o.....o.", "o8o.7.o8o",
      ".o.....o.", "....o....", ".7.o8o.7.", "....o...."}},
    {"Theoric limit - Add-on pack",
     9,
     {".o....###....o.", "o7o.7.###.7.o7o", ".o....###....o.",
      "###.........###", "###.8..8..8.###", "###.........###",
      ".o....###....o.", "o7o.7.###.7.o7o", ".o....###....o."}},
    {"Nexus",
     12,
     {"###....o.###", "###.8.o9o###", "###....o.###", ".o..........",
      "o9o.7..X..8.", ".o..........", "..........o.", ".8..X..7.o9o",
      "..........o.", "###.o....###", "###o9o.8.###", "###.o....###"}},
    {"Pivot point - The Void",
     9,
     {"###.o....", "###o9o.8.", "###.o....", ".o.~~~...", "o9o~~~.9.",
      ".o.~~~...", ".......o.", ".8..9.o7o", ".......o."}},
};

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct qt_map *decoded(const char *name, struct qt_board *b)
{
	int i = qt_map_find(name);
	if (i < 0)
		return NULL;
	const struct qt_map *m = qt_map_get(i);
	if (qt_board_decode(m, b) < 0)
		return NULL;
	return m;
}

/* rules §11.2: every row of the summary table, in BGA order. */
static void test_summary(void)
{
	test_cond("74 maps: 71 BGA + 3 first printing", qt_map_count() == 74);
	for (int i = 0; i < N_OF(summary); i++) {
		const struct expect_row *e = &summary[i];
		struct qt_board b;
		const struct qt_map *m = decoded(e->name, &b);
		test_cond(e->name, m != NULL);
		if (!m)
			continue;
		int ok = m->seats == e->seats && m->cubes == e->cubes &&
		         b.tile_rows == e->tile_rows &&
		         b.tile_cols == e->tile_cols &&
		         b.nplanets == e->planets &&
		         qt_board_void_tiles(&b) == e->voids &&
		         qt_board_cube_locations(&b) == e->locations &&
		         qt_board_cube_locations(&b) - e->seats * e->cubes ==
		             e->slack;
		if (!ok)
			fprintf(stderr, "map %s differs from §11.2\n", e->name);
		test_cond("§11.2 row matches", ok);
		/* BGA order: the first 71 rows are the table's first 71 */
		if (i < 71)
			test_cond("BGA order", qt_map_find(e->name) == i);
	}
}

/* rules §3.5: exactly as many starting planets as seats, at the starred
 * coordinates; planet numbers 7..10 at tile centres. */
static void test_starts(void)
{
	test_cond("a start row per map", N_OF(starts) == 74);
	for (int i = 0; i < N_OF(starts); i++) {
		const struct expect_start *e = &starts[i];
		struct qt_board b;
		const struct qt_map *m = decoded(e->name, &b);
		test_cond(e->name, m != NULL);
		if (!m)
			continue;
		int n = 0, ok = 1;
		for (int p = 0; p < b.nplanets; p++) {
			const struct qt_planet *pl = &b.planet[p];
			if (pl->number < 7 || pl->number > 10 ||
			    pl->at.r % 3 != 1 || pl->at.c % 3 != 1)
				ok = 0;
			if (!pl->start)
				continue;
			int found = 0;
			for (int k = 0; k < e->n; k++)
				found |= e->at[k][0] == pl->at.r &&
				         e->at[k][1] == pl->at.c &&
				         e->at[k][2] == pl->number;
			ok &= found;
			n++;
		}
		if (!ok || n != e->n || n != m->seats)
			fprintf(stderr, "map %s: starting planets differ\n",
			        e->name);
		test_cond("starting planets as starred", ok && n == e->n);
		test_cond("as many starting planets as seats", n == m->seats);
	}
}

static int is_start_orbital(const struct qt_board *b, int r, int c)
{
	int p = qt_board_orbit_of(b, r, c);
	return p >= 0 && b->planet[p].start;
}

/* rules §2 against the ASCII renders of §11.3-§11.5, square by square. */
static void test_renders(void)
{
	for (int i = 0; i < N_OF(renders); i++) {
		const struct expect_render *e = &renders[i];
		struct qt_board b;
		const struct qt_map *m = decoded(e->name, &b);
		test_cond(e->name, m != NULL);
		if (!m)
			continue;
		int ok = qt_board_rows(&b) == e->rows;
		for (int r = 0; ok && r < e->rows; r++) {
			int cols = (int)strlen(e->row[r]);
			ok &= qt_board_cols(&b) == cols;
			for (int c = 0; ok && c < cols; c++) {
				char ch = e->row[r][c];
				int p = qt_board_planet_at(&b, r, c);
				int exists = qt_board_exists(&b, r, c);
				int open = qt_board_open(&b, r, c);
				int vd = qt_board_is_void(&b, r, c);
				int so = is_start_orbital(&b, r, c);
				if (ch == '#')
					ok &= !exists && !open && p < 0;
				else if (ch == '~')
					ok &= open && vd && p < 0;
				else if (ch == 'o')
					ok &= open && so && !vd;
				else if (ch == '.')
					ok &= open && !so && !vd && p < 0;
				else
					ok &= !open && exists && p >= 0 &&
					      b.planet[p].number ==
					          (ch == 'X' ? 10 : ch - '0');
			}
		}
		if (!ok)
			fprintf(stderr, "map %s differs from its render\n",
			        e->name);
		test_cond("render matches square by square", ok);
	}
}

/* rules §2: orbital positions, adjacency, Void tiles, gaps. */
static void test_geometry(void)
{
	struct qt_board b;
	decoded("Alpha sector - Basic map", &b);
	struct qt_sq o[4];
	qt_board_orbitals(&b, 0, o);
	test_cond("orbitals of (1,1): above", o[0].r == 0 && o[0].c == 1);
	test_cond("orbitals of (1,1): below", o[1].r == 2 && o[1].c == 1);
	test_cond("orbitals of (1,1): left", o[2].r == 1 && o[2].c == 0);
	test_cond("orbitals of (1,1): right", o[3].r == 1 && o[3].c == 2);
	test_cond("(3,4) is orbital of (4,4)",
	          qt_board_orbit_of(&b, 3, 4) == qt_board_planet_at(&b, 4, 4));
	test_cond("corner (3,3) is no orbital",
	          qt_board_orbit_of(&b, 3, 3) < 0);
	test_cond("(2,4) is orbital of (1,4), not (4,4)",
	          qt_board_orbit_of(&b, 2, 4) == qt_board_planet_at(&b, 1, 4));
	test_cond("planet square not open", !qt_board_open(&b, 4, 4));
	test_cond("off board", !qt_board_exists(&b, 9, 0) &&
	                           !qt_board_exists(&b, -1, 0) &&
	                           !qt_board_exists(&b, 0, 9));
	struct qt_sq a = {2, 2}, n = {2, 3}, d = {3, 3}, f = {4, 2};
	test_cond("adjacent orthogonal", qt_sq_adjacent(a, n));
	test_cond("diagonal is not adjacent", !qt_sq_adjacent(a, d));
	test_cond("diagonal is surrounding", qt_sq_surrounding(a, d));
	test_cond("2 away is not surrounding", !qt_sq_surrounding(a, f));
	test_cond("a square does not surround itself",
	          !qt_sq_surrounding(a, a));

	decoded("Tactics - Add-on pack", &b);
	test_cond("gap tile (0,0) has no squares",
	          !qt_board_exists(&b, 0, 0) && !qt_board_exists(&b, 2, 2));
	test_cond("tile (0,1) exists", qt_board_exists(&b, 0, 3));
	test_cond("gap (0,2) no squares", !qt_board_exists(&b, 1, 7));

	decoded("Pivot point - The Void", &b);
	test_cond("Void centre is open space",
	          qt_board_open(&b, 4, 4) && qt_board_is_void(&b, 4, 4));
	test_cond("Void has no planet", qt_board_planet_at(&b, 4, 4) < 0);
	test_cond("Void edge is no orbital", qt_board_orbit_of(&b, 3, 4) < 0);
	test_cond("(3,2) not void", !qt_board_is_void(&b, 3, 2));

	decoded("Everything (huge)", &b);
	test_cond("Everything: 24 planets, 15x21",
	          b.nplanets == 24 && qt_board_rows(&b) == 15 &&
	              qt_board_cols(&b) == 21);
	test_cond(
	    "default maps",
	    qt_map_default(2) == qt_map_find("Alpha sector - Basic map") &&
	        qt_map_default(3) == qt_map_find("Beta sector - Basic map") &&
	        qt_map_default(4) == qt_map_find("Gamma sector - Basic map") &&
	        qt_map_default(2) >= 0 && qt_map_default(5) < 0);
	struct qt_map bad = {"bad", 2, 5, "7 x"};
	test_cond("malformed layout refused", qt_board_decode(&bad, &b) < 0);
}

int main(void)
{
	test_summary();
	test_starts();
	test_renders();
	test_geometry();
	return test_report("quantum-maps");
}

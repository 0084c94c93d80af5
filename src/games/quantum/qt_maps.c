/* qt_maps.c: the map table of rules §11 and the geometry of rules §2.
 * See qt_maps.h.
 * Layer 1 (data) of qt.h: it calls nothing of the module. */
#include <string.h>

#include "qt_maps.h"

/* Rules §11.6 (all 71 BGA maps, in BGA order), then the three
 * first-printing basic maps of rules §11.3.  Layouts copied from the
 * "tile rows" lines of §11. */
static const struct qt_map qt_maps[] = {
    {"Tactics - Add-on pack", 2, 4, ". 7/8* 7 8*/. 7"},
    {"Blocus - Add-on pack", 2, 4, "7* 8 7 8 7*"},
    {"Precis", 2, 4, "7 8 7/9* 0 9*"},
    {"Alpha sector - Basic map", 2, 5, "7* 7 7/7 8 7/7 7 7*"},
    {"Null hypothesis", 2, 5, ". . 7*/8 8 7 8 8/. . 7*"},
    {"Interpolation", 2, 5, ". 8*/8 8 8/. 8*"},
    {"Axiomatic - The Void", 2, 5, ". 8/8 0 8 7*/. 8/. 7*"},
    {"Non Sequitur", 2, 5, "7* 0 7*/10 . 10/8 7 8"},
    {"False binary", 2, 6, ". 8 7*/8 8 8/7* 8"},
    {"Parallax", 2, 6, "8* 8 8 7/7 8 8 8*"},
    {"Circular logic", 2, 6, "7* 8 8/8 . 8/8 8 7*"},
    {"Wave function", 2, 6, "7* 7/7 8 8/. 8 8 7/. . 7 7*"},
    {"From dust to dust - The Void", 2, 6, ". . 8 7 7*/. 8 0 8/7* 7 8"},
    {"Asymptote - The Void", 2, 6, ". . 8/7* 8 0 8 7*/. . 8/. . 8"},
    {"Rupture", 2, 6, "7 8/8 . 7* 8/8 7* . 8/. . 8 7"},
    {"Terra minor", 2, 7, ". 8 8/7* 8 8 7*/. 8 8"},
    {"Terra major", 2, 7, ". 7 8 7/8* 8 7 8 8*/. 7 8 7"},
    {"Matter and anti-matter", 2, 7, ". . 8 . 7*/8 8 7 8 8/7* . 8"},
    {"The great plan - The Void", 2, 7, ". . 8/. 7 8 7/7 8 0 8 7/7* . 8 . 7*"},
    {"Beyond", 2, 7, "7* 8 . 7/. 9 0 8 7/7* 8 . 7"},
    {"Outer Fringe", 2, 7, "7 . 7* . 7/9 8 0 8 9/7 . 7* . 7"},
    {"Ox", 2, 7, "7 . . . 7/9* 7 7 7 9*/. 7 . 7/. . 8"},
    {"Invaders - Add-on pack", 3, 4, ". 9*/7 7 7/8* . 8*"},
    {"Circumnavigation - Add-on pack", 3, 4, "7 7* 8/7* . 7/8 7 7*"},
    {"Beta sector - Basic map", 3, 5, "8 9* 8/8 9 8/8* 7 8*"},
    {"Beta sector - Add-on pack", 3, 5, "8* 9 8*/8 9 8/8 7* 8"},
    {"Space-time continuum", 3, 5, "7* 9 8/. 9 9 7*/7* 9 8"},
    {"Critical density", 3, 5, ". 8 9*/7 9* 8 7/. 8 9*"},
    {"Gravitational constant", 3, 5, "7* 9 9 9 7*/. . 9/. . 7*"},
    {"String theory", 3, 5, ". 8/8* 9 8*/. 7 9 8/. . 8*"},
    {"Pivot point - The Void", 3, 5, ". 9* 8/9* 0 9/8 9 7*"},
    {"Aperture", 3, 5, "7/. 9*/. 7 0/. 9* 7 9*/7 . . . 7"},
    {"Origin of thought", 3, 6, "8* 8 7/8 9 8 8*/7 8/. 8*"},
    {"Equinox", 3, 6, ". 7 . 7/7 8 9* 8 7/. 9* 8 9*/. . 7"},
    {"Ouroboros", 3, 6, "7 8 9* 7/8* . . 9/8 7 9* 8"},
    {"Quandary - The Void", 3, 6, "8 9*/8* 0 8 9/8 9*"},
    {"The empty center - The Void", 3, 6, "8* 8 9*/8 0 9/8 9* 8"},
    {"Infamous", 3, 6, "9 . 8* 7/. 0 . 7/8* . 9* 7/7 7 7"},
    {"Outer reaches", 3, 7, "8* 7 8 7/7 9 8 7*/8 8 9 8/7 7 8*"},
    {"Foundation", 3, 7, "8* 8 8 8 8*/. 9 7 9/. 8 8 8/. . 7*"},
    {"Edge of oblivion - The Void", 3, 7,
     ". 7* . 7*/. 8 9 8/8 9 0 9 8/. 8 9 8/. . 7*"},
    {"Crux", 3, 7, ". . 8*/. . 7/8* . 8 . 8*/7 8 0 8 7/. . 10"},
    {"Einstein-Rosen Bridge", 3, 7,
     ". 8 7* 8/. 7 . . 7/. 8 7* 8/7 . . 7/. 8 7* 8"},
    {"Lattice", 3, 7, "7 7 8* 7 7/. 8 . 8/7 8* 8 8* 7/. 7 . 7"},
    {"Eden - Add-on pack", 4, 4, "7 8* 7/8* 7 8*/7 8* 7"},
    {"Theoric limit - Add-on pack", 4, 4, "7* 7 . 7 7*/. 8 8 8/7* 7 . 7 7*"},
    {"Singularity", 4, 4, ". 10*/10* 9 10*/. 10*"},
    {"Gamma sector - Basic map", 4, 5, "9* 8 9*/8 10 8/8* 9 8*"},
    {"Supercollider - The Void", 4, 5, "10* . 10*/9 0 9/10* . 10*"},
    {"Bifurcation", 4, 5, ". . 9* 7/. . . 8 7 8*/8* 7 8/. . 7 9*"},
    {"Circumgyration", 4, 5, ". 9* 7/. 8 . 8 9*/7 . 0 . 7/9* 8 . 8/. . 7 9*"},
    {"Nexus", 4, 6, ". 8 9*/9* 7 10 8/8 10 7 9*/. 9* 8"},
    {"Spiral nebula", 4, 6, ". 9*/. 10 10 9*/9* 10 10/. . 9*"},
    {"Tesseract", 4, 6, ". . 7*/. 9 8 9/7* 8 10 8 7*/. 9 8 9/. . 7*"},
    {"Galactic rotation", 4, 6, ". . . 9*/9* 8 7 8/. 7 10 7/. 8 7 8 9*/. 9*"},
    {"The great expanse", 4, 6, "7* 7 8 8*/7 8 9 8/8 10 8 7/7* 8 7 7*"},
    {"Brownian motion - The Void", 4, 6, ". 7* 10 9 7*/7 9 0 10 7/8* 10 8 8*"},
    {"Aegis", 4, 6, ". 7 . 7/7 8* . 8* 7/9 . 0 . 9/7 8* . 8* 7/. 7 . 7"},
    {"Convergence (huge)", 4, 6,
     ". . 8 9 8/7* 7 9 0 9 7 7*/. . 7 . 7/. . 7* . 7*"},
    {"Event horizon (huge)", 4, 6,
     ". . . 7*/. . . 8/. . . 9/7* 8 9 10 9 8 7*/. . . 9/. . . 8/. . . 7*"},
    {"Barren empire", 4, 7,
     "8* 7 . 7 8*/7 8 9 8 7/. 9 . 9/7 8 9 8 7/8* 7 . 7 8*"},
    {"Doppler effect - The Void", 4, 7, "8* 9 10 8 7*/. 10 0 10/7* 8 10 9 8*"},
    {"Helix - The Void", 4, 7,
     "9 7 8*/7 . 9/8* 10 0 10 8*/. . 9 . 7/. . 8* 7 9"},
    {"Centripetal Arc (huge)", 4, 7,
     ". . 10/. . 9 8/. . . 7* . 9 10/. 8 7* 0 7* 8/10 9 . 7*/. . . 8 9/. . . . "
     "10"},
    {"Disunity", 4, 7, ". 10* 7/. . 8 . 8*/9* . 0 8 7/7 8 9/. . 7 8 7*"},
    {"Everything (huge)", 4, 7,
     ". 7 8 9 8 7/7 8 . 10* . 8 7/. 9 10* 0 10* 9/7 8 . 10* . 8 7/. 7 8 9 8 7"},
    {"Gordian knot (huge)", 4, 7,
     ". . 7* 7/. . . 8/7* . 10 10 8 7/7 8 10 10 . 7*/. . 8/. . 7 7*"},
    {"Interception", 4, 7, ". 7 8 7/7 8* . 9* 7/8 . 8 . 8/7 8* . 8* 7/. 7 8 7"},
    {"Race to Glory", 4, 7, ". 8 7*/7* 9 . . 7/. 8 0 10 9/7* 9 . . 7/. 8 7*"},
    {"Space Jelly (huge)", 4, 7,
     ". . 7 8 7/9 7 8* . 8* 7/8 . . . . 8/7 8* . 8* 7 9/. 7 8 7"},
    {"Tangled", 4, 7, ". 8* 8/8* . 8 7/7 9 0 9 7/. 7 8 . 8*/. . 8 8*"},
    {"Alpha Sector — 1st printing (2013 rulebook)", 2, 5,
     "7 7 7*/7 8 7/7* 8 7"},
    {"Beta Sector — 1st printing (2013 rulebook)", 3, 5,
     "7* 8 7*/8 9 8/8 7* 8"},
    {"Gamma Sector — 1st printing (2013 rulebook)", 4, 5,
     "8* 9 8*/8 10 8/9* 8 9*"},
};

#define QT_NMAPS ((int)(sizeof qt_maps / sizeof qt_maps[0]))

int qt_map_count(void)
{
	return QT_NMAPS;
}

const struct qt_map *qt_map_get(int i)
{
	return i >= 0 && i < QT_NMAPS ? &qt_maps[i] : NULL;
}

int qt_map_find(const char *name)
{
	for (int i = 0; i < QT_NMAPS; i++)
		if (strcmp(qt_maps[i].name, name) == 0)
			return i;
	return -1;
}

int qt_map_default(int seats)
{
	/* rules §14: Alpha, Beta ("Basic map", BGA naming), Gamma. */
	switch (seats) {
	case 2:
		return qt_map_find("Alpha sector - Basic map");
	case 3:
		return qt_map_find("Beta sector - Basic map");
	case 4:
		return qt_map_find("Gamma sector - Basic map");
	default:
		return -1;
	}
}

/* Reads one layout token at *p into *tile and *start; advances *p.
 * Returns 0 or -1. */
static int read_token(const char **p, uint8_t *tile, int *start)
{
	const char *s = *p;
	*start = 0;
	if (*s == '.') {
		*tile = QT_TILE_GAP;
		s++;
	} else if (*s == '0') {
		*tile = QT_TILE_VOID;
		s++;
	} else if (s[0] == '1' && s[1] == '0') {
		*tile = 10;
		s += 2;
	} else if (*s >= '7' && *s <= '9') {
		*tile = (uint8_t)(*s - '0');
		s++;
	} else {
		return -1;
	}
	if (*s == '*') {
		if (*tile < 7)
			return -1;
		*start = 1;
		s++;
	}
	*p = s;
	return 0;
}

static int add_planet(struct qt_board *b, int tr, int tc, int start)
{
	if (b->nplanets >= QT_MAX_PLANETS)
		return -1;
	struct qt_planet *pl = &b->planet[b->nplanets++];
	pl->at.r = (int8_t)(3 * tr + 1);
	pl->at.c = (int8_t)(3 * tc + 1);
	pl->number = b->tile[tr][tc];
	pl->start = (uint8_t)start;
	return 0;
}

static int decode(const struct qt_map *m, struct qt_board *b)
{
	memset(b, 0, sizeof *b);
	const char *p = m->layout;
	int tr = 0, tc = 0;
	for (;;) {
		if (tr >= QT_MAX_TILE_ROWS || tc >= QT_MAX_TILE_COLS)
			return -1;
		int start;
		if (read_token(&p, &b->tile[tr][tc], &start) < 0)
			return -1;
		if (b->tile[tr][tc] >= 7 && add_planet(b, tr, tc, start) < 0)
			return -1;
		tc++;
		if (tc > b->tile_cols)
			b->tile_cols = (uint8_t)tc;
		if (*p == ' ') {
			p++;
		} else if (*p == '/') {
			p++;
			tr++;
			tc = 0;
		} else if (*p == '\0') {
			break;
		} else {
			return -1;
		}
	}
	b->tile_rows = (uint8_t)(tr + 1);
	return 0;
}

int qt_board_decode(const struct qt_map *m, struct qt_board *out)
{
	struct qt_board b;
	if (decode(m, &b) < 0)
		return -1;
	*out = b; /* written only on success */
	return 0;
}

void qt_board_open_bits(const struct qt_board *b, struct qt_bits *out)
{
	memset(out, 0, sizeof *out);
	for (int tr = 0; tr < b->tile_rows; tr++)
		for (int tc = 0; tc < b->tile_cols; tc++) {
			uint8_t t = b->tile[tr][tc];
			if (t == QT_TILE_GAP)
				continue;
			uint32_t three = 7u << 3 * tc;
			out->row[3 * tr] |= three;
			out->row[3 * tr + 2] |= three;
			/* a planet's centre square is not open (rules §2) */
			out->row[3 * tr + 1] |=
			    t >= 7 ? three & ~(2u << 3 * tc) : three;
		}
}

int qt_board_is_void(const struct qt_board *b, int r, int c)
{
	return qt_board_exists(b, r, c) &&
	       b->tile[r / 3][c / 3] == QT_TILE_VOID;
}

int qt_board_planet_at(const struct qt_board *b, int r, int c)
{
	for (int i = 0; i < b->nplanets; i++)
		if (b->planet[i].at.r == r && b->planet[i].at.c == c)
			return i;
	return -1;
}

int qt_board_orbit_of(const struct qt_board *b, int r, int c)
{
	if (!qt_board_exists(b, r, c))
		return -1;
	/* Orbital squares are the tile's edge midpoints (rules §2). */
	int dr = r % 3, dc = c % 3;
	if ((dr == 1) == (dc == 1))
		return -1;
	return qt_board_planet_at(b, r - dr + 1, c - dc + 1);
}

void qt_board_orbitals(const struct qt_board *b, int p, struct qt_sq out[4])
{
	struct qt_sq at = b->planet[p].at;
	out[0] = (struct qt_sq){(int8_t)(at.r - 1), at.c};
	out[1] = (struct qt_sq){(int8_t)(at.r + 1), at.c};
	out[2] = (struct qt_sq){at.r, (int8_t)(at.c - 1)};
	out[3] = (struct qt_sq){at.r, (int8_t)(at.c + 1)};
}

int qt_board_cube_locations(const struct qt_board *b)
{
	int n = 0;
	for (int i = 0; i < b->nplanets; i++)
		n += b->planet[i].number - 6;
	return n;
}

int qt_board_void_tiles(const struct qt_board *b)
{
	int n = 0;
	for (int tr = 0; tr < b->tile_rows; tr++)
		for (int tc = 0; tc < b->tile_cols; tc++)
			n += b->tile[tr][tc] == QT_TILE_VOID;
	return n;
}

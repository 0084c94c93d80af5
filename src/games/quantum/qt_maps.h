/* qt_maps.h: the Quantum maps (rules §11) and board geometry (rules §2).
 *
 * Every map is a const table entry: its name exactly as rules §11 writes it
 * (BGA name, or the §11.3 heading for the three first-printing basic maps),
 * the seat count, the cubes per player and the tile layout in §11's
 * notation: tile rows separated by '/', tokens separated by one space,
 * "7".."10" a planet tile, a trailing '*' a starting planet, "0" a Void
 * tile, "." no tile (gap); a short row is padded with gaps on the right.
 *
 * qt_board_decode() turns a layout into a struct qt_board, a flat value the
 * game state embeds.  The geometry helpers below work on that value.
 * Nothing here allocates; every pointer returned is borrowed and static.
 */
#ifndef QT_MAPS_H
#define QT_MAPS_H

#include <stdint.h>

#define QT_MAX_TILE_ROWS 7 /* widest BGA map: 7x7 tiles (rules §11.2) */
#define QT_MAX_TILE_COLS 7
#define QT_MAX_ROWS      21 /* squares: 3 per tile */
#define QT_MAX_COLS      21
#define QT_MAX_PLANETS   24 /* "Everything (huge)" has 24 planets */
#define QT_TILE_GAP      0  /* no tile: its squares do not exist */
#define QT_TILE_VOID     1  /* Void tile: 9 empty squares (rules §8) */

/* One map of rules §11. */
struct qt_map {
	const char *name;   /* exactly as in rules §11 */
	uint8_t seats;      /* 2..4 */
	uint8_t cubes;      /* quantum cubes per player, 4..7 */
	const char *layout; /* tile rows in §11 notation, see above */
};

/* A square in rules §2 coordinates. */
struct qt_sq {
	int8_t r; /* row, 0..3*tile_rows-1 */
	int8_t c; /* column, 0..3*tile_cols-1 */
};

/* One planet of a decoded board. */
struct qt_planet {
	struct qt_sq at; /* its centre square (3tr+1, 3tc+1) */
	uint8_t number;  /* 7..10; cube locations = number - 6 */
	uint8_t start;   /* 1 if a starting planet ('*') */
};

/* A decoded map: a flat value, copied with memcpy. */
struct qt_board {
	uint8_t tile_rows; /* 1..QT_MAX_TILE_ROWS */
	uint8_t tile_cols; /* 1..QT_MAX_TILE_COLS */
	/* QT_TILE_GAP, QT_TILE_VOID or a planet number 7..10 */
	uint8_t tile[QT_MAX_TILE_ROWS][QT_MAX_TILE_COLS];
	uint8_t nplanets; /* 0..QT_MAX_PLANETS */
	/* planets in row-major tile order */
	struct qt_planet planet[QT_MAX_PLANETS];
};

/* A set of squares as bit rows: bit c of row[r] is square (r,c).  A flat
 * value for searches over the board (qt_move.c); rows and columns past
 * the board are 0. */
struct qt_bits {
	uint32_t row[QT_MAX_ROWS];
};
_Static_assert(QT_MAX_COLS <= 32, "a board row fits a uint32_t");

/* Number of maps in the table (71 BGA maps + 3 first-printing maps). */
int qt_map_count(void);

/* Map i (0 <= i < qt_map_count()), or NULL.  Borrowed, static. */
const struct qt_map *qt_map_get(int i);

/* Index of the map named exactly `name`, or -1. */
int qt_map_find(const char *name);

/* The default map for a seat count (rules §14), as an index, or -1. */
int qt_map_default(int seats);

/* Decodes m's layout into *b.  Returns 0, or -1 if the layout is malformed
 * (then *b is untouched). */
int qt_board_decode(const struct qt_map *m, struct qt_board *b);

/* Board rows and columns in squares. */
static inline int qt_board_rows(const struct qt_board *b)
{
	return 3 * b->tile_rows;
}
static inline int qt_board_cols(const struct qt_board *b)
{
	return 3 * b->tile_cols;
}

/* 1 if (r,c) is a square of the board: inside the grid and not on a gap. */
static inline int qt_board_exists(const struct qt_board *b, int r, int c)
{
	if (r < 0 || c < 0 || r >= qt_board_rows(b) || c >= qt_board_cols(b))
		return 0;
	return b->tile[r / 3][c / 3] != QT_TILE_GAP;
}

/* 1 if (r,c) is a square a ship may stand on: it exists and is no planet. */
static inline int qt_board_open(const struct qt_board *b, int r, int c)
{
	if (!qt_board_exists(b, r, c))
		return 0;
	return !(r % 3 == 1 && c % 3 == 1 && b->tile[r / 3][c / 3] >= 7);
}

/* Writes into *out the squares a ship may stand on (qt_board_open). */
void qt_board_open_bits(const struct qt_board *b, struct qt_bits *out);

/* 1 if sq is in the set *bits (0 off the grid). */
static inline int qt_bits_has(const struct qt_bits *bits, struct qt_sq sq)
{
	return sq.r >= 0 && sq.r < QT_MAX_ROWS && sq.c >= 0 &&
	       sq.c < QT_MAX_COLS && (bits->row[sq.r] >> sq.c & 1);
}

/* Adds sq (on the grid) to / removes it from the set *bits. */
static inline void qt_bits_add(struct qt_bits *bits, struct qt_sq sq)
{
	bits->row[sq.r] |= 1u << sq.c;
}
static inline void qt_bits_del(struct qt_bits *bits, struct qt_sq sq)
{
	bits->row[sq.r] &= ~(1u << sq.c);
}

/* 1 if (r,c) lies on a Void tile (rules §8). */
int qt_board_is_void(const struct qt_board *b, int r, int c);

/* Index of the planet whose centre is (r,c), or -1. */
int qt_board_planet_at(const struct qt_board *b, int r, int c);

/* Index of the planet that (r,c) is an orbital position of, or -1
 * (rules §2: the 4 orthogonal neighbours of a planet). */
int qt_board_orbit_of(const struct qt_board *b, int r, int c);

/* The 4 orbital positions of planet p, in the order of rules §2:
 * above, below, left, right. */
void qt_board_orbitals(const struct qt_board *b, int p, struct qt_sq out[4]);

/* Total cube locations on the board: sum of (number - 6). */
int qt_board_cube_locations(const struct qt_board *b);

/* Number of Void tiles. */
int qt_board_void_tiles(const struct qt_board *b);

/* 1 if a and b are orthogonal neighbours ("adjacent", rules §2). */
static inline int qt_sq_adjacent(struct qt_sq a, struct qt_sq b)
{
	int dr = a.r - b.r, dc = a.c - b.c;
	return (dr == 0 && (dc == 1 || dc == -1)) ||
	       (dc == 0 && (dr == 1 || dr == -1));
}

/* 1 if a and b are among each other's 8 neighbours ("surrounding"). */
static inline int qt_sq_surrounding(struct qt_sq a, struct qt_sq b)
{
	int dr = a.r - b.r, dc = a.c - b.c;
	return (dr | dc) != 0 && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1;
}

/* 1 if a and b are the same square. */
static inline int qt_sq_eq(struct qt_sq a, struct qt_sq b)
{
	return a.r == b.r && a.c == b.c;
}

#endif

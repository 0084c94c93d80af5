/* qt_json.h: the Quantum module's JSON edge, shared by its four files
 * (qt_codec.c, qt_options.c, qt_view.c, qt_json.c).  Internal to the
 * module; the engine sees only `qt_rules` (quantum.h).  JSON ownership as
 * in engine.h. */
#ifndef QT_JSON_H
#define QT_JSON_H

#include <jansson.h>

#include "qt.h"

/* ---- qt_codec.c: actions ---- */

/* Parses an action object as clients post it, strictly: a known "type"
 * and exactly the fields of one of its shapes (optional fields aside).
 * Writes all of *a (zeroed first).  Returns 0, or BD_EILLEGAL with *why. */
int qt_action_from_json(const json_t *j, struct qt_action *a,
                        struct rules_why *why);

/* The action object clients see and post.  New reference. */
json_t *qt_action_to_json(const struct qt_action *a);

/* Small readers of one JSON value: 0 on success, -1 on a bad value
 * (*out untouched).  An integer in [lo, hi]; a square [row, col] of
 * integers; a card name (qt_card_find). */
int qt_read_int(const json_t *v, int lo, int hi, int *out);
int qt_read_sq(const json_t *v, struct qt_sq *out);
int qt_read_card(const json_t *v, uint8_t *out);

/* A square as [row, col].  New reference. */
json_t *qt_sq_json(struct qt_sq sq);

/* The catalog's "actions": [{"type","rule","fields":{name: kind}}].  New
 * reference. */
json_t *qt_catalog_actions(void);

/* ---- qt_options.c: options and custom setups ---- */

/* The printings of rules §9.4 and §14 as option words, in enum order,
 * NULL-terminated; index 0 is the default. */
extern const char *const qt_two_printings[];
extern const char *const qt_curious_printings[];

/* Reads the options object o (borrowed) for `seats` seats into *out.
 * Returns 0, or BD_EBADOPTIONS with *why. */
int qt_read_options(const json_t *o, int seats, struct qt_options *out,
                    struct rules_why *why);

/* Reads a custom setup object j (borrowed) into *cu.  Returns 0, or
 * BD_EBADSETUP with *why. */
int qt_read_custom(const json_t *j, int seats, struct qt_custom *cu,
                   struct rules_why *why);

/* ---- qt_view.c: views (struct rules view and move_view) ---- */

json_t *qt_view_json(const void *state, int viewer, int over);
json_t *qt_move_view_json(const void *after, const void *now, int actor,
                          const json_t *action, int viewer, int over);

/* struct rules' move_outcome (docs/history.md): every die the move rolled,
 * in roll order ({"for","seat","ship","value"}: "attack" and "defend" are
 * a battle's combat dice, first and re-rolled, §6.1, §14; "ship" a ship's
 * new number; "first_player" a roll-off, §3.4), and the cards it turned
 * face up into the rows ({"row","card"}, §9.1).  All public at once. */
json_t *qt_move_outcome_json(const void *after, int actor, int viewer,
                             int over);

#endif

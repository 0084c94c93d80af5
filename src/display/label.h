/* label.h: display text for listed actions (issue 12).
 *
 * A label is made from two things only: the action as listed and the
 * listing seat's own view (what GET /v1/games/{id} shows that seat).
 * Both are already redacted for that seat, so a label can never say
 * more than the seat may know, and two games that differ only in what
 * the seat cannot see give the same labels (tests/http/test_display.py).
 *
 * Texts come from the message catalogs (i18n.h): the key of an action
 * is GAME.action.TYPE then, in name order, ".FIELD" for each field it
 * holds (".FIELD=VALUE" for the fields a game names as choices, ".!F"
 * for a false boolean); flags that only modify an action (Quantum's
 * cunning, curious) are not in the key but add the text of
 * GAME.flag.FLAG.  Placeholders are the field names, rendered for the
 * game (a card id as its name, a Quantum ship as "ship 2 (frigate, 4)").
 */
#ifndef BD_DISPLAY_LABEL_H
#define BD_DISPLAY_LABEL_H

#include <jansson.h>
#include <stddef.h>

/* Sets "label" (a string in language `lang`, i18n.h) on every action
 * object of `actions` (an array, borrowed, changed in place), the
 * actions of `seat` in a game of rules `game` (its catalog id) whose
 * view by that seat is `view` (borrowed).  An action with no text in
 * the catalogs gets its type as label.  0, or BD_ENOMEM (then some
 * actions may be labelled and others not). */
int display_label_actions(size_t lang, const char *game, const json_t *view,
                          int seat, json_t *actions);

/* GET /v1/catalog's entry of rules `game` (borrowed object, changed in
 * place) in language `lang`: every card gets "name" and "text" (Agent
 * Avenue agents and black-market cards, Quantum command and gambit cards
 * with "printings" texts where printings differ), every option of its
 * "options" "name" and, for one with a list of "values" or a boolean,
 * "value_names" (value: words; PREFIX.option.NAME.name and
 * PREFIX.option.NAME.value.VALUE), and Quantum's entry "ships": the ship
 * type of each die value.  0 or BD_ENOMEM. */
int display_catalog_entry(size_t lang, const char *game, json_t *entry);

#endif

/* conffile.h: boardd's configuration file (main.c's --config), read
 * strictly.  Its manual.
 *
 * The format: one setting a line, `name = value`, where name is a
 * command-line flag's long name without the dashes (`port = 8080` for
 * `--port 8080`) and value is the rest of the line with the blanks
 * around it removed (it may hold blanks and `=`: `db = host=db1
 * dbname=boardd`).  A switch (a flag without a value, such as --quiet)
 * takes `true` or `false`.  Blank lines and lines whose first non-blank
 * character is `#` are ignored; `#` elsewhere is part of the value.  A
 * name may appear once.  The file is UTF-8 text of at most
 * CONFFILE_MAX bytes with no NUL.
 *
 * Anything else is refused, with a sentence naming the file and the
 * line: a line without `=`, an empty name or value, a name that is no
 * setting (the caller's `kind` says which are), a name given twice, a
 * switch whose value is not true/false.  Values are not checked here:
 * main.c checks them as it checks the flags' and the environment's. */
#ifndef BD_CONFFILE_H
#define BD_CONFFILE_H

#include <stddef.h>

#define CONFFILE_MAX (64 * 1024) /* bytes: larger files are refused */

/* What a name is, as the caller's `kind` callback says. */
enum conffile_kind {
	CONFFILE_UNKNOWN = 0, /* no such setting: the file is refused */
	CONFFILE_VALUE = 1,   /* a setting with a value */
	CONFFILE_SWITCH = 2,  /* true or false; read back as "1" or "0" */
};

struct conffile; /* opaque: the settings of one reading of one file */

/* Reads the file at `path` (borrowed) and returns its settings in *out
 * (owned by the caller: conffile_free).  kind(name) classifies each
 * name.  0, or -1 with a sentence in err (errlen bytes), such as
 * "/etc/boardd/boardd.conf:7: unknown setting \"prot\"", and *out
 * untouched; a file that cannot be read, or is too large, is refused
 * the same way.  Never reports an allocation failure as a bad file: it
 * then says "out of memory". */
int conffile_read(const char *path,
                  enum conffile_kind (*kind)(const char *name),
                  struct conffile **out, char *err, size_t errlen);

/* The value of setting `name` in f (borrowed, NUL-terminated, valid
 * until conffile_free(f)): for a switch "1" or "0"; NULL when f does not
 * set it or f is NULL. */
const char *conffile_get(const struct conffile *f, const char *name);

/* The number of settings in f (0 for NULL), and the name and value of
 * the i-th, in the file's order (i < conffile_count); the strings are
 * borrowed like conffile_get's. */
size_t conffile_count(const struct conffile *f);
const char *conffile_name(const struct conffile *f, size_t i);
const char *conffile_value(const struct conffile *f, size_t i);

/* The file's path as given to conffile_read (borrowed from f). */
const char *conffile_path(const struct conffile *f);

/* Frees f and its strings; NULL is fine. */
void conffile_free(struct conffile *f);

#endif

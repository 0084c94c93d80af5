/* migrations.h: the schema files of sql/ (SQLite) and sql/postgres/
 * (PostgreSQL), embedded at build time by tools/embed.sh.  Applied in
 * order by store_open. */
#ifndef BD_MIGRATIONS_H
#define BD_MIGRATIONS_H

#include <stddef.h>

struct store_migration {
	int version;      /* NNNN of sql/NNNN_name.sql, dense from 1 */
	const char *name; /* file name, for error messages */
	const char *sql;  /* the file's text, NUL-terminated */
};

extern const struct store_migration store_migrations[];
extern const size_t store_migrations_count;
extern const struct store_migration store_pg_migrations[];
extern const size_t store_pg_migrations_count;

#endif

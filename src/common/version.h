/* version.h: what this binary is, baked in at build time by the Makefile
 * ($(BUILD)/gen/version.c): `boardd --version` and /metrics'
 * boardd_build_info show both. */
#ifndef BD_VERSION_H
#define BD_VERSION_H

/* The release, "1.0.0" (the Makefile's VERSION).  Static. */
extern const char boardd_version[];

/* The git commit built, 12 hex digits, with "-dirty" when the tree had
 * uncommitted changes; "unknown" when built without git.  Static; only
 * [0-9a-z-], so it needs no escaping in a metric's label. */
extern const char boardd_commit[];

#endif

/* keyfile.h: the server key, kept in a file of its own beside the
 * database (main.c's --secret-key), so that a copy of the database alone
 * does not yield what the key seals (webhook signing secrets: store.h,
 * store_config.secret_key). */
#ifndef BD_KEYFILE_H
#define BD_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

/* Reads the `len`-byte key of the file at `path` into key[0..len).  When
 * no file is there, creates it first (O_EXCL, mode 0600, whatever the
 * umask) with len random bytes (libsodium's randombytes) and syncs it
 * and its directory.  Refuses a file that is not exactly len bytes, is
 * not a regular file, or that its group or others may read or write
 * (chmod 600 it).  0 when the file was there, KEYFILE_CREATED when this
 * call made it (the caller removes it again if the key turns out not to
 * be its database's: main.c), or -1 with a sentence in err (errlen
 * bytes). */
#define KEYFILE_CREATED 1

int keyfile_load(const char *path, uint8_t *key, size_t len, char *err,
                 size_t errlen);

#endif

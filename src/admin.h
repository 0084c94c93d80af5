/* admin.h: `boardd admin …`, the operator's commands against a database
 * a server may be running on (docs/operations.md, "Admin commands"). */
#ifndef BD_ADMIN_H
#define BD_ADMIN_H

/* Runs `boardd admin ARGS`: argv[0] is "admin", argv[1..argc) the flags
 * and the command.  Prints to stdout (a person's lines, or one JSON
 * document with --json) and errors to stderr.  Returns the process's
 * exit status: 0 done, 1 refused or failed (nothing changed), 2 a usage
 * error. */
int admin_main(int argc, char **argv);

#endif

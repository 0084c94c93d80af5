/* conffile.c: the configuration file, read strictly (conffile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conffile.h"

struct setting {
	const char *name, *value; /* into the file's buffer */
};

struct conffile {
	char *path; /* owned copy */
	char *text; /* owned: the file, cut into names and values */
	struct setting *v;
	size_t n;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* s without its leading and trailing blanks, cut in place. */
static char *trim(char *s)
{
	while (is_blank(*s))
		s++;
	size_t n = strlen(s);
	while (n && is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* The file's bytes, NUL-terminated, in *text (malloc'd), or -1 with a
 * sentence in err. */
static int slurp(const char *path, char **text, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: cannot read the config file: %s",
		         path, strerror(errno));
		return -1;
	}
	char *buf = malloc(CONFFILE_MAX + 1);
	if (!buf) {
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	size_t n = fread(buf, 1, CONFFILE_MAX + 1, f);
	int failed = ferror(f);
	fclose(f);
	if (failed || n > CONFFILE_MAX || memchr(buf, '\0', n)) {
		snprintf(err, errlen,
		         failed ? "%s: cannot read the config file"
		         : n > CONFFILE_MAX
		             ? "%s: the config file is larger than 64 KiB"
		             : "%s: the config file holds a NUL byte: not text",
		         path);
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	*text = buf;
	return 0;
}

/* Reads one line (cut at its end, in place) into f, or -1 with a
 * sentence in err. */
static int read_line(struct conffile *f, char *line, int no,
                     enum conffile_kind (*kind)(const char *), char *err,
                     size_t errlen)
{
	char *s = trim(line);
	if (!*s || *s == '#')
		return 0;
	char *eq = strchr(s, '=');
	if (!eq) {
		snprintf(err, errlen,
		         "%s:%d: not a setting (expected name = value): %.60s",
		         f->path, no, s);
		return -1;
	}
	*eq = '\0';
	char *name = trim(s), *value = trim(eq + 1);
	if (!*name || !*value) {
		snprintf(err, errlen, "%s:%d: %s", f->path, no,
		         !*name ? "a setting without a name"
		                : "a setting without a value");
		return -1;
	}
	enum conffile_kind k = kind(name);
	if (k == CONFFILE_UNKNOWN) {
		snprintf(err, errlen,
		         "%s:%d: unknown setting \"%.60s\" (the names are the "
		         "flags' long names without the dashes: boardd --help)",
		         f->path, no, name);
		return -1;
	}
	if (conffile_get(f, name)) {
		snprintf(err, errlen, "%s:%d: \"%s\" is set twice", f->path, no,
		         name);
		return -1;
	}
	if (k == CONFFILE_SWITCH) {
		if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
			snprintf(
			    err, errlen,
			    "%s:%d: \"%s\" is a switch: true or false, not "
			    "\"%.40s\"",
			    f->path, no, name, value);
			return -1;
		}
		value = strcmp(value, "true") == 0 ? "1" : "0";
	}
	f->v[f->n++] = (struct setting){name, value};
	return 0;
}

int conffile_read(const char *path,
                  enum conffile_kind (*kind)(const char *name),
                  struct conffile **out, char *err, size_t errlen)
{
	struct conffile *f = calloc(1, sizeof *f);
	if (!f || !(f->path = strdup(path))) {
		free(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (slurp(path, &f->text, err, errlen) < 0) {
		conffile_free(f);
		return -1;
	}
	size_t lines = 1;
	for (const char *p = f->text; *p; p++)
		lines += *p == '\n';
	f->v = calloc(lines, sizeof *f->v);
	if (!f->v) {
		conffile_free(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	char *line = f->text;
	for (int no = 1; line; no++) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (read_line(f, line, no, kind, err, errlen) < 0) {
			conffile_free(f);
			return -1;
		}
		line = nl ? nl + 1 : NULL;
	}
	*out = f;
	return 0;
}

const char *conffile_get(const struct conffile *f, const char *name)
{
	for (size_t i = 0; f && i < f->n; i++)
		if (strcmp(f->v[i].name, name) == 0)
			return f->v[i].value;
	return NULL;
}

size_t conffile_count(const struct conffile *f)
{
	return f ? f->n : 0;
}

const char *conffile_name(const struct conffile *f, size_t i)
{
	return f->v[i].name;
}

const char *conffile_value(const struct conffile *f, size_t i)
{
	return f->v[i].value;
}

const char *conffile_path(const struct conffile *f)
{
	return f->path;
}

void conffile_free(struct conffile *f)
{
	if (!f)
		return;
	free(f->v);
	free(f->text);
	free(f->path);
	free(f);
}

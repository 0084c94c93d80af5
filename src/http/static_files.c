/* static_files.c: finds the embedded web client file of a request path
 * (static_files.h). */
#include <string.h>

#include "static_files.h"

const struct static_file *static_file_find(const char *path)
{
	if (strcmp(path, "/") == 0)
		path = "/index.html";
	for (size_t i = 0; i < static_files_count; i++)
		if (strcmp(static_files[i].path, path) == 0)
			return &static_files[i];
	return NULL;
}

/* process.c: this process's CPU, memory, descriptors and start time from
 * /proc/self (process.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "process.h"

/* The boot time, unix seconds: /proc/stat's "btime" line; -1 if none. */
static double boot_time(void)
{
	FILE *f = fopen("/proc/stat", "re");
	if (!f)
		return -1;
	char line[256];
	double t = -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "btime ", 6) == 0) {
			t = strtod(line + 6, NULL);
			break;
		}
	fclose(f);
	return t;
}

/* The descriptors open now: /proc/self/fd's entries but the one that
 * reads it.  -1 if it cannot be read. */
static double count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	double n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n > 0 ? n - 1 : 0;
}

int process_read(struct process_stats *out)
{
	*out = (struct process_stats){-1, -1, -1, -1, -1, -1};
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		out->max_fds = (double)rl.rlim_cur;
	out->open_fds = count_fds();
	/* proc(5): /proc/self/stat is "pid (comm) state ..." where comm may
	 * hold spaces and parentheses: the fields are read after the last
	 * ')'.  Counted from there (state is field 3): utime 14, stime 15,
	 * starttime 22 (clock ticks after boot), vsize 23 (bytes), rss 24
	 * (pages). */
	FILE *f = fopen("/proc/self/stat", "re");
	if (!f)
		return -1;
	char buf[1024];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	double field[25] = {0};
	char *save = NULL;
	int i = 3;
	for (char *t = strtok_r(p + 1, " \n", &save); t && i < 25;
	     t = strtok_r(NULL, " \n", &save), i++)
		field[i] = strtod(t, NULL);
	if (i < 25)
		return -1;
	double ticks = (double)sysconf(_SC_CLK_TCK);
	double page = (double)sysconf(_SC_PAGESIZE);
	if (ticks <= 0 || page <= 0)
		return -1;
	out->cpu_seconds = (field[14] + field[15]) / ticks;
	out->virtual_bytes = field[23];
	out->resident_bytes = field[24] * page;
	double boot = boot_time();
	if (boot >= 0)
		out->start_time_seconds = boot + field[22] / ticks;
	return 0;
}

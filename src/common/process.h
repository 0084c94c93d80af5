/* process.h: what the kernel says of this process, for the standard
 * process_* metrics every Prometheus client library exports
 * (https://prometheus.io/docs/instrumenting/writing_clientlibs/, "Process
 * metrics").  Its manual.
 *
 * Read from Linux's /proc (proc(5)) on each call, nothing kept.
 * Thread-safe. */
#ifndef BD_PROCESS_H
#define BD_PROCESS_H

struct process_stats {
	double cpu_seconds;        /* user + system CPU time, all threads */
	double resident_bytes;     /* resident set size */
	double virtual_bytes;      /* virtual memory size */
	double open_fds;           /* open file descriptors */
	double max_fds;            /* the soft RLIMIT_NOFILE; -1: unlimited */
	double start_time_seconds; /* when the process started, unix s */
};

/* Fills *out.  0, or -1 when /proc could not be read (a value it could
 * not read is then -1; max_fds -1 may also mean unlimited). */
int process_read(struct process_stats *out);

#endif

-- report.lua: wrk's done() hook for tests/bench.sh.  Prints one line,
--   WRK <requests/s> <p50 latency, us> <p99 latency, us> <errors>
-- where errors counts failed connects, reads, writes, timeouts and
-- answers with a status of 400 or more.
done = function(summary, latency, requests)
	local e = summary.errors
	local errors = e.connect + e.read + e.write + e.status + e.timeout
	io.write(string.format("WRK %.1f %.0f %.0f %d\n",
		summary.requests / (summary.duration / 1e6),
		latency:percentile(50), latency:percentile(99), errors))
end

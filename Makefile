# boardd: a play-by-turn board game server.  See README.md.
#
#   make run     install missing packages, build, start on 127.0.0.1:8080
#   make test    install missing packages, build with ASan+UBSan (and
#                UBSan alone for the SQLite pass of the HTTP suites), run
#                every test; the last line is "N passed, N failed"
#   make test-asan  the same with both HTTP passes under ASan+UBSan
#   make bench   throughput figures (never asserted)
#   make bots-eval  bots against each other, win rates (never asserted)
#   make         release build only (build/release/boardd)

CC      ?= cc
# Every folder of src/games is a game (its rules module; registry.c lists
# the modules): nothing else here names a game.
GAMES   := $(notdir $(patsubst %/,%,$(wildcard src/games/*/)))
CFLAGS_COMMON := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Isrc -MMD -MP \
	-I/usr/include/postgresql
LDLIBS  = -lsystemd -lmicrohttpd -lqrencode -ljansson -lsqlite3 -lpq -lsodium -lcrypto -lcurl -lz -lbrotlienc -licui18n -licuuc -licudata \
	-lpthread -lm \
	$(MALLOC_LIB)

# The house flags of a build; a CFLAGS of the caller's (environment or
# command line) comes after them, so it can add to them but never silently
# drop the sanitizers from make test.
SANITIZER ?=
ifeq ($(SANITIZER),)
BUILD   ?= build/release
HOUSE_CFLAGS := -O2 -g
# jemalloc (Debian's libjemalloc-dev) instead of glibc's allocator: glibc's
# malloc and free were about 19% of a durable move's server CPU, and the
# moves figure rose 15% with it (tests/README.md, "the allocator").  Not in
# the sanitizer builds: they bring their own allocator.
MALLOC_LIB := -ljemalloc
else
BUILD   ?= build/$(subst $(comma),-,$(SANITIZER))
HOUSE_CFLAGS := -O1 -g -fsanitize=$(SANITIZER) -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZER)
endif
comma := ,

LIB_SRC := $(wildcard src/common/*.c src/engine/*.c src/store/*.c \
	src/service/*.c src/http/*.c src/bot/*.c src/hooks/*.c src/push/*.c \
	src/display/*.c src/rating/*.c) \
	$(foreach g,$(GAMES),$(wildcard src/games/$(g)/*.c))
GEN_SRC := $(BUILD)/gen/migrations.c $(BUILD)/gen/pg_migrations.c \
	$(BUILD)/gen/openapi.c $(BUILD)/gen/i18n.c \
	$(BUILD)/gen/web.c $(BUILD)/gen/version.c $(BUILD)/gen/rules.c
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(GEN_SRC:.c=.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
TESTS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

.PHONY: FORCE all deps run test test-asan unit-build http-build bench bots-eval fuzz fuzz-deps valgrind tsan kill-loop kill-loop-clocks attack-webhooks clean format lint
all: $(BUILD)/boardd $(BUILD)/verify-record

deps:
	@./tools/deps.sh

$(BUILD)/boardd: $(BUILD)/src/main.o $(BUILD)/src/admin.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# tools/verify-record: checks a record on its own (docs/records.md) with
# the engine and the rules modules only.
RULES_OBJ := $(filter $(BUILD)/src/engine/% $(BUILD)/src/games/% \
	$(BUILD)/src/common/%,$(LIB_OBJ))
$(BUILD)/verify-record: $(BUILD)/tools/verify-record/verify_record.o $(RULES_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOUSE_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(CFLAGS_COMMON) $(HOUSE_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/gen/migrations.c: $(sort $(wildcard sql/*.sql)) tools/embed.sh
	@mkdir -p $(dir $@)
	./tools/embed.sh migrations $(sort $(wildcard sql/*.sql)) > $@

# The PostgreSQL backend's own schema (src/store/driver_pg.c).
$(BUILD)/gen/pg_migrations.c: $(sort $(wildcard sql/postgres/*.sql)) tools/embed.sh
	@mkdir -p $(dir $@)
	./tools/embed.sh pg-migrations $(sort $(wildcard sql/postgres/*.sql)) > $@

# One message catalog per language (i18n/TAG.json; src/display/i18n.h):
# a new file is a new language, with no code change.
$(BUILD)/gen/i18n.c: $(sort $(wildcard i18n/*.json)) tools/embed.sh
	@mkdir -p $(dir $@)
	./tools/embed.sh languages $(sort $(wildcard i18n/*.json)) > $@

# The reference web client (web/: plain HTML, CSS, JavaScript modules),
# served at / (src/http/static_files.h); web/README.md is for people
# reading the source, neither embedded nor served.
WEB_FILES := $(sort $(filter-out web/README.md,$(wildcard web/*)))
$(BUILD)/gen/web.c: $(WEB_FILES) tools/embed.sh
	@mkdir -p $(dir $@)
	./tools/embed.sh files $(WEB_FILES) > $@

# The rules of each game (docs/rules/NAME.md) as HTML pages, converted by
# cmark-gfm (tools/rules.sh) and served at /rules/NAME, listed at /rules.
RULES_MD := $(sort $(filter-out docs/rules/README.md,$(wildcard docs/rules/*.md)))
$(BUILD)/gen/rules.c: $(RULES_MD) tools/rules.sh tools/embed.sh
	@rm -rf $(BUILD)/gen/rules
	./tools/rules.sh $(BUILD)/gen/rules $(RULES_MD)
	./tools/embed.sh rules $(BUILD)/gen/rules/*.html > $@

# The version and the commit `boardd --version` prints and /metrics shows
# (boardd_build_info; src/common/version.h).  VERSION is the release's;
# the commit is git's (12 hex digits, "-dirty" with uncommitted changes),
# "unknown" when there is no git or no repository (a release tarball).
# Written at every make, replaced only when it changed, so a build of
# the same commit recompiles nothing.
VERSION ?= 1.0.0
$(BUILD)/gen/version.c: FORCE
	@mkdir -p $(dir $@)
	@c=$$(git rev-parse --short=12 HEAD 2>/dev/null) || c=unknown; \
	[ -z "$$c" ] && c=unknown; \
	[ "$$c" != unknown ] && ! git diff --quiet HEAD -- 2>/dev/null && \
		c="$$c-dirty"; \
	printf '%s\n' '/* made by the Makefile: do not edit */' \
		'#include "common/version.h"' \
		'const char boardd_version[] = "$(VERSION)";' \
		"const char boardd_commit[] = \"$$c\";" > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
FORCE:

$(BUILD)/gen/openapi.c: openapi/openapi.yaml tools/embed.sh
	@mkdir -p $(dir $@)
	./tools/embed.sh blob openapi_yaml $< > $@

# Random games per Quantum map in its unit test: enough for make test to
# stay within minutes under ASan; raise it for a long run.
QT_TEST_GAMES_PER_MAP ?= 4
# The rule cases' runner reads tests/cases/ of this tree wherever it runs.
$(BUILD)/tests/test_cases: CFLAGS += -DBD_CASES_DIR='"$(CURDIR)/tests/cases"'
$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOUSE_CFLAGS) $(CFLAGS) $(LDFLAGS) -Itests/unit \
		-DQT_TEST_GAMES_PER_MAP=$(QT_TEST_GAMES_PER_MAP) \
		-o $@ $(filter %.c %.o,$^) $(LDLIBS)

# The rating oracle suite's program (tests/rating/run.sh): src/rating
# behind a line protocol, compared with npm's glicko2 and openskill.
$(BUILD)/rating/rating_cli: tests/rating/rating_cli.c $(filter $(BUILD)/src/rating/%,$(LIB_OBJ))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOUSE_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm

# Fuzzing (clang libFuzzer + ASan/UBSan), time-bounded: FUZZ_TIME seconds
# per target.  Corpora grow in build/fuzz/corpus-<target>, seeded from
# tests/fuzz/seeds/<target>; crashes land in build/fuzz/.  A target's extra
# libFuzzer flags, if any, are in tests/fuzz/<target>.flags.
FUZZ_TIME ?= 60
# actions_<game>: one engine target per game (seeds in seeds/actions).
FUZZ_TARGETS := $(GAMES:%=actions_%) setup http
FUZZ_SRC := src/common/why.c src/engine/game.c src/engine/rng.c \
	src/engine/registry.c \
	$(foreach g,$(GAMES),$(wildcard src/games/$(g)/*.c))
FUZZ_CC := clang -std=c11 -D_GNU_SOURCE -g -O1 -Isrc \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SRC)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -o $@ $^ -ljansson -lsodium
# The HTTP target runs the whole server in process: every library source,
# instrumented, and the libraries the server links.
build/fuzz/fuzz_http: tests/fuzz/fuzz_http.c $(LIB_SRC) $(GEN_SRC) \
		$(wildcard src/*/*.h src/games/*/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -o $@ $(filter %.c,$^) $(LDLIBS)

build/fuzz/fuzz_actions_%: tests/fuzz/fuzz_actions.c $(FUZZ_SRC)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -DFUZZ_GAME='"$(subst _,-,$*)"' -o $@ $^ -ljansson -lsodium

fuzz: fuzz-deps $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)
	@status=0; for t in $(FUZZ_TARGETS); do \
		mkdir -p build/fuzz/corpus-$$t; \
		echo "fuzz: $$t for $(FUZZ_TIME)s"; \
		build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_TIME) \
			$$(cat tests/fuzz/$$t.flags 2>/dev/null) \
			-artifact_prefix=build/fuzz/ -print_final_stats=1 \
			build/fuzz/corpus-$$t tests/fuzz/seeds/$${t%%_*} \
			> build/fuzz/$$t.log 2>&1 || status=1; \
		grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY)' build/fuzz/$$t.log; \
	done; \
	[ $$status -eq 0 ] || echo "fuzz: a target failed (its log: build/fuzz/<target>.log)"; \
	exit $$status

# Benchmarks (make bench): tests/bench/*.c linked against the library.
$(BUILD)/bench/%: tests/bench/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOUSE_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ \
		$(filter-out %.h,$^) $(LDLIBS)

# The reference server of make bench: libmicrohttpd alone, no library.
$(BUILD)/bench/ref_server: tests/bench/ref_server.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOUSE_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		-lmicrohttpd -lpthread

# Bots against each other (tests/eval/bots_eval.c): win rates with 95%
# confidence intervals.  Minutes; not part of make test.  BOTS_MS caps each
# decision in milliseconds (a cut search no longer replays bit for bit).
BOTS_MS ?= 0
$(BUILD)/eval/%: tests/eval/%.c tests/unit/botmatch.h $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOUSE_CFLAGS) $(CFLAGS) $(LDFLAGS) -Itests/unit -o $@ \
		$(filter %.c %.o,$^) $(LDLIBS)

bots-eval: deps
	$(MAKE) $(BUILD)/eval/bots_eval
	./tests/bots_eval.sh $(BUILD) $(BOTS_MS)

# Configurable at run time too: boardd --help.
ADDR ?= 127.0.0.1
PORT ?= 8080
DB   ?= boardd.db
run: deps
	$(MAKE) all
	$(BUILD)/boardd --addr $(ADDR) --port $(PORT) --db $(DB)

# make test compiles BUILD_JOBS files at a time (default: one per core).
BUILD_JOBS ?= $(shell nproc)
#
# The HTTP suites run twice, on SQLite and on PostgreSQL (-pg): the
# PostgreSQL pass, the unit suites, the two-node and web suites against
# the ASan+UBSan build; the SQLite pass against a UBSan-only one
# (build/undefined), which takes half to two thirds of the CPU (a
# server's start alone: 0.35 s under ASan, 0.09 s) and keeps the checks
# for undefined behaviour (tests/README.md, "make test's time"), except
# faults (tests/run.sh, asan_sqlite).  What the -pg pass skips and no
# suite runs under ASan in make test: a few SQLite-only checks of
# test_http, test_idem, test_ops and test_deploy (the file's lock, an
# old schema upgraded in place, the file deleted under a server); the
# SQLite driver itself is under ASan in the unit suites.
# `make test-asan` runs both passes under ASan.
test: deps
	$(MAKE) -j$(BUILD_JOBS) all  # the release build of `make run` must compile too (-O2 warns more)
	$(MAKE) -j$(BUILD_JOBS) SANITIZER=address,undefined unit-build
	$(MAKE) -j$(BUILD_JOBS) SANITIZER=undefined http-build
	./tests/run.sh build/address-undefined build/undefined

test-asan: deps
	$(MAKE) -j$(BUILD_JOBS) all
	$(MAKE) -j$(BUILD_JOBS) SANITIZER=address,undefined unit-build
	./tests/run.sh build/address-undefined

# The bench and evaluation programs are compiled here too (not run: make
# bench and make bots-eval run them), so a change that breaks them fails
# make test instead of the next make bench.
BENCH_PROGS := bench_engine bench_http bench_log bench_scale ref_server
EVAL_PROGS := bots_eval qt_trace
unit-build: $(BUILD)/boardd $(BUILD)/verify-record $(TESTS) $(BUILD)/rating/rating_cli \
	$(BENCH_PROGS:%=$(BUILD)/bench/%) $(EVAL_PROGS:%=$(BUILD)/eval/%)
# What the HTTP suites run besides the server: test_properties.py's
# exporter, test_records.py's and test_chat.py's verify-record,
# test_ratings.py's rating_cli (found beside the server's binary).
http-build: $(BUILD)/boardd $(BUILD)/verify-record $(BUILD)/tests/test_properties \
	$(BUILD)/rating/rating_cli

bench: deps
	$(MAKE) all $(BENCH_PROGS:%=$(BUILD)/bench/%)
	./tools/deps.sh bench
	./tests/bench.sh $(BUILD)

# The HTTP suites with the server under valgrind memcheck (no sanitizer
# build: valgrind and ASan do not mix), and under ThreadSanitizer.  Long:
# not part of make test.  Each ends with its own "N passed, N failed".
VALGRIND := valgrind --quiet --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect \
	--soname-synonyms=somalloc=*jemalloc*
valgrind: deps
	@./tools/deps.sh valgrind
	$(MAKE) all
	BOARDD_WRAP="$(VALGRIND)" /usr/bin/python3 tests/http/test_http.py build/release/boardd
	BOARDD_WRAP="$(VALGRIND)" /usr/bin/python3 tests/http/test_players.py build/release/boardd

tsan: deps
	$(MAKE) SANITIZER=thread build/thread/boardd
	TSAN_OPTIONS=halt_on_error=1 /usr/bin/python3 tests/http/test_live.py build/thread/boardd
	TSAN_OPTIONS=halt_on_error=1 /usr/bin/python3 tests/http/test_players.py build/thread/boardd
	TSAN_OPTIONS=halt_on_error=1 /usr/bin/python3 tests/http/test_abuse.py build/thread/boardd
	TSAN_OPTIONS=halt_on_error=1 /usr/bin/python3 tests/http/test_bots.py build/thread/boardd
	# two nodes on a throw-away PostgreSQL cluster: the listener thread
	# and the leases under TSan
	d=$$(mktemp -d "$$(sh tests/pg/cluster.sh parent)/boardd-pg.XXXXXX") && \
	pg=$$(sh tests/pg/cluster.sh start "$$d") && \
	TSAN_OPTIONS=halt_on_error=1 BOARDD_TEST_PG="$$pg" /usr/bin/python3 \
	    tests/http/test_nodes.py build/thread/boardd; rc=$$?; \
	sh tests/pg/cluster.sh stop "$$d"; exit $$rc

# Crash and restart under load: SIGKILL ROUNDS times while clients post
# moves; every acknowledged move must be in the log once.  Long.
ROUNDS ?= 20
kill-loop: deps
	$(MAKE) SANITIZER=address,undefined build/address-undefined/boardd
	/usr/bin/python3 tests/http/kill_loop.py build/address-undefined/boardd $(ROUNDS)

# Deadlines passing across SIGKILLs: each overdue one applied once.
kill-loop-clocks: deps
	$(MAKE) SANITIZER=address,undefined build/address-undefined/boardd
	/usr/bin/python3 tests/http/kill_loop_clocks.py build/address-undefined/boardd $(ROUNDS)

# Issue 34's webhook attack at full size (about 90 s): two dead receivers
# flooded with 275 moves in 70 s, another player's events each delivered
# within 2 s.  BOARDD_TEST_BACKEND=postgres BOARDD_TEST_PG=... for PostgreSQL.
attack-webhooks: deps
	$(MAKE) SANITIZER=address,undefined build/address-undefined/boardd
	/usr/bin/python3 tests/http/attack_webhooks.py build/address-undefined/boardd

fuzz-deps:
	@./tools/deps.sh fuzz

format:
	@./tools/deps.sh lint
	clang-format -i $(shell git ls-files '*.c' '*.h')

# cppcheck, and the house format checked (make format applies it).
lint:
	@./tools/deps.sh lint
	clang-format --dry-run -Werror $(shell git ls-files '*.c' '*.h')
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
		--inline-suppr -Isrc src

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)

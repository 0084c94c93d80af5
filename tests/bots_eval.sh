#!/bin/sh
# bots_eval.sh BUILD_DIR [MAX_MS]: make bots-eval.  Bots against each other,
# win rates with 95% Wilson intervals (tests/eval/bots_eval.c); never
# asserted, never part of make test (test_bots keeps a small deterministic
# version).  Figures go to tests/README.md, "## make bots-eval".
#
# Every match runs at each level's own budget and time cap (Quantum too
# since its listing and the search's node lookups got faster: a default
# level decision takes about 10-20 ms, a game against random 600-1,500
# moves).  QT_MS, when set and not 0, caps Quantum's decisions at that
# many milliseconds instead (a quicker, weaker run); MAX_MS, when given
# and not 0, caps every decision of every match.  QT_GAMES (default 100)
# sets the Quantum match's length.
set -eu
build=${1:?usage: bots_eval.sh BUILD_DIR [MAX_MS]}
ms=${2:-0}
qt_ms=${QT_MS:-0}
[ "$ms" -ne 0 ] && qt_ms=$ms
eval="$build/eval/bots_eval"
[ -x "$eval" ] || { echo "bots-eval: $eval is missing" >&2; exit 1; }
echo "bots-eval: $(date -u '+%Y-%m-%d %H:%M UTC'); load average" \
	"$(cut -d ' ' -f 1-3 /proc/loadavg)"
"$eval" agent-avenue 2 200 mcts random "$ms"
"$eval" agent-avenue 2 200 mcts:4 mcts:2 "$ms"
"$eval" agent-avenue 2 200 mcts:3 mcts:1 "$ms"
"$eval" quantum 2 "${QT_GAMES:-100}" mcts random "$qt_ms"

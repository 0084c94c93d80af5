#!/bin/sh
# bots_eval.sh BUILD_DIR [MAX_MS]: make bots-eval.  Bots against each other,
# win rates with 95% Wilson intervals (tests/eval/bots_eval.c); never
# asserted, never part of make test (test_bots keeps a small deterministic
# version).  Figures go to tests/README.md, "## make bots-eval".
#
# Agent Avenue runs at each level's own budget and time cap.  Quantum's
# moves are slow to list (about 10 us a move; random games run 2,000 to
# 4,000 moves), so its matches cap each decision at QT_MS milliseconds
# (default 3) to keep the run within minutes: the mcts figures for
# Quantum are for that cap, not for the level's budget.  MAX_MS, when
# given and not 0, caps every decision of every match instead.
set -eu
build=${1:?usage: bots_eval.sh BUILD_DIR [MAX_MS]}
ms=${2:-0}
qt_ms=${QT_MS:-3}
[ "$ms" -ne 0 ] && qt_ms=$ms
eval="$build/eval/bots_eval"
[ -x "$eval" ] || { echo "bots-eval: $eval is missing" >&2; exit 1; }
echo "bots-eval: $(date -u '+%Y-%m-%d %H:%M UTC'); load average" \
	"$(cut -d ' ' -f 1-3 /proc/loadavg)"
"$eval" agent-avenue 2 200 mcts random "$ms"
"$eval" agent-avenue 2 200 mcts:4 mcts:2 "$ms"
"$eval" agent-avenue 2 200 mcts:3 mcts:1 "$ms"
"$eval" quantum 2 "${QT_GAMES:-100}" mcts random "$qt_ms"

#!/bin/sh
# Regenerates docs/terminal-play.md: one whole game of `anima play`, as a new player played it
# (docs/terminal-play-inputs.txt), with the first turns and the last ones kept and the middle
# cut at a "[...]" line. Run from anywhere: sh docs/terminal-play.sh
#
# When the cards have changed since the inputs were typed, the game goes another way and the
# inputs fall out of step; --autoplay normal then plays on for the human seat, so the game is
# still played to its end (read the new transcript, and type new inputs if it reads oddly).
set -e
cd "$(dirname "$0")/.."
ANIMA=${ANIMA:-.venv/bin/anima}
COMMAND="anima play --seed 7 --script docs/terminal-play-inputs.txt --autoplay normal"
# Turns kept at the start (setup and turn 1) and at the end (the last two).
FIRST=2
LAST=2
full=$(mktemp)
trap 'rm -f "$full"' EXIT
$ANIMA play --seed 7 --script docs/terminal-play-inputs.txt --autoplay normal </dev/null >"$full"
# The line where turn $FIRST begins, and where the next-to-last turns begin.
cut_from=$(grep -n "^=== Turn $FIRST · " "$full" | head -1 | cut -d: -f1)
turns=$(grep "^=== Turn [0-9]* · reset phase ===" "$full" | tail -1 | sed 's/=== Turn \([0-9]*\).*/\1/')
resume=$(grep -n "^=== Turn $((turns - LAST + 1)) · reset phase ===" "$full" | head -1 | cut -d: -f1)
lines=$(wc -l <"$full")
{
  cat <<HEADER
# A game of \`anima play\`, played as a new player would

Reproduce the whole transcript with one command (from the repository, after \`make
.venv/.installed-dev\`):

    $COMMAND

and this page with \`sh docs/terminal-play.sh\`. The inputs are in
[terminal-play-inputs.txt](terminal-play-inputs.txt); each is printed after the question it
answers, as if typed. P1 is the human seat, P2-P4 are normal AI seats. The board is printed at
the first decision of each turn and when asked (\`b\`); in between, the log, the phase, and the
player's own party and cards when they change. \`help\` lists the commands; \`?N\` reads the
card (or reward) of choice N, \`? NAME\` any card.

The whole game is $lines lines; turns 0 to $((FIRST - 1)) and the last $LAST turns are
below, the middle is cut at the line \`[...]\`.

\`\`\`text
HEADER
  if [ -n "$cut_from" ] && [ -n "$resume" ] && [ "$resume" -gt "$cut_from" ]; then
    head -n $((cut_from - 1)) "$full"
    echo
    echo "[...]  (turns $FIRST to $((turns - LAST)): run the command above for them)"
    echo
    tail -n +"$resume" "$full"
  else
    cat "$full"
  fi
  echo '```'
} >docs/terminal-play.md

#!/bin/sh
# Regenerates docs/terminal-play.md: one whole game of `anima play`, as a new player played it
# (docs/terminal-play-inputs.txt, every decision of P1 typed). The setup and turn 1 are shown
# in full, each later turn in a collapsible <details> block, the last turn in full again.
# Run from anywhere: sh docs/terminal-play.sh
#
# When the cards, the AI or the prompts have changed since the inputs were typed, the game goes
# another way and the inputs fall out of step: the game then stops where they run out ("Game
# left unfinished") and this script fails without touching the page. Play the game again
# (anima play --seed 7 --script FILE, one input more at a time) and type new inputs.
set -e
cd "$(dirname "$0")/.."
ANIMA=${ANIMA:-.venv/bin/anima}
SEED=7
INPUTS=docs/terminal-play-inputs.txt
COMMAND="anima play --seed $SEED --script $INPUTS"
# Turns shown in full at the start (0 = setup, 1 = the first turn); the last one is too.
FIRST=1
# The same game in Spanish: its first lines, for the section on --lang.
LANG_SHOWN=es
LANG_LINES=44
full=$(mktemp)
other=$(mktemp)
page=$(mktemp)
trap 'rm -f "$full" "$other" "$page"' EXIT
$ANIMA play --seed $SEED --script $INPUTS </dev/null >"$full" || true
$ANIMA play --seed $SEED --script $INPUTS --lang $LANG_SHOWN </dev/null >"$other" || true
if ! grep -q "^=== Game over: " "$full"; then
  echo "docs/terminal-play.sh: the inputs no longer play a whole game; the game ends with:" >&2
  tail -n 15 "$full" >&2
  exit 1
fi
lines=$(wc -l <"$full")
# The last turn: the log line "🔔 Turn N · order: ..." (public, once a turn) starts each turn.
last=$(grep "^  🔔 Turn [0-9]* · " "$full" | tail -1 | sed 's/^  🔔 Turn \([0-9]*\) .*/\1/')
winner=$(grep "^=== Game over: " "$full" | sed 's/^=== Game over: \(.*\) ===$/\1/')
{
  cat <<HEADER
# A game of \`anima play\`, played as a new player would

Reproduce the whole transcript with one command (from the repository, after \`make
.venv/.installed-dev\`):

    $COMMAND

and this page with \`sh docs/terminal-play.sh\`. The inputs are in
[terminal-play-inputs.txt](terminal-play-inputs.txt); each is printed after the question it
answers, as if typed, and every decision of P1 was typed (a reaction window with no card to
play passes by itself). P1 is the human seat, P2-P4 are normal AI seats. The board is printed
at the first decision of each turn and when asked (\`b\`); in between, the log, the phase, and
the player's own party and cards when they change. \`help\` lists the commands; \`?N\` reads
the card (or reward) of choice N, \`? NAME\` any card.

The whole game is $lines lines over $last turns: $winner. The setup and turn 1 are below in
full, turns 2 to $((last - 1)) folded (click a turn to open it), and the last turn in full. A
turn starts at the log line \`🔔 Turn N · order: ...\`, amid the log printed before a decision.
In another language (\`--lang\`): [the last section](#in-another-language).

HEADER
  awk -v first="$FIRST" -v last="$last" '
    function open_block(n) {
      if (n > first && n < last) {
        printf "<details><summary>Turn %d</summary>\n\n", n
      } else if (n == last) {
        printf "Turn %d, the last:\n\n", n
      }
      print "```text"
    }
    function close_block(n) {
      print "```"
      if (n > first && n < last) print "\n</details>"
      print ""
    }
    BEGIN { turn = 0; open_block(-1) }
    /^  🔔 Turn [0-9]+ · / {
      n = $3 + 0
      if (n > first) { close_block(turn); open_block(n) }
      turn = n
    }
    { print }
    END { close_block(turn) }
  ' "$full"
  cat <<FOOTER
## In another language

\`--lang es\` (or \`ru\`, \`it\`; \`en\` by default) says every line in that language: the
events, decisions, choices and the end in the words the Discord bot uses (the same catalogs,
\`words/locales/<lang>/\`), the terminal's own lines from its \`terminal.po\`, and the cards'
names and texts in our translation, marked 🌐 where a card is described (the first lines print
the legend; ◇ marks a stand-in text in every language); a message a language lacked would be
said in English. The commands take the language's words (\`mano\`,
\`tablero\`, \`ayuda\`: \`help\` lists them) and the English ones; a choice is typed by its number
or the start of its label in the language. The same game as above, \`$COMMAND --lang
$LANG_SHOWN\`, its first lines:

\`\`\`text
FOOTER
  head -n "$LANG_LINES" "$other"
  printf '```\n'
} >"$page"
cat "$page" >docs/terminal-play.md

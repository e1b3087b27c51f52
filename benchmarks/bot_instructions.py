"""The bot's cost in CPU instructions per component click, counted by valgrind.

Run: ``.venv/bin/python benchmarks/bot_instructions.py [--games 5] [--json]``

``benchmarks/bot_speed.py`` times interactions on a shared machine, where any timing's tail
is about three times its median whatever the program does (``benchmarks/machine_noise.py``),
and two runs of the same commit a few minutes apart differ by a fifth. The instructions a
click runs do not drift: this runs the same benchmark (``--games`` games, seed 1, one
interaction at a time, ``--no-memory``) under ``valgrind --tool=callgrind`` with collection
on only while a component callback runs (``bot.components.answers.guarded``: every button and select
of the lobby, the board and the panels, from the callback's start to its end, the Discord
calls it makes through SimCord included, and whatever else the event loop runs while a
callback awaits), and divides the count by the callbacks. The same commit gives the same
figure within about 0.1 % from run to run (about 8.1 million instructions per click over 476
callbacks for 5 games); compare two commits with it (benchmarks/README.md). Fewer
instructions are not always less time: a change that cut them by 4.6 % gave no better
times when alternated four times with the commit before it.

Collection is switched by callgrind's client request (``CALLGRIND_TOGGLE_COLLECT``), from a
ten-line C extension compiled here into a temporary directory: it needs valgrind with its
header (``valgrind/callgrind.h``) and a C compiler with Python's headers. Where any is missing
it says so and exits with status 0: this is a benchmark, not a test. ``--json`` prints one
JSON object (``{"skipped": ...}`` when it cannot run). A run of 5 games takes about a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_TOGGLE_C = """
#include <Python.h>
#include <valgrind/callgrind.h>
static PyObject *toggle(PyObject *self, PyObject *args) {
    CALLGRIND_TOGGLE_COLLECT;
    Py_RETURN_NONE;
}
static PyMethodDef methods[] = {{"toggle", toggle, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "cgtoggle", NULL, -1, methods};
PyMODINIT_FUNC PyInit_cgtoggle(void) { return PyModule_Create(&module); }
"""

#: Run under valgrind (argv: the toggle's directory, the games): bot_speed's run, with
#: collection on while ``guarded`` runs.
_RUN = """
import argparse, asyncio, functools, sys, tempfile
from pathlib import Path
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, "benchmarks")
import cgtoggle
import bot_speed
from bot.components import answers as components

clicks = 0
guarded = components.guarded

@functools.wraps(guarded)
async def counted(*args, **kwargs):
    global clicks
    clicks += 1
    cgtoggle.toggle()
    try:
        return await guarded(*args, **kwargs)
    finally:
        cgtoggle.toggle()

components.guarded = counted
args = argparse.Namespace(
    games=int(sys.argv[2]), seed=1, turns=3, concurrency=1, profile=False,
    ai_level=bot_speed.DEFAULT_LEVEL, json=True, memory=False, tune_gc=True, memory_sample=10,
)
with tempfile.TemporaryDirectory() as tmp:
    asyncio.run(bot_speed.run(args, Path(tmp)))
print("clicks", clicks)
"""


def missing() -> str | None:
    """Why the count cannot be taken here, or None."""
    if shutil.which("valgrind") is None:
        return "valgrind is not installed (apt-get install valgrind)"
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").exists():
        return f"Python's headers are missing ({include / 'Python.h'})"
    if shutil.which("cc") is None:
        return "no C compiler (cc) to build the collection switch"
    if not Path("/usr/include/valgrind/callgrind.h").exists():
        return "valgrind's header valgrind/callgrind.h is missing"
    return None


def build_toggle(directory: Path) -> None:
    """Compile the collection switch (module ``cgtoggle``) into ``directory``."""
    source = directory / "cgtoggle.c"
    source.write_text(_TOGGLE_C)
    target = directory / f"cgtoggle{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-O2", f"-I{include}", str(source), "-o", str(target)],
        check=True,
        capture_output=True,
    )


def count(games: int) -> tuple[int, int]:
    """(instructions collected, component callbacks) of a run of ``games`` games."""
    with tempfile.TemporaryDirectory() as tmp:
        build_toggle(Path(tmp))
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--collect-atstart=no",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                "-c",
                _RUN,
                tmp,
                str(games),
            ],
            cwd=ROOT,
            # The same hashes every run: set iteration orders, and so the work, are repeated.
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            check=False,
        )
    found = re.search(r"Collected\s*:\s*([\d,]+)", done.stderr)
    clicks = re.search(r"^clicks (\d+)$", done.stdout, re.MULTILINE)
    if done.returncode != 0 or found is None or clicks is None:
        raise SystemExit(f"valgrind failed:\n{done.stderr[-2000:]}{done.stdout[-500:]}")
    return int(found.group(1).replace(",", "")), int(clicks.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games played (seed 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    reason = missing()
    if reason is not None:
        print(json.dumps({"skipped": reason}) if args.json else f"skipped: {reason}")
        return 0
    total, clicks = count(args.games)
    per_click = total / clicks
    if args.json:
        report = {
            "instructions_per_click": round(per_click),
            "clicks": clicks,
            "instructions": total,
            "games": args.games,
            "python": sys.version.split()[0],
        }
        print(json.dumps(report))
        return 0
    print(
        f"{args.games} games (seed 1), {clicks:,} component callbacks: {per_click:,.0f} "
        f"instructions per click (valgrind callgrind, collected inside the callbacks only)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

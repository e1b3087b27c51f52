"""A bot process that draws a picture, prints its worker's pid and is killed (run by
``test_pictures_pool``: its worker must not outlive it)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pictures.drawings import tagged

from bot.pictures import PictureCache


async def main(log: Path) -> None:
    cache = PictureCache()
    picture = await cache.get("a", "x", partial(tagged, "a", log))
    print(int(picture.png), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # no close, no exit handlers


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))

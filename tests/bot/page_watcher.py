"""Watch games' pages on several sites and say when each event came (``test_at_scale.py``).

A process of its own, so the times it writes are not those of a test process that is also
busy being Discord: ``python -m tests.bot.page_watcher SITE_URL... -- TOKEN...`` opens every
game's live stream on every site, one after another (a site sheds a crowd of streams opened
at once), each from a loopback address of its own for every three games (a site lets an address
hold four), prints ``opened`` once they all are, then one line a page event: ``token site
total wall-ms``. It ends when its standard input closes.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import aiohttp


async def _watch(
    token: str, site: int, base: str, address: str, opened: asyncio.Future[None]
) -> None:
    connector = aiohttp.TCPConnector(local_addr=(address, 0))
    forever = aiohttp.ClientTimeout(total=None, sock_read=None)  # a stream lasts the game
    async with (
        aiohttp.ClientSession(connector=connector, timeout=forever) as http,
        http.get(f"{base}/g/{token}/events") as stream,
    ):
        if stream.status != 200:
            opened.set_exception(RuntimeError(f"{base}: {stream.status} for {token}"))
            return
        while line := (await stream.content.readline()).decode():
            if line.startswith("data: "):
                total = int(json.loads(line.removeprefix("data: "))["total"])
                print(token, site, total, int(time.time() * 1000), flush=True)
                if not opened.done():
                    opened.set_result(None)


async def main(sites: list[str], tokens: list[str]) -> None:
    loop = asyncio.get_running_loop()
    tasks = []
    for i, token in enumerate(tokens):
        for site, base in enumerate(sites):
            opened = loop.create_future()
            address = f"127.0.{i // 3 + 1}.{site + 1}"
            tasks.append(asyncio.create_task(_watch(token, site, base, address, opened)))
            await asyncio.wait_for(opened, 30)
    print("opened", flush=True)
    await loop.run_in_executor(None, sys.stdin.read)  # until the test closes our stdin
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


if __name__ == "__main__":
    at = sys.argv.index("--")
    asyncio.run(main(sys.argv[1:at], sys.argv[at + 1 :]))

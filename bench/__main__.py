"""`make bench`: every benchmark table in one run (`ARGS=engines` etc. to pick some).

Arguments that are not section names go to the sections that take options (``ai``):
``make bench ARGS="ai --pairs 4 --games sangokushi"``.
"""

from __future__ import annotations

import importlib
import inspect
import sys

SECTIONS = {
    "engines": "bench.engines_bench",
    "service": "bench.service_bench",
    "discord": "bench.discord_bench",
    "ai": "bench.ai_bench",
    "replay": "bench.replay_bench",
    "ratings": "bench.ratings_bench",
    "puzzles": "bench.puzzles_bench",
    "digest": "bench.digest_bench",
    "review": "bench.review_bench",
    "tournament": "bench.tournament_bench",
    "web": "bench.web_bench",
    "click": "bench.click_bench",
    "jobs": "bench.jobs_bench",
    "explorer": "bench.explorer_bench",
}


def main() -> None:
    args = sys.argv[1:]
    options = [a for a in args if a not in SECTIONS]
    wanted = [a for a in args if a in SECTIONS] or list(SECTIONS)
    for name in wanted:
        module_name = SECTIONS[name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                print(f"(no {name} benchmark yet)\n")
                continue
            raise
        if inspect.signature(module.main).parameters:
            module.main(options)
        else:
            module.main()
        print()


if __name__ == "__main__":
    main()

"""`make bench`: every benchmark table in one run (`ARGS=engines` etc. to pick some)."""

from __future__ import annotations

import importlib
import sys

SECTIONS = {
    "engines": "bench.engines_bench",
    "service": "bench.service_bench",
    "discord": "bench.discord_bench",
    "ai": "bench.ai_bench",
    "replay": "bench.replay_bench",
    "ratings": "bench.ratings_bench",
}


def main() -> None:
    wanted = sys.argv[1:] or list(SECTIONS)
    for name in wanted:
        module_name = SECTIONS[name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                print(f"(no {name} benchmark yet)\n")
                continue
            raise
        module.main()
        print()


if __name__ == "__main__":
    main()

"""Settings from the environment (and a ``.env`` file): the only place that reads them.

Every adapter (the Discord bot, the sandbox, the benchmarks) builds one :class:`Settings` with
:func:`load_settings` and hands it to :class:`bot.service.GameService`.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.model import ShardSlice

DEFAULT_DB = "./data/banmen.db"
AI_SECONDS_MAX = 60.0
"""The longest time per AI move a server may configure."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the host needs to know; see docs/service.md for the environment variables."""

    discord_token: str | None = None
    db_path: str = DEFAULT_DB
    dev_guild_id: str | None = None
    log_level: str = "INFO"
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    max_active_per_user: int = 20
    """Open or running games one user may sit in at once."""
    max_active_per_guild: int = 500
    """Open or running games one server may host at once."""
    takeback_grace: int = 60
    """Seconds during which a takeback needs no consent (while the opponent has not moved)."""
    takeback_limit: int = 3
    """Takebacks one seat may make in one game (a move/takeback loop cannot flood a thread)."""
    draw_reoffer: int = 10
    """Moves (plies of play) a seat must wait before offering a draw again."""
    challenge_ttl: int = 24 * 3600
    """Seconds an unanswered challenge stays open (0: forever)."""
    secret: str | None = None
    """The key of the daily deal's seeds (default: one the store generates and keeps)."""
    daily_reveal_hours: int = 12
    """Hours after a daily deal's UTC day before its seed appears in any record: every player
    of a day shares the seed, so it stays hidden until the day is over everywhere (12: the end
    of that date in UTC-12, the last time zone)."""
    rules_base_url: str | None = None
    """Where the rules documents (``docs/rules/``) are published: ``/rules`` then links each
    game's page (``<url>/<game's document>.md``); unset, no link is shown (never a file path)."""
    state_cache_size: int = 100_000
    """The most games whose replayed state is kept in memory (a bounded LRU)."""
    state_cache_mb: int = 256
    """The most memory (MiB, estimated) those games may hold: the LRU drops the games least
    recently used beyond it (0: no limit but :attr:`state_cache_size`)."""
    sqlite_synchronous: str = "FULL"
    """FULL (every acknowledged move survives a power cut) or NORMAL (a process crash only)."""
    pg_pool_size: int = 10
    """Most connections one process opens to PostgreSQL (``BANMEN_DB=postgresql://...``)."""
    store_timeout: float = 5.0
    """Seconds a command waits for the store (a PostgreSQL connection) before it is answered
    that the store is unreachable (nothing changed)."""
    heartbeat_path: str | None = None
    """The file the bot rewrites while it is connected to Discord (``python -m bot healthcheck``
    reads its age); ``None``: ``heartbeat`` next to the database."""
    heartbeat_interval: int = 30
    """Seconds between two heartbeats; the healthcheck accepts one up to three intervals old."""
    identify_interval: float = 5.0
    """Seconds between two logins (IDENTIFY) of one ``max_concurrency`` bucket, across every
    process on the store (Discord allows one each 5 s); 0: no queue (a test's one process)."""
    site_process: bool = False
    """This process serves the site alone (``python -m bot site``, issue 49): the games are
    changed by other processes, so its game cache keeps none; it learns of moves from
    PostgreSQL's notifications (keeping copies while it hears them) or by polling the store's
    versions (SQLite)."""
    rest_per_second: float = 30.0
    """The REST budget shared by every process on the store (issue 49): requests a second
    to Discord, below its global 50 (with a short burst: ``bot.service.REST_BURST_MS``); 0: no
    shared budget (each process left to discord.py's own 429 handling)."""
    job_queue: bool = False
    """Hand computer moves, hints and drawings to ``python -m bot worker`` processes through the
    store (``BANMEN_JOB_QUEUE=1``, issue 49; ``bot/service/jobs.py``): off in the one-process
    default, which does them in its own pool."""
    job_key: str | None = None
    """The key that signs the queue's jobs (``BANMEN_JOB_KEY``; by default the bot's token,
    which every process of a deployment has)."""
    ai_seconds: float = 2.0
    """The longest an AI move (and a hint) may think: level 8's time; lower levels take their
    share of it (the levels table)."""
    ai_workers: int = 1
    """Processes the bot runs AI searches in (at most this many at once; on a 2-core machine
    one leaves a core for everything else)."""
    review_nodes: int = 2000
    """Nodes the computer's review of a finished game searches each ply, after a plain one-ply
    pass, scaled by the game's ``engines.ai.review.NODE_SCALE`` (issue 52: a node budget, never
    seconds, so a review is the same on any machine; docs/review.md: a 60-ply game in about
    30 s at most on a 2-core machine)."""
    shard_ids: tuple[int, ...] | None = None
    """The Discord shards this process runs (``--shards 0-3``); None: all of them."""
    shard_count: int | None = None
    """Shards in all (``--shard-count 8``); None: as many as Discord recommends."""
    timer_rescan: int = 60
    """Seconds between two re-reads of the deadlines from the store when other processes run the
    other shards (they may change a game of ours, e.g. from a DM)."""
    vacation_days: int = 30
    """A player's vacation allowance: days a year, accrued monthly (issue 33)."""
    web_host: str = "127.0.0.1"
    """Where the read-only web pages listen (``BANMEN_WEB_HOST``; 0.0.0.0 in a container)."""
    web_port: int = 8080
    """The web pages' port (``BANMEN_WEB_PORT``; 0: the site is not started)."""
    public_url: str | None = None
    """The site's address as the world reaches it (``BANMEN_PUBLIC_URL``): a game's first
    message and ``/record`` then link its page, and ``/rules`` the site's rules pages."""
    oauth_client_id: str | None = None
    """The Discord application's id for the site's sign-in (``BANMEN_OAUTH_CLIENT_ID``; none:
    no sign-in, the site stays read-only)."""
    oauth_client_secret: str | None = None
    """Its OAuth2 secret (``BANMEN_OAUTH_CLIENT_SECRET``)."""
    activity: bool = False
    """Serve the board as a Discord Activity (``BANMEN_ACTIVITY=1``, issue 51, 3; it needs the
    OAuth2 client above and the developer portal's set-up, docs/activity.md): a game's card
    offers "Open the board" and ``/open`` launches it; off, both link the game's page."""
    oauth_authorize_url: str = "https://discord.com/oauth2/authorize"
    """Where a visitor approves the sign-in (``BANMEN_OAUTH_AUTHORIZE_URL``: a test double's)."""
    web_trusted_proxies: tuple[str, ...] = ()
    """The addresses of the reverse proxies in front of the site
    (``BANMEN_WEB_TRUSTED_PROXIES``, comma-separated): only a request from one of them is
    taken to come from the address its ``X-Forwarded-For`` names."""

    def owns(self, guild_id: str | None) -> bool:
        """Do this process's shards hold ``guild_id`` (its clocks, reminders and posts)?"""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    @property
    def shard_slice(self) -> ShardSlice | None:
        """This process's shards when other processes run the rest (None: it delivers all)."""
        if not self.sharded or self.shard_ids is None or self.shard_count is None:
            return None
        return ShardSlice(self.shard_ids, self.shard_count)

    @property
    def sharded(self) -> bool:
        """Other processes run some of the shards (this one runs a slice)."""
        return (
            self.shard_ids is not None
            and self.shard_count is not None
            and set(self.shard_ids) != set(range(self.shard_count))
        )

    @property
    def heartbeat_file(self) -> Path:
        """Where the heartbeat is written (``BANMEN_HEARTBEAT``, else next to the database)."""
        if self.heartbeat_path:
            return Path(self.heartbeat_path)
        if "://" in self.db_path:  # a database server: beside the default SQLite file
            return Path(DEFAULT_DB).parent / "heartbeat"
        return Path(self.db_path).parent / "heartbeat"


def masked_location(location: str) -> str:
    """``BANMEN_DB`` fit for a log line: a URL's password becomes ``***``."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", location)


def shard_of(guild_id: str | None, shard_count: int) -> int:
    """The shard that receives a guild's events (Discord's ``(guild_id >> 22) % shard_count``);
    direct messages (no guild) and ids that are not snowflakes go to shard 0."""
    if guild_id is None or not guild_id.isdigit():
        return 0
    return (int(guild_id) >> 22) % shard_count


def parse_shards(text: str, shard_count: int | None) -> tuple[int, ...]:
    """``"0-3"``, ``"5"`` or ``"0,2,4-5"`` as shard ids, each below ``shard_count``."""
    if shard_count is None:
        raise ValueError("--shards needs --shard-count (the number of shards in all)")
    if shard_count < 1:
        raise ValueError(f"the shard count must be at least 1, not {shard_count}")
    ids: list[int] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError as exc:
            raise ValueError(
                f"shards must look like 0-3 or 0,2,5 (numbers and ranges), not {text!r}"
            ) from exc
        if not 0 <= first <= last < shard_count:
            raise ValueError(
                f"shard {part.strip()!r} is outside 0-{shard_count - 1} (--shard-count "
                f"{shard_count})"
            )
        ids.extend(range(first, last + 1))
    return tuple(sorted(set(ids)))


def with_shards(settings: Settings, shards: str | None, shard_count: int | None) -> Settings:
    """``settings`` running ``shards`` of ``shard_count`` (command-line flags override the
    environment's ``BANMEN_SHARDS`` / ``BANMEN_SHARD_COUNT``)."""
    from dataclasses import replace

    count = shard_count if shard_count is not None else settings.shard_count
    if count is not None and count < 1:
        raise ValueError(f"the shard count must be at least 1, not {count}")
    if shards is not None:
        return replace(settings, shard_ids=parse_shards(shards, count), shard_count=count)
    if count != settings.shard_count:
        return replace(
            settings, shard_ids=tuple(range(count)) if count else None, shard_count=count
        )
    return settings


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    value = env.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ValueError(f"{name} must be a whole number, not {value!r}") from exc


def _positive(env: Mapping[str, str], name: str, default: int, least: int = 1) -> int:
    value = _int(env, name, default)
    if value < least:
        raise ValueError(f"{name} must be at least {least}, not {value}")
    return value


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    value = env.get(name, "").strip()
    if not value:
        return default
    try:
        seconds = float(value)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number of seconds, not {value!r}") from exc
    if not 0 < seconds <= AI_SECONDS_MAX:
        raise ValueError(f"{name} must be more than 0 and at most {AI_SECONDS_MAX:g}, not {value}")
    return seconds


def _port(env: Mapping[str, str], name: str, default: int) -> int:
    value = _int(env, name, default)
    if not 0 <= value <= 65535:
        raise ValueError(f"{name} must be a port from 0 to 65535 (0: off), not {value}")
    return value


def _addresses(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    out = []
    for part in (env.get(name) or "").split(","):
        if part.strip():
            try:
                out.append(str(ipaddress.ip_address(part.strip())))
            except ValueError as exc:
                raise ValueError(f"{name} must list IP addresses, not {part.strip()!r}") from exc
    return tuple(out)


def _flag(env: Mapping[str, str], name: str) -> bool:
    value = (_opt(env, name) or "0").lower()
    if value not in {"0", "1", "true", "false", "yes", "no", "on", "off"}:
        raise ValueError(f"{name} must be 1 or 0, not {value!r}")
    return value in {"1", "true", "yes", "on"}


def _opt(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def load_settings(
    env_file: str | Path | None = ".env", env: Mapping[str, str] | None = None
) -> Settings:
    """Read the settings; ``env_file`` (if it exists) fills what the environment does not set."""
    if env is None:
        if env_file is not None and Path(env_file).is_file():
            from dotenv import load_dotenv

            load_dotenv(env_file, override=False)
        env = os.environ
    settings = Settings(
        discord_token=_opt(env, "DISCORD_TOKEN"),
        db_path=_opt(env, "BANMEN_DB") or DEFAULT_DB,
        dev_guild_id=_opt(env, "DEV_GUILD_ID"),
        log_level=(_opt(env, "LOG_LEVEL") or "INFO").upper(),
        discord_api_base=_opt(env, "DISCORD_API_BASE"),
        discord_gateway_url=_opt(env, "DISCORD_GATEWAY_URL"),
        max_active_per_user=_int(env, "BANMEN_MAX_ACTIVE_PER_USER", 20),
        max_active_per_guild=_int(env, "BANMEN_MAX_ACTIVE_PER_GUILD", 500),
        takeback_grace=_int(env, "BANMEN_TAKEBACK_GRACE", 60),
        takeback_limit=_int(env, "BANMEN_TAKEBACK_LIMIT", 3),
        draw_reoffer=_int(env, "BANMEN_DRAW_REOFFER", 10),
        challenge_ttl=_int(env, "BANMEN_CHALLENGE_TTL", 24 * 3600),
        rules_base_url=_opt(env, "BANMEN_RULES_URL"),
        secret=_opt(env, "BANMEN_SECRET"),
        daily_reveal_hours=_positive(env, "BANMEN_DAILY_REVEAL_HOURS", 12, least=0),
        state_cache_size=_int(env, "BANMEN_STATE_CACHE", 100_000),
        state_cache_mb=_positive(env, "BANMEN_STATE_CACHE_MB", 256, least=0),
        sqlite_synchronous=(_opt(env, "BANMEN_SQLITE_SYNC") or "FULL").upper(),
        pg_pool_size=_positive(env, "BANMEN_PG_POOL", 10),
        store_timeout=_seconds(env, "BANMEN_STORE_TIMEOUT", 5.0),
        heartbeat_path=_opt(env, "BANMEN_HEARTBEAT"),
        heartbeat_interval=_positive(env, "BANMEN_HEARTBEAT_INTERVAL", 30),
        identify_interval=_seconds(env, "BANMEN_IDENTIFY_INTERVAL", 5.0),
        rest_per_second=_seconds(env, "BANMEN_REST_PER_SECOND", 30.0),
        job_queue=_flag(env, "BANMEN_JOB_QUEUE"),
        job_key=_opt(env, "BANMEN_JOB_KEY") or _opt(env, "DISCORD_TOKEN"),
        ai_seconds=_seconds(env, "BANMEN_AI_SECONDS", 2.0),
        ai_workers=_positive(env, "BANMEN_AI_WORKERS", 1),
        timer_rescan=_positive(env, "BANMEN_TIMER_RESCAN", 60),
        vacation_days=_positive(env, "BANMEN_VACATION_DAYS", 30, least=0),
        review_nodes=_positive(env, "BANMEN_REVIEW_NODES", 2000),
        web_host=_opt(env, "BANMEN_WEB_HOST") or "127.0.0.1",
        web_port=_port(env, "BANMEN_WEB_PORT", 8080),
        public_url=(_opt(env, "BANMEN_PUBLIC_URL") or "").rstrip("/") or None,
        web_trusted_proxies=_addresses(env, "BANMEN_WEB_TRUSTED_PROXIES"),
        oauth_client_id=_opt(env, "BANMEN_OAUTH_CLIENT_ID"),
        oauth_client_secret=_opt(env, "BANMEN_OAUTH_CLIENT_SECRET"),
        activity=_flag(env, "BANMEN_ACTIVITY"),
        oauth_authorize_url=_opt(env, "BANMEN_OAUTH_AUTHORIZE_URL")
        or "https://discord.com/oauth2/authorize",
    )
    if settings.job_queue and settings.job_key is None:
        raise ValueError(
            "BANMEN_JOB_QUEUE needs a key to sign the jobs: BANMEN_JOB_KEY (or DISCORD_TOKEN)"
        )
    count = _opt(env, "BANMEN_SHARD_COUNT")
    return with_shards(
        settings,
        _opt(env, "BANMEN_SHARDS"),
        _positive(env, "BANMEN_SHARD_COUNT", 1) if count else None,
    )

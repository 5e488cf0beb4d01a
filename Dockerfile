# Banmen bot image: the same locked dependencies and the same Debian font package as CI
# (bookworm's fonts-ipaexfont 00401-5), so the pictures are pixel-identical.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BANMEN_DB=/data/banmen.db \
    BANMEN_WEB_HOST=0.0.0.0 \
    BANMEN_WEB_PORT=8080

RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-ipaexfont-gothic fonts-ipaexfont-mincho \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements/main.txt requirements/main.txt
RUN pip install --no-cache-dir --require-hashes -r requirements/main.txt

COPY pyproject.toml README.md ./
COPY engines engines
COPY render render
COPY bot bot
ENV PYTHONPATH=/app

RUN useradd --create-home --uid 10001 banmen && mkdir -p /data && chown banmen /data
USER banmen
VOLUME ["/data"]
# The read-only web pages (docs/web.md); BANMEN_PUBLIC_URL makes games link them.
EXPOSE 8080

# Healthy while the bot is connected to Discord: it rewrites /data/heartbeat (BANMEN_HEARTBEAT)
# every BANMEN_HEARTBEAT_INTERVAL (30) seconds while its gateway connection is up, and
# `python -m bot healthcheck` fails when that file is missing or older than three intervals.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "healthcheck"]

# `docker stop` sends SIGTERM to python (PID 1, exec form): the bot closes its gateway session
# and the database and exits 0, well within the 10 s before Docker would kill it.
STOPSIGNAL SIGTERM

# DISCORD_TOKEN (and optionally DEV_GUILD_ID, LOG_LEVEL) come from the environment. Without a
# token and without `-it` the container says so and exits 2 (the sandbox needs a terminal).
CMD ["python", "-m", "bot"]

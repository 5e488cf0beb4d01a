# Banmen bot image: the same locked dependencies and the same Debian font package as CI
# (bookworm's fonts-ipaexfont 00401-5), so the pictures are pixel-identical.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BANMEN_DB=/data/banmen.db

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

# DISCORD_TOKEN (and optionally DEV_GUILD_ID, LOG_LEVEL) come from the environment.
CMD ["python", "-m", "bot"]

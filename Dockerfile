# Toride: the Discord bot. Build: docker build -t toride .   Run: see docker-compose.yml
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# an unprivileged user, and /data for the SQLite file (a volume in docker-compose.yml)
RUN useradd --create-home --uid 10001 toride \
    && mkdir -p /data \
    && chown toride:toride /data

# the source as it is in the repository: the migrations are found next to the packages
COPY pyproject.toml README.md alembic.ini ./
COPY engine ./engine
COPY bot ./bot
COPY migrations ./migrations
RUN pip install -e '.[postgres]'

USER toride
ENV TORIDE_DATABASE_URL=sqlite+aiosqlite:////data/toride.db
VOLUME ["/data"]

# the database is upgraded at start; DISCORD_TOKEN comes from the environment (.env).
# Exec form: toride is PID 1 (or tini's child with compose's init: true) and gets docker stop's
# SIGTERM itself; it runs the waiting status edits and exits 0 within seconds, never killed
STOPSIGNAL SIGTERM
CMD ["toride", "run"]

"""The Docker files as written (no Docker engine here): their structure, read back."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_compose_runs_the_bot_with_sqlite_on_a_volume_and_postgres_as_a_profile() -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    bot, postgres = compose["services"]["bot"], compose["services"]["postgres"]
    assert bot["build"] == "." and bot["env_file"] == ".env" and "profiles" not in bot
    assert bot["volumes"] == ["toride-data:/data"]
    assert bot["environment"]["TORIDE_DATABASE_URL"] == (
        "${TORIDE_DATABASE_URL:-sqlite+aiosqlite:////data/toride.db}"
    )
    assert bot["depends_on"]["postgres"] == {"condition": "service_healthy", "required": False}
    assert postgres["profiles"] == ["postgres"]
    assert postgres["environment"]["POSTGRES_DB"] == "toride"
    assert set(compose["volumes"]) == {"toride-data", "toride-postgres"}


def test_dockerfile_and_env_example() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert 'CMD ["toride", "run"]' in dockerfile
    assert "COPY migrations ./migrations" in dockerfile  # found next to the packages at run time
    assert "pip install -e '.[postgres]'" in dockerfile
    env = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    assert "DISCORD_TOKEN=" in env
    assert "# TORIDE_DATABASE_URL=postgresql+asyncpg://toride:change-me@postgres:5432/toride" in env
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert {".env", ".git", "*.db", "tests"} <= set(ignored)


def test_the_bot_stops_on_docker_stop_and_reports_its_health() -> None:
    """PID 1 gets SIGTERM (exec form, tini through compose's init) and the healthcheck asks the health
    endpoint on the port the bot is given."""
    yaml = pytest.importorskip("yaml")
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "STOPSIGNAL SIGTERM" in dockerfile and 'CMD ["toride", "run"]' in dockerfile
    bot = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))["services"]["bot"]
    assert bot["init"] is True
    port = bot["environment"]["TORIDE_HEALTH_PORT"]
    assert f"http://127.0.0.1:{port}/health" in " ".join(bot["healthcheck"]["test"])


def test_the_shards_example_runs_every_shard_once_on_one_postgresql() -> None:
    yaml = pytest.importorskip("yaml")
    text = (ROOT / "docker-compose.shards.yml").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"```yaml\n{text}```" in readme  # the README shows the file as it is
    services = yaml.safe_load(text)["services"]
    bots = [s for name, s in services.items() if name.startswith("bot-")]
    assert len(bots) == 2
    counts = {b["environment"]["TORIDE_SHARD_COUNT"] for b in bots}
    assert len(counts) == 1
    count = int(counts.pop())
    shards = sorted(int(b["environment"]["TORIDE_SHARDS"]) for b in bots)
    assert shards == list(range(count))
    for b in bots:
        assert b["environment"]["TORIDE_DATABASE_URL"].startswith("postgresql+asyncpg://")
        assert b["init"] is True and b["depends_on"]["postgres"]["condition"] == "service_healthy"
        port = b["environment"]["TORIDE_HEALTH_PORT"]
        assert f"http://127.0.0.1:{port}/health" in " ".join(b["healthcheck"]["test"])

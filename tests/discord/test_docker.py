"""The Docker files as written (no Docker engine here): their structure, read back."""

from __future__ import annotations

import os
import shutil
import subprocess
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


def test_the_shards_example_shares_the_shards_through_postgresql_behind_a_rest_proxy() -> None:
    """Issue 39, item 5: N shard processes (``TORIDE_SHARDS=auto``: the shard leases), PostgreSQL and
    a REST proxy in front of Discord, as the README shows it."""
    yaml = pytest.importorskip("yaml")
    text = (ROOT / "docker-compose.shards.yml").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"```yaml\n{text}```" in readme  # the README shows the file as it is
    services = yaml.safe_load(text)["services"]
    assert set(services) == {"bot", "rest-proxy", "postgres"}
    bot = services["bot"]
    assert bot["deploy"]["replicas"] >= 2
    environment = bot["environment"]
    assert environment["TORIDE_SHARDS"] == "auto" and "TORIDE_SHARD_COUNT" not in environment
    assert environment["TORIDE_DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert environment["TORIDE_DISCORD_API_BASE"] == "http://rest-proxy:8080/api/v10"
    assert services["rest-proxy"]["environment"]["PORT"] == "8080"
    assert bot["init"] is True and bot["depends_on"]["postgres"]["condition"] == "service_healthy"
    port = environment["TORIDE_HEALTH_PORT"]
    assert f"http://127.0.0.1:{port}/health" in " ".join(bot["healthcheck"]["test"])


def _compose() -> bool:
    """Is Docker Compose (``docker compose``) installed here?"""
    if shutil.which("docker") is None:
        return False
    found = subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30)
    return found.returncode == 0


@pytest.mark.skipif(not _compose(), reason="Docker Compose is not installed here")
def test_docker_compose_reads_the_shards_example() -> None:
    done = subprocess.run(
        ["docker", "compose", "-f", str(ROOT / "docker-compose.shards.yml"), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "DISCORD_TOKEN": "x"},
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr

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

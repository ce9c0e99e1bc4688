"""The files that put the bot into Slack and into containers: manifest.yml, docker-compose.yml."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import yaml

from bot import blocks
from bot.listeners.commands import COMMAND
from masis.ingest.loaders import SUPPORTED_SUFFIXES
from tests.conftest import REPO


def test_the_manifest_asks_for_what_the_bot_uses() -> None:
    manifest = yaml.safe_load((REPO / "manifest.yml").read_text())
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    assert {"app_mentions:read", "channels:history", "groups:history", "im:history", "chat:write", "commands",
            "files:read"} <= scopes
    settings = manifest["settings"]
    assert set(settings["event_subscriptions"]["bot_events"]) == {
        "app_mention", "message.channels", "message.groups", "message.im", "assistant_thread_started",
        "assistant_thread_context_changed", "app_uninstalled", "tokens_revoked"}
    assert {"assistant:write", "channels:read", "groups:read"} <= scopes
    assert manifest["features"]["assistant_view"]["assistant_description"]
    assert settings["interactivity"]["is_enabled"] is True
    assert settings["socket_mode_enabled"] is True
    [command] = manifest["features"]["slash_commands"]
    assert command["command"] == COMMAND == "/masis-upload"
    assert len(manifest["display_information"]["long_description"]) >= 175  # Slack's minimum
    assert {f".{t}" for t in blocks.UPLOAD_FILETYPES} | {".htm"} == SUPPORTED_SUFFIXES


def test_the_manifest_validates_against_slacks_published_schema() -> None:
    """tests/schemas/slack_manifest.schema.1.0.0.json: slackapi/manifest-schema, see tests/schemas/README.md."""
    import json

    from jsonschema import Draft7Validator

    schema = json.loads((REPO / "tests" / "schemas" / "slack_manifest.schema.1.0.0.json").read_text())
    Draft7Validator.check_schema(schema)
    validator = Draft7Validator(schema)
    manifest = yaml.safe_load((REPO / "manifest.yml").read_text())
    errors = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(manifest)]
    assert errors == []
    # the schema is strict: a misspelt key or a prompt without its message is refused
    assert not validator.is_valid({**manifest, "feature": manifest["features"]})
    broken = {**manifest, "features": {**manifest["features"], "assistant_view": {
        "assistant_description": "x", "suggested_prompts": [{"title": "no message"}]}}}
    assert not validator.is_valid(broken)


def test_compose_validates_against_the_compose_specification_schema() -> None:
    """tests/schemas/compose-spec.json: compose-spec/compose-spec's schema, see tests/schemas/README.md."""
    import json

    from jsonschema import Draft7Validator

    schema = json.loads((REPO / "tests" / "schemas" / "compose-spec.json").read_text())
    Draft7Validator.check_schema(schema)
    validator = Draft7Validator(schema, format_checker=Draft7Validator.FORMAT_CHECKER)
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    errors = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(compose)]
    assert errors == []
    # the schema is strict: a misspelt key, or a condition Compose does not know, is refused
    bot = compose["services"]["bot"]
    assert not validator.is_valid({**compose, "services": {**compose["services"], "bot": {**bot, "enviroment": []}}})
    replica = compose["services"]["bot-replica"]
    assert not validator.is_valid({**compose, "services": {**compose["services"], "bot-replica": {
        **replica, "depends_on": {"postgres": {"condition": "service_ready"}}}}})


def test_compose_requires_no_variable_so_the_default_services_start_without_the_replicas_ones() -> None:
    """Compose interpolates every service, those of inactive profiles too, before it applies the profiles: a
    `${VAR:?message}` (or `${VAR?message}`) anywhere stops `docker compose up` of the default services when
    VAR is unset, though only the `replicas` profile uses it."""
    import re

    text = (REPO / "docker-compose.yml").read_text()
    body = "\n".join(line.split("#", 1)[0] for line in text.splitlines())  # the file's comments may show one
    required = re.findall(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*):?\?", body)
    assert required == []
    assert "${POSTGRES_PASSWORD:-}" in body  # the replicas' password: empty when unset, refused by PostgreSQL


def test_compose_passes_the_operations_settings_to_every_bot() -> None:
    services = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]
    for name in ("bot", "bot-replica"):
        assert {"MASIS_METRICS_TOKEN", "MASIS_WORKERS", "MASIS_WORKSPACE_CONCURRENCY", "MASIS_WORKSPACE_BACKLOG",
                "MASIS_USER_BACKLOG"} <= set(services[name]["environment"]), name


def test_compose_runs_qdrant_and_the_bot() -> None:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"qdrant", "bot"} <= set(services)
    assert services["bot"]["build"] == "."
    assert "QDRANT_URL=http://qdrant:6333" in services["bot"]["environment"]
    assert "SLACK_BOT_TOKEN" in services["bot"]["environment"]
    dockerfile = (REPO / "Dockerfile").read_text()
    assert 'CMD ["python", "-m", "bot"]' in dockerfile


def _compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_docker_compose_config_passes() -> None:
    command = _compose_command()
    if command is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed")
    result = subprocess.run([*command, "config", "--quiet"], cwd=REPO, capture_output=True, text=True,
                            env={"PATH": "/usr/local/bin:/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr


def test_compose_has_a_replicas_profile_with_postgres_and_two_bots() -> None:
    services = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]
    replica, postgres = services["bot-replica"], services["postgres"]
    assert replica["deploy"]["replicas"] == 2 and "healthcheck" in replica and "ports" not in replica
    assert replica["build"]["args"]["EXTRAS"] == "[postgres]"
    assert any(e.startswith("MASIS_DATABASE_URL=postgresql://") for e in replica["environment"])
    assert "QDRANT_URL=http://qdrant:6333" in replica["environment"]  # the replicas share one Qdrant server
    assert {name: dep["condition"] for name, dep in replica["depends_on"].items()} == {
        "qdrant": "service_healthy", "postgres": "service_healthy"}
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"]) and "healthcheck" in services["qdrant"]
    assert postgres["profiles"] == replica["profiles"] == ["replicas"]
    assert "bot" in services and "profiles" not in services["bot"]  # the one-bot default is unchanged
    assert 'ARG EXTRAS=""' in (REPO / "Dockerfile").read_text()

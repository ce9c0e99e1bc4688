"""Every knob of MASIS, read from the environment (and a `.env` file) by pydantic-settings.

The numbers in the second half are the MASIS design's (DESIGN.md §4); they are config so that tests and
operators can see and change them, not constants scattered through the agents.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from masis.redact import learn_settings


def _env(*names: str) -> AliasChoices:
    return AliasChoices(*names)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    # --- where things live -------------------------------------------------------------------------
    data_dir: Path = Field(Path(".masis"), validation_alias=_env("MASIS_DATA_DIR", "data_dir"))
    # postgresql://…: checkpoints, registry and the bot's tables in one PostgreSQL database that several
    # replicas share, instead of the SQLite files in the data directory
    database_url: SecretStr | None = Field(None, validation_alias=_env("MASIS_DATABASE_URL", "database_url"))
    # on PostgreSQL: how long a call waits for the database to come back (a restart, a failover) before it fails
    # with "the database is unavailable"; and each replica's heartbeat, a replica silent for three beats (and
    # whose presence lock is free) being dead, its lost work announced by the live ones
    database_wait_seconds: float = Field(
        10.0, gt=0, allow_inf_nan=False, validation_alias=_env("MASIS_DATABASE_WAIT_SECONDS", "database_wait_seconds")
    )
    replica_heartbeat_seconds: float = Field(
        5.0, gt=0, le=60, allow_inf_nan=False,
        validation_alias=_env("MASIS_REPLICA_HEARTBEAT_SECONDS", "replica_heartbeat_seconds"),
    )

    # --- language models -----------------------------------------------------------------------------
    llm: Literal["openai", "extractive"] | None = Field(None, validation_alias=_env("MASIS_LLM", "llm"))
    openai_api_key: SecretStr | None = Field(None, validation_alias=_env("OPENAI_API_KEY", "openai_api_key"))
    openai_base_url: str | None = Field(None, validation_alias=_env("OPENAI_BASE_URL", "openai_base_url"))
    synth_model: str = Field("gpt-4o-mini", validation_alias=_env("MASIS_SYNTH_MODEL", "synth_model"))
    audit_model: str = Field("gpt-4o", validation_alias=_env("MASIS_AUDIT_MODEL", "audit_model"))
    embed_model: str = Field("text-embedding-3-small", validation_alias=_env("MASIS_EMBED_MODEL", "embed_model"))
    # The OpenAI path's transport: per-request timeout (s), retries with backoff on 429 / 5xx / timeouts,
    # how structured replies are requested, and how many texts go into one embeddings request.
    llm_timeout: float = Field(60.0, validation_alias=_env("MASIS_LLM_TIMEOUT", "llm_timeout"))
    llm_max_retries: int = Field(3, validation_alias=_env("MASIS_LLM_MAX_RETRIES", "llm_max_retries"))
    structured_output: Literal["json_schema", "function_calling"] = Field(
        "json_schema", validation_alias=_env("MASIS_STRUCTURED_OUTPUT", "structured_output")
    )
    # How the synthesizer's reply carries its citations: "claims" (structured: sentences, each with a passage id
    # that the JSON schema limits to the evidence's ids) or "text" (prose citing "[id]"); either way MASIS cites
    # a sentence left uncited to the passage that states it (masis.judge.attribution).
    synth_reply: Literal["claims", "text"] = Field("text", validation_alias=_env("MASIS_SYNTH_REPLY", "synth_reply"))
    embed_batch_size: int = Field(128, validation_alias=_env("MASIS_EMBED_BATCH_SIZE", "embed_batch_size"))
    # The most tokens each role may generate (`max_tokens` on every request): a model that loops stops here
    # instead of filling the server's context. A reply cut off at the limit is a failed attempt, never text.
    synth_max_tokens: int = Field(600, gt=0, validation_alias=_env("MASIS_SYNTH_MAX_TOKENS", "synth_max_tokens"))
    critic_max_tokens: int = Field(1000, gt=0, validation_alias=_env("MASIS_CRITIC_MAX_TOKENS", "critic_max_tokens"))
    evaluator_max_tokens: int = Field(
        300, gt=0, validation_alias=_env("MASIS_EVALUATOR_MAX_TOKENS", "evaluator_max_tokens")
    )
    compress_max_tokens: int = Field(
        2000, gt=0, validation_alias=_env("MASIS_COMPRESS_MAX_TOKENS", "compress_max_tokens")
    )

    # --- vector store --------------------------------------------------------------------------------
    qdrant_url: str | None = Field(None, validation_alias=_env("QDRANT_URL", "qdrant_url"))
    qdrant_api_key: SecretStr | None = Field(None, validation_alias=_env("QDRANT_API_KEY", "qdrant_api_key"))
    collection: str = Field("masis_chunks", validation_alias=_env("MASIS_COLLECTION", "collection"))

    # --- Slack and the HTTP faces --------------------------------------------------------------------
    slack_bot_token: SecretStr | None = Field(None, validation_alias=_env("SLACK_BOT_TOKEN", "slack_bot_token"))
    slack_signing_secret: SecretStr | None = Field(
        None, validation_alias=_env("SLACK_SIGNING_SECRET", "slack_signing_secret")
    )
    slack_app_token: SecretStr | None = Field(None, validation_alias=_env("SLACK_APP_TOKEN", "slack_app_token"))
    slack_api_url: str = Field("https://slack.com/api/", validation_alias=_env("SLACK_API_URL", "slack_api_url"))
    port: int = Field(3000, validation_alias=_env("PORT", "port"))
    api_token: SecretStr | None = Field(None, validation_alias=_env("MASIS_API_TOKEN", "api_token"))

    # the background workers that answer questions and replies and index uploads for Slack and the API, shared
    # fairly between workspaces (masis.fairness): at most `workspace_concurrency` of them on one workspace
    # (0: half the workers), at most `workspace_backlog` jobs waiting per workspace and `user_backlog` per
    # person in it; past those, new work is refused with a message (HTTP 429 from the API)
    workers: int = Field(8, ge=1, validation_alias=_env("MASIS_WORKERS", "workers"))
    workspace_concurrency: int = Field(
        0, ge=0, validation_alias=_env("MASIS_WORKSPACE_CONCURRENCY", "workspace_concurrency")
    )
    workspace_backlog: int = Field(50, ge=1, validation_alias=_env("MASIS_WORKSPACE_BACKLOG", "workspace_backlog"))
    user_backlog: int = Field(10, ge=1, validation_alias=_env("MASIS_USER_BACKLOG", "user_backlog"))
    # votes (👍 / 👎) the HTTP API takes on one thread a minute; past it, a 429 with Retry-After
    feedback_per_minute: int = Field(
        20, ge=1, le=10_000, validation_alias=_env("MASIS_FEEDBACK_PER_MINUTE", "feedback_per_minute")
    )
    # bearer token of GET /metrics (Prometheus); unset = no metrics endpoint
    metrics_token: SecretStr | None = Field(None, validation_alias=_env("MASIS_METRICS_TOKEN", "metrics_token"))

    # --- retrieval (DESIGN §4) ---------------------------------------------------------------------
    relevance_threshold: float = Field(0.60, validation_alias=_env("MASIS_RELEVANCE_THRESHOLD", "relevance_threshold"))
    retry_relevance_threshold: float = Field(
        0.55, validation_alias=_env("MASIS_RETRY_RELEVANCE_THRESHOLD", "retry_relevance_threshold")
    )
    # read the first candidates with the local sentence encoder (masis.judge.semantic) when their words fall short
    semantic: bool = Field(True, validation_alias=_env("MASIS_SEMANTIC", "semantic"))
    # a long-running bot or API reads its documents' passages with that encoder ahead of questions (masis.read_ahead)
    read_ahead: bool = Field(True, validation_alias=_env("MASIS_READ_AHEAD", "read_ahead"))
    top_k: int = Field(10, validation_alias=_env("MASIS_TOP_K", "top_k"))
    retry_top_k: int = Field(20, validation_alias=_env("MASIS_RETRY_TOP_K", "retry_top_k"))

    # --- the audit loop (DESIGN §4) ----------------------------------------------------------------
    low_confidence_threshold: float = Field(
        0.65, validation_alias=_env("MASIS_LOW_CONFIDENCE_THRESHOLD", "low_confidence_threshold")
    )
    # unset: 2 with a model, 0 on the offline engine (`retries`)
    max_retries: int | None = Field(None, ge=0, validation_alias=_env("MASIS_MAX_RETRIES", "max_retries"))
    max_clarification_rounds: int = Field(
        3, validation_alias=_env("MASIS_MAX_CLARIFICATION_ROUNDS", "max_clarification_rounds")
    )
    max_context_chars: int = Field(6000, validation_alias=_env("MASIS_MAX_CONTEXT_CHARS", "max_context_chars"))
    max_calls_per_minute: int = Field(
        10, validation_alias=_env("MAX_CALLS_PER_MINUTE", "MASIS_MAX_CALLS_PER_MINUTE", "max_calls_per_minute")
    )
    recursion_limit: int = Field(60, validation_alias=_env("MASIS_RECURSION_LIMIT", "recursion_limit"))

    # --- ingestion -----------------------------------------------------------------------------------
    chunk_chars: int = Field(900, validation_alias=_env("MASIS_CHUNK_CHARS", "chunk_chars"))
    chunk_overlap_chars: int = Field(150, validation_alias=_env("MASIS_CHUNK_OVERLAP_CHARS", "chunk_overlap_chars"))
    max_file_bytes: int = Field(20 * 1024 * 1024, validation_alias=_env("MASIS_MAX_FILE_BYTES", "max_file_bytes"))
    # each file is parsed in a child process with these limits (0 seconds: parse in-process, no limits)
    parse_timeout_seconds: float = Field(
        180.0, validation_alias=_env("MASIS_PARSE_TIMEOUT_SECONDS", "parse_timeout_seconds")
    )
    parse_memory_mb: int = Field(1024, validation_alias=_env("MASIS_PARSE_MEMORY_MB", "parse_memory_mb"))
    # at most this many isolated parses at once in a process, the others waiting in line (masis.ingest.budget);
    # 0: as many as there are CPUs and as the available memory holds `parse_memory_mb` caps, at least one
    parse_concurrency: int = Field(
        0, ge=0, validation_alias=_env("MASIS_PARSE_CONCURRENCY", "parse_concurrency")
    )

    # --- housekeeping --------------------------------------------------------------------------------
    checkpoint_ttl_days: float = Field(
        30.0, ge=0, allow_inf_nan=False, validation_alias=_env("MASIS_CHECKPOINT_TTL_DAYS", "checkpoint_ttl_days")
    )

    def model_post_init(self, context: Any, /) -> None:
        # Every configuration teaches the redactor its secrets (masis.redact), so no face can forget to.
        learn_settings(self)

    @property
    def llm_provider(self) -> Literal["openai", "extractive"]:
        """`MASIS_LLM` when set, else `openai` with a key and `extractive` without one."""
        if self.llm:
            return self.llm
        return "openai" if self.openai_api_key else "extractive"

    @property
    def retries(self) -> int:
        """`MASIS_MAX_RETRIES` when set, else the design's 2 with a model and 0 on the offline engine. The offline
        critic's findings are the question's own words, so an offline retry is only a wider search (20 candidates at
        0.55); on the data nobody tuned on, the answers only a retry gave were right 7 times in 19, and the retries were
        about half the time of a question asked back (docs/evaluation.md, "Figures: stop 61")."""
        if self.max_retries is not None:
            return self.max_retries
        return 2 if self.llm_provider == "openai" else 0

    @property
    def postgres_url(self) -> str | None:
        """`MASIS_DATABASE_URL` when it names a PostgreSQL database (else the SQLite files are used)."""
        if self.database_url is None or not self.database_url.get_secret_value():
            return None
        url = self.database_url.get_secret_value()
        if not url.startswith(("postgresql://", "postgres://")):
            raise ValueError("MASIS_DATABASE_URL must be a postgresql:// URL (unset it to use the SQLite files)")
        return url

    @property
    def registry_target(self) -> Path | str:
        """Where the registry lives: the PostgreSQL URL, or `masis.db` in the data directory."""
        return self.postgres_url or self.registry_path

    @property
    def registry_path(self) -> Path:
        return self.data_dir / "masis.db"

    @property
    def checkpoint_path(self) -> Path:
        return self.data_dir / "checkpoints.db"

    @property
    def edge_store_path(self) -> Path:
        return self.data_dir / "qdrant-edge"

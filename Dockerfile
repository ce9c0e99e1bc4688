# The MASIS Slack bot (`python -m bot`). Run it with docker compose (docker-compose.yml), which adds a
# Qdrant server; alone: docker build -t masis . && docker run --env-file .env -p 3000:3000 masis
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MASIS_DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000

# EXTRAS="[postgres]" adds PostgreSQL support (MASIS_DATABASE_URL, several replicas)
ARG EXTRAS=""
WORKDIR /app
COPY pyproject.toml README.md ./
COPY requirements ./requirements
COPY masis ./masis
COPY bot ./bot
RUN pip install ".${EXTRAS}" \
    && pip install --no-deps --require-hashes -r requirements/encoder.txt \
    && useradd --create-home --uid 10001 masis \
    && mkdir -p /data && chown masis /data

USER masis
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '3000'), timeout=3)"]
CMD ["python", "-m", "bot"]

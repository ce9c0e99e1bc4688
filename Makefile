# Two commands set everything up: `make run` (the offline demo) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,eval,postgres]'
	touch $(STAMP)

run: install
	MASIS_DATA_DIR=$${MASIS_DATA_DIR:-.masis-demo} $(BIN)/python -m masis.demo

test: install
	$(BIN)/ruff check masis bot tests bench scripts
	$(BIN)/python -m pytest -q

bench: install
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .masis .masis-demo .pytest_cache

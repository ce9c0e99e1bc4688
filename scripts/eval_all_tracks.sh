#!/usr/bin/env bash
# Every answer-quality track, one after another, into OUT/ (JSON and records per track):
#   bash scripts/eval_all_tracks.sh OUT [quick]
# "quick" runs the tuning subset (realdocs tune, SQuAD 2.0 seed 0, open-book seed 0, sample); without it,
# every track and seed the README reports. Run from a checkout with its .venv; ../shared/datasets beside it.
set -euo pipefail
out=${1:?usage: eval_all_tracks.sh OUT [quick]}
mode=${2:-full}
cd "$(dirname "$0")/.."
D=${MASIS_DATASETS:-../shared/datasets}
mkdir -p "$out"
export PYTHONHASHSEED=0
run() {  # name, then the eval arguments
  local name=$1; shift
  .venv/bin/masis eval "$@" --json --records "$out/$name.records.jsonl" > "$out/$name.json" 2> "$out/$name.err" || true
  echo "$name done" >&2
}
run realdocs_tune realdocs data/realdocs --split tune
run squad2_s0 squad2 "$D/squad_v2.0/dev-v2.0-8-articles.json" --limit 150 --seed 0
run openbook_s0 squad "$D/squad_v1.1" --open-book 12 --limit 150 --seed 0
run sample sample data
[ "$mode" = quick ] && exit 0
run realdocs_check realdocs data/realdocs --split check
run freshdocs_tune realdocs data/freshdocs --split tune
run freshdocs_check realdocs data/freshdocs --split check
run holdoutdocs_tune realdocs data/holdoutdocs --split tune
run holdoutdocs_check realdocs data/holdoutdocs --split check
run nextdocs_tune realdocs data/nextdocs --split tune
run nextdocs_check realdocs data/nextdocs --split check
run moredocs_tune realdocs data/moredocs --split tune
run moredocs_check realdocs data/moredocs --split check
run policydocs_tune realdocs data/policydocs --split tune
run policydocs_check realdocs data/policydocs --split check
run configdocs_tune realdocs data/configdocs --split tune
run configdocs_check realdocs data/configdocs --split check
run guidedocs_tune realdocs data/guidedocs --split tune
run guidedocs_check realdocs data/guidedocs --split check
run apidocs_tune realdocs data/apidocs --split tune
run apidocs_check realdocs data/apidocs --split check
run mandocs_tune realdocs data/mandocs --split tune
run mandocs_check realdocs data/mandocs --split check
run teamdocs_tune realdocs data/teamdocs --split tune
run teamdocs_check realdocs data/teamdocs --split check
run opsdocs_tune realdocs data/opsdocs --split tune
run opsdocs_check realdocs data/opsdocs --split check
run servicedocs_tune realdocs data/servicedocs --split tune
run servicedocs_check realdocs data/servicedocs --split check
run extradocs_tune realdocs data/extradocs --split tune
run extradocs_check realdocs data/extradocs --split check
run stackdocs_tune realdocs data/stackdocs --split tune
run stackdocs_check realdocs data/stackdocs --split check
run webdocs_tune realdocs data/webdocs --split tune
run webdocs_check realdocs data/webdocs --split check
run datadocs_tune realdocs data/datadocs --split tune
run datadocs_check realdocs data/datadocs --split check
run mldocs_tune realdocs data/mldocs --split tune
run mldocs_check realdocs data/mldocs --split check
run tooldocs_tune realdocs data/tooldocs --split tune
run tooldocs_check realdocs data/tooldocs --split check
run frontdocs_tune realdocs data/frontdocs --split tune
run frontdocs_check realdocs data/frontdocs --split check
run platformdocs_tune realdocs data/platformdocs --split tune
run platformdocs_check realdocs data/platformdocs --split check
run secdocs_tune realdocs data/secdocs --split tune
run secdocs_check realdocs data/secdocs --split check
run pkgdocs_tune realdocs data/pkgdocs --split tune
run pkgdocs_check realdocs data/pkgdocs --split check
run hostdocs_tune realdocs data/hostdocs --split tune
run hostdocs_check realdocs data/hostdocs --split check
run sysdocs_tune realdocs data/sysdocs --split tune
run sysdocs_check realdocs data/sysdocs --split check
run libdocs_tune realdocs data/libdocs --split tune
run libdocs_check realdocs data/libdocs --split check
run shelfdocs_tune realdocs data/shelfdocs --split tune
run shelfdocs_check realdocs data/shelfdocs --split check
run deskdocs_tune realdocs data/deskdocs --split tune
run deskdocs_check realdocs data/deskdocs --split check
run kitdocs_tune realdocs data/kitdocs --split tune
run kitdocs_check realdocs data/kitdocs --split check
run coredocs_tune realdocs data/coredocs --split tune
run coredocs_check realdocs data/coredocs --split check
run basedocs_tune realdocs data/basedocs --split tune
run basedocs_check realdocs data/basedocs --split check
run rackdocs_tune realdocs data/rackdocs --split tune
run rackdocs_check realdocs data/rackdocs --split check
run yarddocs_tune realdocs data/yarddocs --split tune
run yarddocs_check realdocs data/yarddocs --split check
run conversations_tune conversations data/conversations --split tune
run conversations_check conversations data/conversations --split check
for s in 1 2; do run "squad2_s$s" squad2 "$D/squad_v2.0/dev-v2.0-8-articles.json" --limit 150 --seed "$s"; done
for s in 1 2 3 4; do run "openbook_s$s" squad "$D/squad_v1.1" --open-book 12 --limit 150 --seed "$s"; done
.venv/bin/masis eval scifact "$D/beir_scifact" --no-answers --json > "$out/scifact.json" 2> "$out/scifact.err" || true
echo "scifact done" >&2
.venv/bin/masis eval vaswani "$D/vaswani_npl" --no-answers --json > "$out/vaswani.json" 2> "$out/vaswani.err" || true
echo "vaswani done" >&2

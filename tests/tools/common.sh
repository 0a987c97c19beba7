# Sourced by the tool checks: arguments, a scratch folder removed on exit,
# and a failure counter. Usage in a check: `source common.sh NAME "$@"`.
# Sets: bin (tools folder), root (project root), work (scratch), failures, fail(), pass().
[[ $# -eq 3 ]] || { echo "usage: $0 BIN_DIR PROJECT_ROOT" >&2; exit 2; }
bin=$(cd "$2" && pwd)
root=$(cd "$3" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/nettopo-$1.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }

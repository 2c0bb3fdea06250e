#!/bin/sh
# Runs a spec that must be refused through every front door.
#
#   refused.sh REWRITE CXX PLUGIN|- EXIT SPEC SOURCE [COMPILER_ARGS...]
#
# sonde-rewrite runs twice: with -o DIR, and with --in-place on a copy of
# SOURCE. Each must exit with EXIT (a signal, i.e. a crash, always fails),
# print nothing on stdout, leave DIR empty and the copy byte-identical, with
# nothing beside it; both must say the same. Then, unless PLUGIN is `-`,
# SOURCE is compiled with -fplugin: clang must fail and write no object.
# Prints `rewrite: exit N`, the messages, `plugin: exit N`, its messages and
# `end`, for FileCheck. $REWRITE_FLAGS and $PLUGIN_FLAGS (e.g. --strict,
# -fplugin-arg-sonde-strict) go to each front door; $NO_PLUGIN skips the
# plugin (for what only sonde-rewrite can see: a selector that matches
# nothing in any of the files); exits 1 with the reason on stderr if anything above
# does not hold. (A shell script: a Python start per case costs more than
# the runs it checks.)
set -u
rewrite=$1 cxx=$2 plugin=$3 want=$4 spec=$5 src=$6
shift 6
[ $# -gt 0 ] || set -- -std=c++17
fail() { echo "refused.sh: $*" >&2; rm -rf "$work"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sonde-refused.XXXXXX")
mkdir "$work/out" "$work/src"

"$rewrite" ${REWRITE_FLAGS:-} --spec "$spec" -o "$work/out" "$src" -- "$@" > "$work/stdout" 2> "$work/err1"
rc=$?
[ $rc -lt 128 ] || fail "sonde-rewrite crashed (exit $rc): $(cat "$work/err1")"
[ $rc -eq "$want" ] || fail "sonde-rewrite -o exited $rc, expected $want: $(cat "$work/err1")"
[ ! -s "$work/stdout" ] || fail "sonde-rewrite -o wrote on stdout"
[ -z "$(ls -A "$work/out")" ] || fail "sonde-rewrite -o wrote: $(ls -AR "$work/out")"

copy=$work/src/$(basename "$src")
cp "$src" "$copy"
"$rewrite" ${REWRITE_FLAGS:-} --spec "$spec" --in-place "$copy" -- "$@" > "$work/stdout" 2> "$work/err2"
rc=$?
[ $rc -lt 128 ] || fail "sonde-rewrite --in-place crashed (exit $rc)"
[ $rc -eq "$want" ] || fail "sonde-rewrite --in-place exited $rc, expected $want"
cmp -s "$src" "$copy" || fail "sonde-rewrite --in-place changed the file"
[ "$(ls -A "$work/src")" = "$(basename "$src")" ] || fail "--in-place left: $(ls -A "$work/src")"
[ ! -s "$work/stdout" ] || fail "sonde-rewrite --in-place wrote on stdout"
# The same messages, but for the copy's path.
sed "s|$copy|$src|g" "$work/err2" | cmp -s - "$work/err1" ||
  fail "--in-place said something else: $(cat "$work/err2")"

echo "rewrite: exit $want"
cat "$work/err1"
if [ "$plugin" != - ] && [ -z "${NO_PLUGIN:-}" ]; then
  "$cxx" -fplugin="$plugin" ${PLUGIN_FLAGS:-} -fplugin-arg-sonde-spec="$spec" -c "$src" \
    -o "$work/a.o" "$@" 2> "$work/err3"
  rc=$?
  [ $rc -lt 128 ] || fail "clang with the plugin crashed (exit $rc)"
  [ $rc -ne 0 ] || fail "the plugin accepted the spec: $(cat "$work/err3")"
  [ ! -e "$work/a.o" ] || fail "the plugin wrote an object file"
  echo "plugin: exit $rc"
  cat "$work/err3"
fi
echo end
rm -rf "$work"

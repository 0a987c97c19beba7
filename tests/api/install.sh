#!/usr/bin/env bash
# api.install: nettopo as others get it. Installs the build into a scratch
# prefix, moves the installed tree elsewhere (everything in it must follow),
# and from the moved tree only:
#   - checks the tree: libnettopo.so with its SONAME links, libnettopo.a
#     position-independent (linked whole into a shared object), the headers
#     (public ones only, the detail tier not, each usable alone from the
#     installed include dir),
#     the CMake package, nettopo.pc, tools, man pages, completions, docs,
#     schema and examples;
#   - checks that the package files carry no warning or sanitizer flag of
#     nettopo's own build and name no path of the build, the sources or the
#     first prefix;
#   - builds the C++ example with find_package against nettopo::nettopo (with
#     the dependencies' packages hidden: a consumer of the shared library needs
#     none of them) and against nettopo::nettopo_static, and the C example with
#     pkg-config (shared and static) when the C API header is installed;
#   - runs each on share/nettopo/examples/small-fattree.topo and compares its
#     answers with the installed nettopo-query.
#
# Usage: install.sh --cmake CMAKE --build BUILD_DIR --source PROJECT_ROOT
#                   --cxx CXX [--cc CC] [--pkg-config PKG_CONFIG] [--flags "FLAGS"]
# FLAGS are given to every consumer's compiler and linker: the sanitizer
# flags of a sanitizer build, which its libraries need and do not pass on.
set -euo pipefail

cmake=cmake build="" source="" cxx="" cc="" pkg_config=pkg-config flags=""
while [[ $# -gt 0 ]]; do
    case "$1" in
    --cmake) cmake=$2 ;;
    --build) build=$(cd "$2" && pwd) ;;
    --source) source=$(cd "$2" && pwd) ;;
    --cxx) cxx=$2 ;;
    --cc) cc=$2 ;;
    --pkg-config) pkg_config=$2 ;;
    --flags) flags=$2 ;;
    *) echo "install.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift 2
done
[[ -n "$build" && -n "$source" && -n "$cxx" ]] || { echo "usage: see the head of $0" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nettopo-api.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok:   $*"; }
# run LOG CMD...: runs CMD with its output in LOG; on failure shows the log.
run() {
    local log=$1 status=0
    shift
    "$@" >"$log" 2>&1 || status=$?
    if [[ $status -ne 0 ]]; then
        fail "$* (exit status $status):"
        sed 's/^/    /' "$log"
    fi
    return $status
}
finish() {
    if [[ $failures -gt 0 ]]; then
        echo "$failures check(s) failed"
        exit 1
    fi
    echo "all checks passed"
    exit 0
}

version=$(sed -nE 's/^project\(nettopo VERSION ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p' "$source/CMakeLists.txt")
tools=(nettopo-query nettopo-discover nettopo-gen nettopo-bench nettopo-balance)

# --- Install, then move the tree: nothing may depend on where it was installed.
first="$work/first"
run "$work/install.log" "$cmake" --install "$build" --prefix "$first" || finish
pc_first=$(find "$first" -name nettopo.pc -print -quit)
[[ -n "$pc_first" ]] || { fail "no nettopo.pc installed"; finish; }
prefix_first=$(PKG_CONFIG_LIBDIR=$(dirname "$pc_first") "$pkg_config" --variable=prefix nettopo)
if [[ "$(realpath "$prefix_first")" == "$first" ]]; then
    ok "nettopo.pc at the install prefix: prefix=$prefix_first"
else
    fail "nettopo.pc installed under $first says prefix=$prefix_first"
fi
prefix="$work/moved"
mv "$first" "$prefix"
pcdir=$(dirname "$(find "$prefix" -name nettopo.pc -print -quit)")
libdir=$(dirname "$pcdir")
export PKG_CONFIG_LIBDIR="$pcdir" # this nettopo.pc and no other .pc file
unset PKG_CONFIG_PATH
echo "installed tree (moved): $prefix, libdir ${libdir#"$prefix"/}"

# --- The tree.
expect_file() { [[ -f "$prefix/$1" ]] || fail "not installed: $1"; }
for tool in "${tools[@]}"; do
    [[ -x "$prefix/bin/$tool" ]] || fail "not installed: bin/$tool"
    expect_file "share/bash-completion/completions/$tool"
done
for page in "$source"/man/*.[157]; do
    expect_file "share/man/man${page##*.}/$(basename "$page")"
done
for doc in "$source"/share/doc/*.md "$source"/share/doc/*.svg; do
    expect_file "share/doc/nettopo/$(basename "$doc")"
done
expect_file share/doc/nettopo/README.md
expect_file share/nettopo/schema/nettopo-archive.xsd
while read -r f; do expect_file "share/nettopo/$f"; done < <(cd "$source/share" && find examples schema -type f)
for f in nettopoConfig.cmake nettopoConfigVersion.cmake nettopoTargets.cmake nettopoStaticTargets.cmake; do
    expect_file "${libdir#"$prefix"/}/cmake/nettopo/$f"
done
expect_file "${libdir#"$prefix"/}/libnettopo.a"
soname=$(readelf -d "$libdir/libnettopo.so" 2>/dev/null | sed -nE 's/.*\(SONAME\).*\[(.*)\]/\1/p')
[[ "$soname" == "libnettopo.so.${version%%.*}" ]] || fail "SONAME of libnettopo.so is '$soname'"
[[ "$(readlink "$libdir/libnettopo.so")" == "$soname" && "$(readlink "$libdir/$soname")" == "libnettopo.so.$version" &&
    -f "$libdir/libnettopo.so.$version" && ! -L "$libdir/libnettopo.so.$version" ]] ||
    fail "libnettopo.so -> $soname -> libnettopo.so.$version expected: $(ls -l "$libdir"/libnettopo*)"
# What issue 12 found broken: a static library that cannot go inside a plugin.
# shellcheck disable=SC2086 # a list of flags
run "$work/wrap.log" "$cxx" $flags -shared -o "$work/wrap.so" \
    -Wl,--whole-archive "$libdir/libnettopo.a" -Wl,--no-whole-archive &&
    ok "libnettopo.a links whole into a shared object (position-independent)"
grep -qx "#define NETTOPO_VERSION \"$version\"" "$prefix/include/nettopo/version.hpp" ||
    fail "include/nettopo/version.hpp does not define NETTOPO_VERSION \"$version\""
ok "tree: tools, libraries (SONAME $soname), package files, man pages, completions, docs, examples"

# --- Headers: the public ones (the API tier: lib/include/nettopo but its
# <layer>/detail/ folders), nothing from lib/src, tools/ or the detail tier,
# each usable from the installed include dir alone with a strict consumer's
# warnings.
(cd "$prefix/include" && find . -type f | sed 's|^\./||' | sort) >"$work/installed-headers"
{
    (cd "$source/lib/include" && find nettopo -type f \( -name '*.hpp' -o -name '*.h' \) -not -path '*/detail/*')
    echo nettopo/version.hpp
} | sort >"$work/public-headers"
if ! diff "$work/public-headers" "$work/installed-headers" >"$work/headers.diff"; then
    fail "installed headers differ from lib/include/nettopo but detail/ (+ version.hpp): < public only, > installed only"
    sed 's/^/    /' "$work/headers.diff"
fi
while read -r private; do
    if grep -q "/$(basename "$private")$" "$work/installed-headers"; then
        fail "an installed header has the name of a private one: $private"
    fi
done < <(cd "$source" && find lib/src tools lib/include/nettopo/*/detail -name '*.hpp' -o -name '*.h')
sed 's|.*|#include "&"|' "$work/installed-headers" >"$work/all_headers.cpp"
echo 'int main() { return 0; }' >>"$work/all_headers.cpp"
run "$work/headers.log" "$cxx" -std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
    -I"$prefix/include" "$work/all_headers.cpp" &&
    ok "$(wc -l <"$work/installed-headers") installed headers, all public, compile from the installed tree alone"
capi=no
if [[ -f "$prefix/include/nettopo/nettopo.h" ]]; then
    capi=yes
    if [[ -n "$cc" ]]; then
        printf '#include <nettopo/nettopo.h>\nint main(void) { return 0; }\n' >"$work/capi.c"
        run "$work/capi.log" "$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
            -I"$prefix/include" "$work/capi.c" && ok "nettopo/nettopo.h compiles as C99"
    fi
fi

# --- Nothing of nettopo's own build reaches a consumer: no warning or
# sanitizer flag, no compile or link options at all, no path of the build,
# the sources or the first prefix (what makes the tree relocatable).
failures_before=$failures
package_files=("$libdir"/cmake/nettopo/*.cmake "$pcdir/nettopo.pc")
if grep -nE -- '-W[a-z]|-fsanitize|nettopo_warnings|INTERFACE_COMPILE_OPTIONS|INTERFACE_LINK_OPTIONS' \
    "${package_files[@]}" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#' >"$work/leaks"; then
    fail "build flags in the installed package files:"
    sed 's/^/    /' "$work/leaks"
fi
if grep -rnF -e "$build" -e "$source" -e "$first" "$prefix/include" "$libdir/cmake" "$pcdir" \
    "$prefix/share/nettopo" >"$work/paths"; then
    fail "installed files name the build, the sources or the first prefix:"
    sed 's/^/    /' "$work/paths"
fi
[[ "$(realpath "$("$pkg_config" --variable=prefix nettopo)")" == "$prefix" ]] ||
    fail "nettopo.pc after the move says prefix=$("$pkg_config" --variable=prefix nettopo)"
for word in $("$pkg_config" --cflags --libs nettopo); do
    case "$word" in
    -I* | -L*) [[ "$(realpath -m "${word:2}")" == "$prefix"/* ]] || fail "pkg-config gives $word, outside $prefix" ;;
    esac
done
[[ $failures -eq $failures_before ]] &&
    ok "package files: no build flags, no build or source paths; nettopo.pc follows the moved tree ($("$pkg_config" --cflags --libs nettopo))"
cat >"$work/version-check.cmake" <<'EOF'
foreach(want 0.1 1.0)
  set(PACKAGE_FIND_VERSION ${want})
  string(REPLACE "." ";" parts ${want})
  list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
  include(${VERSION_FILE})
  message("${want} ${PACKAGE_VERSION} ${PACKAGE_VERSION_COMPATIBLE}")
endforeach()
EOF
"$cmake" -DVERSION_FILE="$libdir/cmake/nettopo/nettopoConfigVersion.cmake" -P "$work/version-check.cmake" \
    >"$work/version-check" 2>&1 || true
[[ "$(cat "$work/version-check")" == $'0.1 '"$version"$' TRUE\n1.0 '"$version"' FALSE' ]] ||
    fail "nettopoConfigVersion.cmake: expected $version, compatible with 0.1, not 1.0: $(cat "$work/version-check")"

# --- The examples' answers against the installed nettopo-query.
topo="$prefix/share/nettopo/examples/small-fattree.topo"
query="$prefix/bin/nettopo-query"
# expected OUTPUT: what the example should have printed, line by line, asked
# of nettopo-query (the line "hops 0 32: 2" is `nettopo-query hops 0 32`).
expected() {
    local line head answer
    while IFS= read -r line; do
        head=${line%%:*}
        # shellcheck disable=SC2086 # the query and its arguments
        answer=$("$query" -i "$topo" $head) || { echo "nettopo-query $head: failed"; continue; }
        case "$head" in
        distance*) [[ "$answer" == unreachable ]] && echo "$head: $answer" || echo "$head: $answer ns" ;;
        nearest*) echo "$head:$(awk '{printf "%s %s (%s ns)", (NR > 1 ? "," : ""), $1, $2}' <<<"$answer")" ;;
        *) echo "$head: $answer" ;;
        esac
    done <"$1"
}
# check_answers NAME OUTPUT: OUTPUT holds every kind of query, each as nettopo-query answers.
check_answers() {
    local kind
    for kind in num-pes num-machines proximity hops distance nearest; do
        grep -q "^$kind" "$2" || fail "$1 printed no $kind line: $(cat "$2")"
    done
    if expected "$2" >"$2.expected" && diff "$2.expected" "$2" >"$2.diff"; then
        ok "$1: $(wc -l <"$2") answers, as nettopo-query gives them"
    else
        fail "$1 disagrees with nettopo-query (< nettopo-query, > $1):"
        sed 's/^/    /' "$2.diff"
    fi
}
needs_libnettopo() { readelf -d "$1" | grep -q 'NEEDED.*\[libnettopo\.so'; }
# no_cmake_warning LOG: the package loads without a word from CMake.
no_cmake_warning() {
    if grep -q "CMake Warning" "$1"; then
        fail "CMake warns while configuring a consumer:"
        sed 's/^/    /' "$1"
    fi
}

# C++, libnettopo.so, found by find_package with the dependencies' packages
# hidden: a consumer of the shared library must not need their -dev packages.
cpp="$prefix/share/nettopo/examples/cpp"
if run "$work/cpp-shared.log" "$cmake" -S "$cpp" -B "$work/cpp-shared" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_fmt=ON -DCMAKE_DISABLE_FIND_PACKAGE_pugixml=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_yaml-cpp=ON &&
    run "$work/cpp-shared-build.log" "$cmake" --build "$work/cpp-shared"; then
    no_cmake_warning "$work/cpp-shared.log"
    grep -q "^nettopo_DIR:PATH=$libdir/cmake/nettopo$" "$work/cpp-shared/CMakeCache.txt" ||
        fail "find_package found another nettopo: $(grep nettopo_DIR "$work/cpp-shared/CMakeCache.txt")"
    # The consumer's compile line holds its own flags only.
    if grep '"command"' "$work/cpp-shared/compile_commands.json" | sed "s|${flags:-@none@}||" |
        grep -E -- '-W[a-z]|-fsanitize' >"$work/cpp-shared.flags"; then
        fail "nettopo's build flags in the consumer's compile line: $(cat "$work/cpp-shared.flags")"
    fi
    needs_libnettopo "$work/cpp-shared/example" || fail "the C++ example does not link libnettopo.so"
    "$work/cpp-shared/example" "$topo" >"$work/cpp-shared.out" 2>&1 || fail "C++ example (shared): exit $?"
    check_answers "C++ example, nettopo::nettopo" "$work/cpp-shared.out"
    "$work/cpp-shared/example" >"$work/cpp-default.out" 2>&1 || true
    cmp -s "$work/cpp-shared.out" "$work/cpp-default.out" ||
        fail "the C++ example without an argument does not read the installed small-fattree.topo: $(cat "$work/cpp-default.out")"
fi

# C++, libnettopo.a: its dependencies found by the package (hwloc through the
# system's pkg-config files), the consumer strict.
if run "$work/cpp-static.log" env -u PKG_CONFIG_LIBDIR "$cmake" -S "$cpp" -B "$work/cpp-static" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DEXAMPLE_STATIC=ON \
    -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror $flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF &&
    run "$work/cpp-static-build.log" "$cmake" --build "$work/cpp-static"; then
    no_cmake_warning "$work/cpp-static.log"
    needs_libnettopo "$work/cpp-static/example" && fail "the static C++ example needs libnettopo.so"
    "$work/cpp-static/example" "$topo" >"$work/cpp-static.out" 2>&1 || fail "C++ example (static): exit $?"
    check_answers "C++ example, nettopo::nettopo_static" "$work/cpp-static.out"
fi

# C, through pkg-config, once the C API is installed.
if [[ $capi == no ]]; then
    echo "skip: C example (no include/nettopo/nettopo.h installed yet)"
elif [[ -z "$cc" ]]; then
    fail "nettopo.h is installed but no C compiler was given (--cc)"
else
    cp -r "$prefix/share/nettopo/examples" "$work/examples"
    if run "$work/c-shared.log" make -C "$work/examples/c" CC="$cc" PKG_CONFIG="$pkg_config" \
        CFLAGS="-O2 -Wall -Wextra -Wpedantic -Werror $flags" LDFLAGS="$flags"; then
        needs_libnettopo "$work/examples/c/example" || fail "the C example does not link libnettopo.so"
        LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/examples/c/example" "$topo" \
            >"$work/c-shared.out" 2>&1 || fail "C example (shared): exit $?"
        check_answers "C example, pkg-config" "$work/c-shared.out"
        cmp -s "$work/c-shared.out" "$work/cpp-shared.out" || fail "the C and C++ examples print different answers"
    fi
    # Static: libnettopo.a chosen for -lnettopo, its dependencies from Libs.private.
    static_libs=$("$pkg_config" --static --libs nettopo | sed 's/-lnettopo\b/-Wl,-Bstatic -lnettopo -Wl,-Bdynamic/')
    # shellcheck disable=SC2086,SC2046 # lists of flags
    if run "$work/c-static.log" "$cc" -std=c99 -O2 -Wall -Wextra -Wpedantic -Werror $flags \
        $("$pkg_config" --cflags nettopo) -o "$work/c-static" "$work/examples/c/example.c" $static_libs; then
        needs_libnettopo "$work/c-static" && fail "the static C example needs libnettopo.so"
        "$work/c-static" "$topo" >"$work/c-static.out" 2>&1 || fail "C example (static): exit $?"
        check_answers "C example, pkg-config --static" "$work/c-static.out"
    fi
fi

# Python: the module the build installed (when it built one, for Debian's
# /usr/bin/python3), imported from the moved tree alone, asked what the
# examples ask; its batch answers must equal its single ones.
pymodule=$(find "$prefix/lib/python3/dist-packages" -maxdepth 1 -name 'nettopo*.so' 2>/dev/null | head -n 1)
if [[ -z "$pymodule" ]]; then
    echo "skip: no Python module installed (the build had no pybind11 or NumPy)"
elif ! [[ -x /usr/bin/python3 ]]; then
    fail "a Python module is installed ($pymodule) but /usr/bin/python3 is missing"
else
    # The sanitizer build's module needs its runtimes loaded first.
    preload=""
    if [[ "$flags" == *-fsanitize=* ]]; then
        preload="$("$cxx" -print-file-name=libasan.so) $("$cxx" -print-file-name=libubsan.so)"
    fi
    if env -i PATH=/usr/bin:/bin PYTHONPATH="$prefix/lib/python3/dist-packages" \
        LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 \
        /usr/bin/python3 - "$topo" >"$work/python.out" 2>&1 <<'PY'; then
import sys
import numpy
import nettopo

def ns(v):
    text = repr(v)
    return text[:-2] if text.endswith(".0") else text

assert nettopo.__file__.startswith(sys.path[1]) or "dist-packages" in nettopo.__file__, nettopo.__file__
t = nettopo.load(sys.argv[1])
n = t.num_pes
print(f"num-pes: {n}")
print(f"num-machines: {t.num_machines}")
others = [o for o in sorted({1, 2, 16, 32, n - 1}) if o < n]
pairs = numpy.array([[0, o] for o in others], dtype=numpy.int64)
batch_ns, batch_hops = t.distances(pairs), t.hop_counts(pairs)
for i, o in enumerate(others):
    hops, dist = t.hops(0, o), t.distance(0, o)
    assert batch_hops[i] == (-1 if hops is None else hops), (o, batch_hops[i], hops)
    assert (numpy.isnan(batch_ns[i]) and dist is None) or batch_ns[i] == dist, (o, batch_ns[i], dist)
    print(f"proximity 0 {o}: {t.proximity(0, o)}")
    print(f"hops 0 {o}: {'unreachable' if hops is None else hops}")
    print(f"distance 0 {o}: {'unreachable' if dist is None else ns(dist) + ' ns'}")
print("nearest 0 3: " + ", ".join(f"{pe} ({ns(d)} ns)" for pe, d in t.nearest(0, 3)))
PY
        check_answers "Python module, import nettopo" "$work/python.out"
    else
        fail "the installed Python module: $(cat "$work/python.out")"
    fi
fi

finish

#!/bin/sh
# Runs a Mono program with every method compiled ahead of time and no JIT,
# as Unity's IL2CPP and iOS builds run code: code that needs a JIT (a
# generic virtual method over a value type the compiler could not see,
# Reflection.Emit, dynamic) fails here with ExecutionEngineException on the
# desktop, instead of on a device.
#
#   sh full-aot.sh [--cache DIR] [--compile-only | --framework-only] PROGRAM.exe [ARGS...]
#
# Needs Mono (`mono`, `mcs`) and the assembler and linker `mono --aot` calls
# (binutils). What it does, the recipe:
#
# 1. Lists the assemblies PROGRAM references, transitively, with a small
#    reflection-only helper (compiled once with mcs).
# 2. Copies each framework assembly (mscorlib, System, ...) into the cache,
#    DIR/<mono version>/, and compiles the copy with `mono --aot=full`, with
#    MONO_PATH set to that folder, so each image is built against the copies
#    beside it. The installed framework is never compiled in place: an image
#    built there, or built against other copies, is what `mono --full-aot`
#    then refuses with "Failed to load AOT module ...". Minutes the first
#    time; later runs reuse the cache (per Mono version; an assembly that
#    changed is compiled again).
# 3. Compiles PROGRAM and the assemblies beside it that it references
#    (Pkt.Runtime.dll, your generated protocol assembly...) with
#    `mono --aot=full`; their images go beside them.
# 4. Runs `mono --full-aot PROGRAM ARGS` with MONO_PATH=<cache>:<program's
#    folder> and exits with its status. With --compile-only it stops after
#    step 3, with --framework-only after step 2, and prints the cache folder
#    to put first in MONO_PATH.
#
# The cache is DIR/<mono version> with --cache DIR, else under
# $PKT_FULL_AOT_CACHE, else $XDG_CACHE_HOME/pktc-full-aot (~/.cache/...).
# Progress goes to standard error; standard output is the program's.
#
# This folder ends in `~`, so Unity does not import it.

set -eu

usage() {
    echo "usage: full-aot.sh [--cache DIR] [--compile-only | --framework-only] PROGRAM.exe [ARGS...]" >&2
    exit 2
}

cache_root=${PKT_FULL_AOT_CACHE:-${XDG_CACHE_HOME:-${HOME:-.}/.cache}/pktc-full-aot}
compile_only=false
framework_only=false
while [ $# -gt 0 ]; do
    case $1 in
        --cache)
            [ $# -ge 2 ] || usage
            cache_root=$2
            shift 2
            ;;
        --compile-only)
            compile_only=true
            shift
            ;;
        --framework-only)
            framework_only=true
            shift
            ;;
        --help | -h) usage ;;
        --) shift; break ;;
        -*) echo "full-aot.sh: unknown option $1" >&2; usage ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || usage
program=$1
shift
[ -f "$program" ] || { echo "full-aot.sh: no such program: $program" >&2; exit 2; }
for tool in mono mcs; do
    command -v "$tool" > /dev/null 2>&1 || {
        echo "full-aot.sh: $tool not found; install Mono (mono-complete, or mono-devel)" >&2
        exit 2
    }
done

abs() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd -P)" "$(basename "$1")"); }
program=$(abs "$program")
program_dir=$(dirname "$program")

# One folder per Mono build: the first line of `mono --version`, letters,
# digits and dots kept, anything else `_`, at most 100 characters.
version=$(mono --version | head -n 1 | LC_ALL=C sed 's/[^A-Za-z0-9.]/_/g' | cut -c 1-100)
mkdir -p "$cache_root/$version"
framework=$(cd "$cache_root/$version" && pwd -P)

# One process builds the cache at a time (the lock holds its pid; a lock
# whose process is gone, or older than 30 minutes, is taken over).
lock=$framework/.lock
waited=0
until (set -C; echo $$ > "$lock") 2> /dev/null; do
    holder=$(cat "$lock" 2> /dev/null || true)
    if [ -n "$holder" ] && [ -d /proc ] && [ ! -d "/proc/$holder" ]; then
        rm -f "$lock"
        continue
    fi
    if [ -n "$(find "$lock" -mmin +30 2> /dev/null)" ]; then
        rm -f "$lock"
        continue
    fi
    if [ "$waited" -eq 0 ]; then
        echo "full-aot.sh: waiting for another build of $framework" >&2
    fi
    waited=1
    sleep 1
done
trap 'rm -f "$lock"' EXIT
trap 'exit 130' INT TERM

# Step 1: the helper that lists references, in a folder of its own so that
# it resolves them to the installed framework, not to the cached copies.
helper=$framework/references
if [ ! -f "$helper/References.exe" ]; then
    mkdir -p "$helper"
    cat > "$helper/References.cs" << 'EOF'
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;

static class References
{
    static int Main(string[] args)
    {
        var dirs = new List<string>();
        var seen = new HashSet<string>();
        var todo = new Stack<Assembly>();
        foreach (var path in args)
        {
            dirs.Add(Path.GetDirectoryName(Path.GetFullPath(path)));
            todo.Push(Assembly.ReflectionOnlyLoadFrom(path));
        }
        while (todo.Count > 0)
        {
            foreach (var name in todo.Pop().GetReferencedAssemblies())
            {
                if (!seen.Add(name.FullName)) continue;
                var found = Load(name, dirs);
                Console.WriteLine(found.Location);
                todo.Push(found);
            }
        }
        return 0;
    }

    // The framework from the GAC; the program's own libraries from beside it.
    static Assembly Load(AssemblyName name, List<string> dirs)
    {
        try
        {
            return Assembly.ReflectionOnlyLoad(name.FullName);
        }
        catch (FileNotFoundException)
        {
            foreach (var dir in dirs)
            {
                foreach (var ext in new[] { ".dll", ".exe" })
                {
                    var path = Path.Combine(dir, name.Name + ext);
                    if (File.Exists(path)) return Assembly.ReflectionOnlyLoadFrom(path);
                }
            }
            throw;
        }
    }
}
EOF
    mcs -nologo -out:"$helper/References.exe.tmp" "$helper/References.cs" >&2
    mv "$helper/References.exe.tmp" "$helper/References.exe"
fi

aot() {
    # `mono --aot=full` prints its progress on standard output.
    echo "full-aot.sh: mono --aot=full $1" >&2
    if ! MONO_PATH=$2 mono --aot=full "$1" > "$1.aot.log" 2>&1; then
        cat "$1.aot.log" >&2
        echo "full-aot.sh: mono --aot=full $1 failed" >&2
        exit 1
    fi
    rm -f "$1.aot.log"
    [ -f "$1.so" ] || { echo "full-aot.sh: mono --aot=full wrote no $1.so" >&2; exit 1; }
}

listed=$(cd "$helper" && env -u MONO_PATH mono "$helper/References.exe" "$program")
own="$program"
# Step 2: the framework, into the cache; step 3 collects the program's own.
old_ifs=$IFS
IFS='
'
for path in $listed; do
    [ -n "$path" ] || continue
    if [ "$(dirname "$path")" = "$program_dir" ]; then
        own="$own
$path"
        continue
    fi
    copy=$framework/$(basename "$path")
    if [ -f "$copy.so" ] && cmp -s "$path" "$copy"; then
        continue
    fi
    rm -f "$copy.so"
    cp "$path" "$copy"
    aot "$copy" "$framework"
done
IFS=$old_ifs
rm -f "$lock"
trap - EXIT
if $framework_only; then
    echo "$framework"
    exit 0
fi
# Step 3.
IFS='
'
for path in $own; do
    aot "$path" "$framework:$program_dir"
done
IFS=$old_ifs
if $compile_only; then
    echo "$framework"
    exit 0
fi
# Step 4.
MONO_PATH=$framework:$program_dir exec mono --full-aot "$program" "$@"

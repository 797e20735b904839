#!/usr/bin/env bash
# docs/architecture.md's two code rules, checked against the code. Each rule's files are the
# backquoted paths of a list between markers in the doc; the code must match the list exactly,
# so a new file breaking a rule fails here until the doc names it (and says why).
#   <!-- platform-ifs -->: the product files with an #if/#elif on the ISA, the OS or the
#     object format (__x86_64__, __aarch64__, __linux__, _WIN32, __APPLE__, __ELF__,
#     GLINT_CONFIG_ARCH_*, GLINT_CONFIG_OS_*).
#   <!-- direct-system-calls -->: the product files that call the OS themselves rather than
#     through os/linux/sys.hpp's seam (string literals and comments are not calls).
# Usage: architecture.sh <source dir> [doc]   (the doc defaults to <source dir>/docs/architecture.md)
set -euo pipefail
src=$1 doc=${2:-$1/docs/architecture.md}
cd "$src"
product=()
for dir in engine os arch catalog tools; do [ -d "$dir" ] && product+=("$dir"); done

# The backquoted paths between <!-- NAME --> and <!-- /NAME --> in the doc, sorted.
listed() {
  awk -v name="$1" '$0 == "<!-- " name " -->" { on = 1; next }
                    $0 == "<!-- /" name " -->" { on = 0 } on' "$doc" |
    { grep -oE '`[A-Za-z0-9_./-]+/[A-Za-z0-9_./-]+`' || true; } | tr -d '`' | sort -u
}
# The product sources whose code (comments and string literals removed) matches a Perl regex.
matching() {
  find "${product[@]}" \( -name '*.cpp' -o -name '*.hpp' \) | sort | while read -r file; do
    perl -0777 -ne '
      s{//[^\n]*}{}g; s{/\*.*?\*/}{}gs; s{"(?:[^"\\\n]|\\.)*"}{""}g;
      exit(/'"$1"'/m ? 0 : 1)' "$file" && echo "$file" || true
  done
}
status=0
check() {
  local name=$1 what=$2 regex=$3 expected actual
  expected=$(listed "$name")
  [ -n "$expected" ] || { echo "$doc has no list between <!-- $name --> and <!-- /$name -->"; exit 1; }
  actual=$(matching "$regex")
  if [ "$expected" != "$actual" ]; then
    echo "$what: the code and $doc's list <!-- $name --> differ"
    diff <(echo "$expected") <(echo "$actual") | sed -n 's/^</  listed, not in the code:/p; s/^>/  in the code, not listed:/p' || true
    status=1
  else
    echo "$what: $(wc -l <<< "$actual") files, as the doc lists"
  fi
}
platform='\b(__x86_64__|__aarch64__|__linux__|_WIN32|_WIN64|__APPLE__|__ELF__|GLINT_CONFIG_ARCH_\w+|GLINT_CONFIG_OS_\w+)\b'
check platform-ifs "#if on the ISA, OS or object format" "^[ \\t]*#[ \\t]*(if|elif)\\b[^\\n]*$platform"
calls='open|openat|read|write|close|fork|vfork|ioctl|mmap|munmap|syscall|pread|pwrite|fstat|lstat|stat|waitpid|kill|killpg|execv|execvp|execve|pipe|pipe2|dup|dup2|readlink|unlink|unlinkat|rename|renameat|fsync|fdatasync|lseek|ftruncate|mkdir|mkdirat|fcntl|flock|poll|sigaction|prctl|setrlimit|getrlimit|clock_gettime|getrusage|sched_setaffinity|sched_getaffinity|opendir|fchmod|fchown|chdir|setpgid|getpgid'
distinct='perf_event_open|clock_gettime|getrusage|sched_setaffinity|sched_getaffinity|mmap|munmap|ioctl|fork|vfork|waitpid|kill|killpg|execvp?e?|sigaction|prctl|syscall|posix_spawnp?'
check direct-system-calls "system calls outside os/linux/sys.hpp's seam" \
  "(?<![A-Za-z0-9_>.])::($calls)\\s*\\(|(?<![A-Za-z0-9_>.:])($distinct)\\s*\\("
exit $status

# Sourced by the bench scripts (lint_tree.sh, lint_project.sh); $WORK is the
# run's scratch directory.
# measure NAME <command...>: appends the run's wall seconds to NAME.t, its
# CPU seconds (user + system) to NAME.cpu and its peak RSS (KB; for
# run-clang-tidy its largest clang-tidy) to NAME.rss; the output goes to NAME.out.
measure() {
  local name=$1
  shift
  /usr/bin/time -f "%e %M %U %S" -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>&1 || true
  tail -1 "$WORK/$name.time" | cut -d' ' -f1 >>"$WORK/$name.t"
  tail -1 "$WORK/$name.time" | cut -d' ' -f2 >>"$WORK/$name.rss"
  tail -1 "$WORK/$name.time" | awk '{print $3 + $4}' >>"$WORK/$name.cpu"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

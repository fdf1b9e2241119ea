# Sourced by the benchmark scripts (not a command of its own).

# The median of the numbers on standard input, one a line.
median() {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# The muster binary to measure: $MUSTER where it is set (scripts/build-pgo's, say), else
# cargo's release build, built now. Fails (status 2, with a message) where $MUSTER names
# no binary: `bin=$(muster_binary)` stops a script run with `set -e`.
muster_binary() {
  if [ -z "${MUSTER:-}" ]; then
    cargo build --release --quiet >&2
    echo target/release/muster
  elif [ -x "$MUSTER" ]; then
    echo "$MUSTER"
  else
    echo "error: no muster binary at $MUSTER" >&2
    return 2
  fi
}

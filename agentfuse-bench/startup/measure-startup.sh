#!/usr/bin/env bash
# Cold start to the first answered request, and resident memory idle and under load, of
# `agentfuse serve` (the figures the issue compares with GoModel, Portkey, Bifrost and LiteLLM).
# Measures on a quiet machine: the other processes' CPU lengthens a cold start directly.
#
#   agentfuse-bench/startup/measure-startup.sh
#
# Environment (defaults in brackets):
#   RUNS [5]                 fresh gateway processes measured, one after the other
#   LOAD [2000]              requests sent after the idle reading, CONCURRENCY at a time, for the peak RSS
#   CONCURRENCY [8]
#   IDLE_SECONDS [5]         how long the gateway idles after its first answer before the idle RSS is read
#   AGENTFUSE_JAVA_OPTS      the README's flags ["-Xms128m -Xmx128m -XX:+UseSerialGC"]
#   AGENTFUSE_JAVA           the java launcher [java on the PATH]
#   AGENTFUSE_JAR            the jar measured [agentfuse-cli/target/agentfuse.jar]
#   CDS [0]                  1: first a training run writes an application class-data archive
#                            (-XX:ArchiveClassesAtExit), then every measured run uses it (-XX:SharedArchiveFile)
#   OUT                      logs, configuration and archive [agentfuse-bench/target/startup]
#
# The upstream is the jar's own mock provider (`mock-provider`), in a JVM of its own started once.
# "Cold start" is from the moment the gateway's JVM is started to the moment the first
# POST /v1/chat/completions (polled every 10 ms from the start) is answered 200. RSS is the
# kernel's (VmRSS; VmHWM for the peak, over the whole life of the process). Needs curl.
# Prints one line per run and the medians.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
RUNS=${RUNS:-5}
LOAD=${LOAD:-2000}
CONCURRENCY=${CONCURRENCY:-8}
IDLE_SECONDS=${IDLE_SECONDS:-5}
AGENTFUSE_JAVA_OPTS=${AGENTFUSE_JAVA_OPTS:-"-Xms128m -Xmx128m -XX:+UseSerialGC"}
AGENTFUSE_JAVA=${AGENTFUSE_JAVA:-java}
AGENTFUSE_JAR=${AGENTFUSE_JAR:-"$ROOT/agentfuse-cli/target/agentfuse.jar"}
CDS=${CDS:-0}
OUT=$(realpath -m "${OUT:-"$ROOT/agentfuse-bench/target/startup"}")
PIDS=()

die() { echo "measure-startup: $*" >&2; exit 1; }
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

command -v curl >/dev/null || die "curl is missing (apt-get install -y curl)"
[[ -f $AGENTFUSE_JAR ]] || die "no $AGENTFUSE_JAR: build it with ./mvnw -B -q -DskipTests package"
mkdir -p "$OUT"

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
rss_mib() { awk -v key="$2:" '$1 == key { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# The line of FILE matching PATTERN, waiting up to 60 s for it (the process PID must stay alive).
await_line() {
  local file=$1 pattern=$2 pid=$3
  for _ in $(seq 6000); do
    if grep -qE "$pattern" "$file" 2>/dev/null; then grep -oE "$pattern" "$file" | head -1; return; fi
    kill -0 "$pid" 2>/dev/null || die "process $pid ended before printing /$pattern/; see $file"
    sleep 0.01
  done
  die "no /$pattern/ in $file within 60 s"
}

# The upstream: the jar's mock provider.
"$AGENTFUSE_JAVA" -Xmx256m -jar "$AGENTFUSE_JAR" mock-provider --port 0 >"$OUT/mock.log" 2>&1 &
PIDS+=($!)
MOCK_URL=$(await_line "$OUT/mock.log" 'http://127\.0\.0\.1:[0-9]+/v1' "${PIDS[0]}")
cat >"$OUT/agentfuse.yaml" <<YAML
server: { port: 0, drainDelay: 0s, shutdownGrace: 5s }
providers:
  openai: { type: openai, baseUrl: "$MOCK_URL", apiKey: "sk-startup" }
models:
  gpt-4o-mini: { provider: openai }
YAML
REQUEST='{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}]}'

post() { curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' -d "$REQUEST" "$1/v1/chat/completions" || true; }

# One gateway process from start to SIGTERM; prints "cold_ms idle_mib peak_mib" (EXTRA: more JVM flags).
measure() {
  local log=$1 extra=$2 started pid url first idle peak
  started=$(now_ms)
  # shellcheck disable=SC2086
  "$AGENTFUSE_JAVA" $AGENTFUSE_JAVA_OPTS $extra -jar "$AGENTFUSE_JAR" serve --config "$OUT/agentfuse.yaml" >"$log" 2>&1 &
  pid=$!
  PIDS+=("$pid")
  url=$(await_line "$log" 'http://127\.0\.0\.1:[0-9]+' "$pid")
  until [[ $(post "$url") == 200 ]]; do
    kill -0 "$pid" 2>/dev/null || die "the gateway ended before answering; see $log"
    sleep 0.01
  done
  first=$(( $(now_ms) - started ))
  sleep "$IDLE_SECONDS"
  idle=$(rss_mib "$pid" VmRSS)
  seq "$LOAD" | xargs -P "$CONCURRENCY" -I{} curl -s -o /dev/null -H 'content-type: application/json' \
    -d "$REQUEST" "$url/v1/chat/completions"
  peak=$(rss_mib "$pid" VmHWM)
  kill -TERM "$pid"
  wait "$pid" || die "the gateway did not exit with 0; see $log"
  echo "$first $idle $peak"
}

extra=""
if [[ $CDS == 1 ]]; then
  archive="$OUT/agentfuse.jsa"
  rm -f "$archive"
  echo "training run: writing the class-data archive $archive"
  measure "$OUT/training.log" "-XX:ArchiveClassesAtExit=$archive" >/dev/null
  [[ -f $archive ]] || die "the training run wrote no archive; see $OUT/training.log"
  extra="-XX:SharedArchiveFile=$archive"
fi

echo "agentfuse serve, $AGENTFUSE_JAVA_OPTS${extra:+ $extra}; $RUNS runs; load $LOAD requests, $CONCURRENCY at a time"
results=()
for run in $(seq "$RUNS"); do
  read -r cold idle peak < <(measure "$OUT/run-$run.log" "$extra")
  printf 'run %d: cold start to first answer %5d ms   idle RSS %6s MiB   peak RSS %6s MiB\n' "$run" "$cold" "$idle" "$peak"
  results+=("$cold $idle $peak")
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf 'median: cold start to first answer %s ms   idle RSS %s MiB   peak RSS %s MiB\n' \
  "$(printf '%s\n' "${results[@]}" | cut -d' ' -f1 | median)" \
  "$(printf '%s\n' "${results[@]}" | cut -d' ' -f2 | median)" \
  "$(printf '%s\n' "${results[@]}" | cut -d' ' -f3 | median)"

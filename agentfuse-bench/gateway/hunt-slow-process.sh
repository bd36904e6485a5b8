#!/usr/bin/env bash
# Looks for the agentfuse process that runs slow for its whole life (RESULTS.md, runs 50–53): starts
# PROCESSES gateways of one jar in turn, takes each through the gateway bench's sequence for the small
# request (10 s at 32 connections, 20 s at 1, 20 s at 8, 5 s at 32), then measures 10 s at 32 connections
# with a CPU profile of all its threads, and right after it the Vert.x floor for 10 s as the host's
# control. Prints per process its CPU per request, the floor's, their ratio and the share of the
# process's samples its JIT compiler threads took while measured; keeps each profile
# (OUT/process-N.collapsed) and the compiled-code list (OUT/process-N.codelist).
#
#   agentfuse-bench/gateway/hunt-slow-process.sh
#
# Environment: PROCESSES=4, AGENTFUSE_JAR, AGENTFUSE_JAVA_OPTS (the README's flags), OUT
# [agentfuse-bench/target/slow-process]. Needs the built jars and wrk; async-profiler comes from
# measure-cost.sh's copy (run it once with PROFILE=... first).
#
# What a ratio means depends on the host's phase; what does not: a process whose compiler threads
# still take a tenth of its samples a minute after start (one of four did, 12 % against 4 %, on
# 2026-12-03) is compiling while it serves, and a process slow for its whole life would show it in
# every window.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PROCESSES=${PROCESSES:-4}
AGENTFUSE_JAR=${AGENTFUSE_JAR:-"$ROOT/agentfuse-cli/target/agentfuse.jar"}
AGENTFUSE_JAVA_OPTS=${AGENTFUSE_JAVA_OPTS:-"-Xms128m -Xmx128m -XX:+UseSerialGC"}
OUT=$(realpath -m "${OUT:-"$ROOT/agentfuse-bench/target/slow-process"}")
BENCH_JAR="$ROOT/agentfuse-bench/target/benchmarks.jar"
LUA="$ROOT/agentfuse-bench/gateway/chat-completion.lua"
PROFILER_LIB="$ROOT/agentfuse-bench/target/gateway-cost/async-profiler/linux-x64/libasyncProfiler.so"
PIDS=()

die() { echo "hunt-slow-process: $*" >&2; exit 1; }
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for_port() { for _ in $(seq 300); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.1; done; die "no listener on $1"; }
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
# bench_config PORT: the benchmark's gateway configuration (agentfuse-bench.yaml) for PORT, on the upstream.
bench_config() { sed -e "s/@PORT@/$1/" -e "s/@UPSTREAM_PORT@/$UPSTREAM_PORT/" "$ROOT/agentfuse-bench/gateway/agentfuse-bench.yaml"; }
load() { wrk -t"$(($2 < 2 ? $2 : 2))" -c"$2" -d"$3s" -s "$LUA" "http://127.0.0.1:$1/v1/chat/completions"; }
# window PID PORT: 10 s at 32 connections; prints the CPU per request in microseconds.
window() {
  local before after requests
  before=$(cpu_ticks "$1")
  load "$2" 32 10 >"$OUT/wrk.txt"
  after=$(cpu_ticks "$1")
  requests=$(awk '/^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "requests") print kv[2] } }' "$OUT/wrk.txt")
  awk -v r="$requests" -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz * 1e6 / r }'
}

[[ -f $BENCH_JAR && -f $AGENTFUSE_JAR ]] || die "build first: ./mvnw -q -DskipTests package"
[[ -f $PROFILER_LIB ]] || die "no async-profiler at $PROFILER_LIB: run measure-cost.sh once with PROFILE=FILE"
command -v wrk >/dev/null || die "wrk is needed"
mkdir -p "$OUT"
UPSTREAM_PORT=$(free_port)
java -Xms64m -Xmx256m -XX:+UseSerialGC -cp "$BENCH_JAR" io.agentfuse.bench.gateway.FixedAnswerUpstream "$UPSTREAM_PORT" \
  >"$OUT/upstream.log" 2>&1 &
PIDS+=($!)
wait_for_port "$UPSTREAM_PORT"

for n in $(seq "$PROCESSES"); do
  port=$(free_port)
  bench_config "$port" >"$OUT/agentfuse.yaml"
  # shellcheck disable=SC2086 # the JVM flags are words
  java $AGENTFUSE_JAVA_OPTS -jar "$AGENTFUSE_JAR" serve --config "$OUT/agentfuse.yaml" --port "$port" \
    >"$OUT/process-$n.log" 2>&1 &
  gateway=$!
  PIDS+=("$gateway")
  wait_for_port "$port"
  load "$port" 32 10 >/dev/null
  load "$port" 1 20 >/dev/null
  load "$port" 8 20 >/dev/null
  load "$port" 32 5 >/dev/null
  jcmd "$gateway" JVMTI.agent_load "$PROFILER_LIB" '"start,event=cpu,interval=997us,threads"' | grep -q "return code: 0" \
    || die "async-profiler did not start"
  agentfuse_us=$(window "$gateway" "$port")
  jcmd "$gateway" JVMTI.agent_load "$PROFILER_LIB" "\"stop,collapsed,file=$OUT/process-$n.collapsed\"" >/dev/null
  jcmd "$gateway" Compiler.codelist >"$OUT/process-$n.codelist" 2>&1 || true
  kill "$gateway"; wait "$gateway" 2>/dev/null || true

  floor_port=$(free_port)
  # shellcheck disable=SC2086
  java $AGENTFUSE_JAVA_OPTS -cp "$BENCH_JAR" io.agentfuse.bench.gateway.VertxFloorProxy "$floor_port" "$UPSTREAM_PORT" \
    >"$OUT/floor-$n.log" 2>&1 &
  floor=$!
  PIDS+=("$floor")
  wait_for_port "$floor_port"
  load "$floor_port" 32 5 >/dev/null
  floor_us=$(window "$floor" "$floor_port")
  kill "$floor"; wait "$floor" 2>/dev/null || true

  compiler=$(awk '{ n = $NF; t += n; if ($0 ~ /^\[C[12] CompilerThre/) c += n } END { printf "%.1f", t ? 100 * c / t : 0 }' \
    "$OUT/process-$n.collapsed")
  awk -v n="$n" -v a="$agentfuse_us" -v f="$floor_us" -v c="$compiler" \
    'BEGIN { printf "process %d: agentfuse %.2f us/request, floor %.2f, ratio %.2f; compiler threads %s %% of its samples\n", n, a, f, a / f, c }'
done

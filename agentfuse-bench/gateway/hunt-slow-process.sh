#!/usr/bin/env bash
# Looks for the agentfuse process that runs slow for its whole life (RESULTS.md, runs 50–53): starts
# PROCESSES gateways of one jar in turn, takes each through the gateway bench's sequence for the small
# request (10 s at 32 connections, 20 s at 1, 20 s at 8, 5 s at 32), then measures it at 32 connections
# in WINDOWS windows of 5 s, each followed by a 5 s window of the Vert.x floor proxy (started beside it)
# as the host's control, so a slow host phase slows both. Prints per process its CPU per request, the
# floor's, their ratio per window pair and over all, the process's voluntary context switches per
# request, the host's steal time while measured and the share of the process's samples its JIT
# compiler threads took; keeps each profile (OUT/process-N.collapsed, all threads, taken over the
# process's windows) and the compiled-code list (OUT/process-N.codelist).
#
#   agentfuse-bench/gateway/hunt-slow-process.sh
#
# Environment: PROCESSES=4, WINDOWS=4, AGENTFUSE_JAR, AGENTFUSE_JAVA_OPTS (the README's flags), OUT
# [agentfuse-bench/target/slow-process], PROFILE=1 (0: no profile; attaching async-profiler makes
# HotSpot recompile, which would cure a process whose compiled code is what makes it slow before its
# windows are measured: RESULTS.md, run 58). Needs the built jars and wrk; async-profiler comes from
# measure-cost.sh's copy (run it once with PROFILE=... first).
#
# A process slow for its whole life has a ratio above the others' in every window pair; a host
# phase moves a pair's two windows together, or one window alone (then the pairs disagree).
# Findings so far are in RESULTS.md ("the slow process").
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PROCESSES=${PROCESSES:-4}
WINDOWS=${WINDOWS:-4}
AGENTFUSE_JAR=${AGENTFUSE_JAR:-"$ROOT/agentfuse-cli/target/agentfuse.jar"}
AGENTFUSE_JAVA_OPTS=${AGENTFUSE_JAVA_OPTS:-"-Xms128m -Xmx128m -XX:+UseSerialGC"}
OUT=$(realpath -m "${OUT:-"$ROOT/agentfuse-bench/target/slow-process"}")
BENCH_JAR="$ROOT/agentfuse-bench/target/benchmarks.jar"
LUA="$ROOT/agentfuse-bench/gateway/chat-completion.lua"
PROFILER_LIB="$ROOT/agentfuse-bench/target/gateway-cost/async-profiler/linux-x64/libasyncProfiler.so"
PROFILE=${PROFILE:-1}
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
steal_ticks() { awk '/^cpu / { print $9 }' /proc/stat; }
switches() { cat "/proc/$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n }'; }
# window PID PORT: 5 s at 32 connections; prints the requests served and the process's CPU ticks and
# voluntary context switches meanwhile.
window() {
  local ticks switched
  ticks=$(cpu_ticks "$1")
  switched=$(switches "$1")
  load "$2" 32 5 >"$OUT/wrk.txt"
  awk '/^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "requests") printf "%s ", kv[2] } }' \
    "$OUT/wrk.txt"
  echo "$(($(cpu_ticks "$1") - ticks)) $(($(switches "$1") - switched))"
}
# us REQUESTS TICKS: CPU microseconds per request.
us() { awk -v r="$1" -v t="$2" -v hz="$HZ" 'BEGIN { printf "%.2f", t / hz * 1e6 / r }'; }

[[ -f $BENCH_JAR && -f $AGENTFUSE_JAR ]] || die "build first: ./mvnw -q -DskipTests package"
[[ $PROFILE == 0 || -f $PROFILER_LIB ]] || die "no async-profiler at $PROFILER_LIB: run measure-cost.sh once with PROFILE=FILE"
command -v wrk >/dev/null || die "wrk is needed"
mkdir -p "$OUT"
UPSTREAM_PORT=$(free_port)
java -Xms64m -Xmx256m -XX:+UseSerialGC -cp "$BENCH_JAR" io.agentfuse.bench.gateway.FixedAnswerUpstream "$UPSTREAM_PORT" \
  >"$OUT/upstream.log" 2>&1 &
PIDS+=($!)
wait_for_port "$UPSTREAM_PORT"

HZ=$(getconf CLK_TCK)
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

  floor_port=$(free_port)
  # shellcheck disable=SC2086
  java $AGENTFUSE_JAVA_OPTS -cp "$BENCH_JAR" io.agentfuse.bench.gateway.VertxFloorProxy "$floor_port" "$UPSTREAM_PORT" \
    >"$OUT/floor-$n.log" 2>&1 &
  floor=$!
  PIDS+=("$floor")
  wait_for_port "$floor_port"
  load "$floor_port" 32 10 >/dev/null

  if [[ $PROFILE != 0 ]]; then
    jcmd "$gateway" JVMTI.agent_load "$PROFILER_LIB" '"start,event=cpu,interval=997us,threads"' | grep -q "return code: 0" \
      || die "async-profiler did not start"
  fi
  totals=(0 0 0 0 0 0) # agentfuse requests, ticks, switches; floor requests, ticks, switches
  pairs=""
  steal=$(steal_ticks)
  for _ in $(seq "$WINDOWS"); do
    read -r ar at as < <(window "$gateway" "$port")
    read -r fr ft fs < <(window "$floor" "$floor_port")
    totals=($((totals[0] + ar)) $((totals[1] + at)) $((totals[2] + as)) $((totals[3] + fr)) $((totals[4] + ft)) $((totals[5] + fs)))
    pairs+=" $(awk -v a="$(us "$ar" "$at")" -v f="$(us "$fr" "$ft")" 'BEGIN { printf "%.2f", a / f }')"
  done
  steal=$(($(steal_ticks) - steal))
  compiler=n/a
  if [[ $PROFILE != 0 ]]; then
    jcmd "$gateway" JVMTI.agent_load "$PROFILER_LIB" "\"stop,collapsed,file=$OUT/process-$n.collapsed\"" >/dev/null
    compiler=$(awk '{ n = $NF; t += n; if ($0 ~ /^\[C[12] CompilerThre/) c += n } END { printf "%.1f", t ? 100 * c / t : 0 }' \
      "$OUT/process-$n.collapsed")
  fi
  jcmd "$gateway" Compiler.codelist >"$OUT/process-$n.codelist" 2>&1 || true
  kill "$gateway" "$floor"; wait "$gateway" "$floor" 2>/dev/null || true
  agentfuse_us=$(us "${totals[0]}" "${totals[1]}")
  floor_us=$(us "${totals[3]}" "${totals[4]}")
  awk -v n="$n" -v a="$agentfuse_us" -v f="$floor_us" -v p="$pairs" -v c="$compiler" -v hz="$HZ" -v st="$steal" \
    -v as="$(awk -v s="${totals[2]}" -v r="${totals[0]}" 'BEGIN { printf "%.2f", s / r }')" \
    -v fs="$(awk -v s="${totals[5]}" -v r="${totals[3]}" 'BEGIN { printf "%.2f", s / r }')" \
    'BEGIN { printf "process %d: agentfuse %.2f us/request, floor %.2f, ratio %.2f (pairs%s); switches/request %s, floor %s; steal %.2f s; compiler threads %s%%\n", n, a, f, a / f, p, as, fs, st / hz, c }'
done

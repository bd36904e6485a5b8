#!/usr/bin/env bash
# What one request costs the gateway, robust to a busy machine: CPU time and bytes allocated per
# request, and peak RSS, for one workload at one connection count. Unlike requests/s these do not
# depend on how much of the CPU the other processes leave (contention adds little CPU per request).
#
#   agentfuse-bench/gateway/measure-cost.sh [small|conversation|sessions|stream] [CONNECTIONS]
#
# Environment (defaults in brackets):
#   DURATION=15 WARMUP=10    seconds of the measured run, and of the warm-up before it
#   AGENTFUSE_JAVA_OPTS      the README's flags ["-Xms128m -Xmx128m -XX:+UseSerialGC"]
#   AGENTFUSE_JAVA           the java launcher [java on the PATH]
#   JFR=FILE                 also record a JFR profile of the measured run into FILE
#   PROFILE=FILE             also record a CPU profile of the measured run (async-profiler, fetched from
#                            Maven Central; Java and kernel frames, per thread) into FILE, in collapsed
#                            form: read it with ProfileSummary (see README). PROFILE_EVENT [cpu]: itimer
#                            where the kernel offers no perf events
#   OUT                      where logs go [agentfuse-bench/target/gateway-cost]
#   SESSIONS=64              sessions: how many agents' conversations (150 KB each) are resent in turn
#   BENCH_CONFIG             the gateway's configuration, @PORT@ and @UPSTREAM_PORT@ filled in
#                            [agentfuse-bench/gateway/agentfuse-bench.yaml; agentfuse-bench-fallback.yaml
#                            adds a fallback in another dialect, never called]
#   TARGET                   what is measured: agentfuse; vertx-floor (VertxFloorProxy: the least a
#                            Vert.x proxy costs, on the transport the gateway picks, io_uring where it
#                            loads, for what agentfuse adds above it); or netty-floor
#                            (NettyFloorProxy: the least a proxy on Netty's codecs costs, for what
#                            Vert.x adds above them); or hybrid-floor (HybridFloorProxy: Vert.x's
#                            server, Netty's client, for which side of Vert.x costs what). The
#                            floors answer small and conversation only [agentfuse]
#   COMPARE_JAR, COMPARE_JAVA_OPTS, COMPARE_TARGET, COMPARE_JAVA  any set: compare a second target B
#                            (that jar, those flags, that TARGET, that launcher; each defaults to A's) with A on the same
#                            upstream. Both are warmed up, then measured in ROUNDS=8 pairs of
#                            DURATION-second windows, the order alternating (AB BA AB ...), so that
#                            a drift of the machine's speed falls on both alike; prints each pair
#                            and the median difference B - A of the CPU per request. With PROFILE=PREFIX,
#                            both are profiled over the pairs (PREFIX-a.collapsed, PREFIX-b.collapsed) and
#                            their compiled code listed (PREFIX-{a,b}.codelist): the same jar as A and B
#                            catches a process slow for its whole life (RESULTS.md, runs 52 and 53)
#   PROCESS_PAIRS=1          with a B: start that many pairs of processes, one after the other, A and B
#                            swapping places (which starts first, which is measured first) from one to
#                            the next, ROUNDS pairs of windows each. A process keeps its luck (its
#                            placement, its compiled code) for its whole life: one process pair once
#                            put 10 us between one jar and itself on the 150 KB conversation. Prints
#                            each process pair's median and the median B - A over all pairs of windows
# Needs the built jars (./mvnw -q -DskipTests package) and wrk. Allocation is read from the GC log
# (-Xlog:gc): the bytes the heap grew by between collections, over the collections of the run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WORKLOAD=${1:-conversation}
CONNECTIONS=${2:-8}
DURATION=${DURATION:-15}
WARMUP=${WARMUP:-10}
AGENTFUSE_JAVA_OPTS=${AGENTFUSE_JAVA_OPTS:-"-Xms128m -Xmx128m -XX:+UseSerialGC"}
TARGET=${TARGET:-agentfuse}
AGENTFUSE_JAVA=${AGENTFUSE_JAVA:-java}
OUT=${OUT:-"$ROOT/agentfuse-bench/target/gateway-cost"}
# Absolute: nginx reads its paths from its own prefix, and a relative one broke it ("nginx exited before listening").
OUT=$(realpath -m "$OUT")
BENCH_JAR="$ROOT/agentfuse-bench/target/benchmarks.jar"
AGENTFUSE_JAR=${AGENTFUSE_JAR:-"$ROOT/agentfuse-cli/target/agentfuse.jar"}
LUA="$ROOT/agentfuse-bench/gateway/chat-completion.lua"
PIDS=()

# async-profiler's library for this machine, from Maven Central through the project's Maven wrapper.
async_profiler() {
  local version=4.2 arch
  case $(uname -m) in x86_64) arch=linux-x64 ;; aarch64) arch=linux-arm64 ;; *) die "no async-profiler for $(uname -m)" ;; esac
  local jar="$HOME/.m2/repository/tools/profiler/async-profiler/$version/async-profiler-$version.jar"
  [[ -f $jar ]] || "$ROOT/mvnw" -q dependency:get -Dartifact="tools.profiler:async-profiler:$version" >&2 \
    || die "could not fetch tools.profiler:async-profiler:$version"
  mkdir -p "$OUT/async-profiler"
  unzip -o -q "$jar" "$arch/libasyncProfiler.so" -d "$OUT/async-profiler" || die "no $arch library in $jar"
  echo "$OUT/async-profiler/$arch/libasyncProfiler.so"
}

die() { echo "measure-cost: $*" >&2; exit 1; }
# An awk function: the median of v[1..k], which it sorts in place (v[1] and v[k] are then the extremes).
AWK_MEDIAN='function median(v, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                                    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }'

# Several process pairs: this script once per pair, A and B swapped in every second one.
PROCESS_PAIRS=${PROCESS_PAIRS:-1}
[[ $PROCESS_PAIRS =~ ^[1-9][0-9]*$ ]] || die "PROCESS_PAIRS must be a whole number >= 1, but was '$PROCESS_PAIRS'"
if ((PROCESS_PAIRS > 1)); then
  [[ -n ${COMPARE_JAR:-}${COMPARE_JAVA_OPTS:-}${COMPARE_TARGET:-}${COMPARE_JAVA:-} ]] || die "PROCESS_PAIRS needs a B to compare with (COMPARE_JAR, ...)"
  [[ -z ${PROFILE:-}${JFR:-} ]] || die "PROFILE and JFR profile one process pair: leave PROCESS_PAIRS at 1"
  a_jar=$AGENTFUSE_JAR; a_opts=$AGENTFUSE_JAVA_OPTS; a_target=$TARGET; a_java=$AGENTFUSE_JAVA
  b_jar=${COMPARE_JAR:-$a_jar}; b_opts=${COMPARE_JAVA_OPTS:-$a_opts}; b_target=${COMPARE_TARGET:-$a_target}; b_java=${COMPARE_JAVA:-$a_java}
  for pair in $(seq "$PROCESS_PAIRS"); do
    sign=$((pair % 2 ? 1 : -1))
    if ((sign > 0)); then
      PROCESS_PAIRS=1 AGENTFUSE_JAR=$a_jar AGENTFUSE_JAVA_OPTS=$a_opts TARGET=$a_target AGENTFUSE_JAVA=$a_java \
        COMPARE_JAR=$b_jar COMPARE_JAVA_OPTS=$b_opts COMPARE_TARGET=$b_target COMPARE_JAVA=$b_java "$0" "$WORKLOAD" "$CONNECTIONS"
    else
      PROCESS_PAIRS=1 AGENTFUSE_JAR=$b_jar AGENTFUSE_JAVA_OPTS=$b_opts TARGET=$b_target AGENTFUSE_JAVA=$b_java \
        COMPARE_JAR=$a_jar COMPARE_JAVA_OPTS=$a_opts COMPARE_TARGET=$a_target COMPARE_JAVA=$a_java "$0" "$WORKLOAD" "$CONNECTIONS"
    fi | awk -v p="$pair" -v s="$sign" '
      / pair [0-9]+: / { # "... A 5219/s 193.8 us/request, B 5207/s 193.2 us/request, B - A -0.6 us", A and B as run
        match($0, /A [0-9]+\/s [0-9.]+/); split(substr($0, RSTART, RLENGTH), x, " "); ra = x[2] + 0; ca = x[3] + 0
        match($0, /B [0-9]+\/s [0-9.]+/); split(substr($0, RSTART, RLENGTH), y, " "); rb = y[2] + 0; cb = y[3] + 0
        if (s < 0) { t = ra; ra = rb; rb = t; t = ca; ca = cb; cb = t }
        printf "process pair %d (%s), window pair: A %.0f/s %.1f us, B %.0f/s %.1f us, B - A %+.1f us\n", p, (s > 0 ? "A started first" : "B started first"), ra, ca, rb, cb, cb - ca
        print "#PAIR", p, ra, ca, rb, cb; fflush() }
      /^[AB]: / && p == 1 { print }
      /^measure-cost:/ { print > "/dev/stderr"; exit 1 }'
  done | awk -v w="$WORKLOAD" -v c="$CONNECTIONS" -v n="$PROCESS_PAIRS" "$AWK_MEDIAN"'
    /^#PAIR/ { k++; ra += $3; ca += $4; rb += $5; cb += $6; d[k] = $6 - $4; if (d[k] > 0) up++
               if ($2 != p) { if (p) per[p] = median(pd, pk); p = $2; pk = 0 }
               pd[++pk] = d[k]; next }
    { print }
    END { if (k == 0) exit 1
          per[p] = median(pd, pk)
          for (i = 1; i <= p; i++) printf "%s c=%d, process pair %d: median B - A %+.2f us\n", w, c, i, per[i]
          printf "%s c=%d, %d process pairs: A %.0f/s %.2f us/request, B %.0f/s %.2f us/request (means of %d windows each); B / A %.2fx in requests/s; median B - A %+.2f us (%+.1f %% of A), %d of %d window pairs higher\n",
                 w, c, n, ra / k, ca / k, rb / k, cb / k, k, rb / ra, median(d, k), 100 * median(d, k) / (ca / k), up, k }'
  exit 0 # a failed process pair failed the pipeline, and with it the script
fi
# shellcheck source=transport.sh
source "$ROOT/agentfuse-bench/gateway/transport.sh"
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

[[ -f $BENCH_JAR && -f $AGENTFUSE_JAR ]] || die "build first: ./mvnw -q -DskipTests package"
COMPARE_TARGET=${COMPARE_TARGET:-}
for target in "$TARGET" ${COMPARE_TARGET:+"$COMPARE_TARGET"}; do
  case $target in agentfuse | vertx-floor | netty-floor | hybrid-floor) ;;
    *) die "unknown TARGET '$target' (agentfuse, vertx-floor, netty-floor, hybrid-floor)" ;; esac
  # A floor proxy answers with the upstream's whole body: a stream would be measured as one answer.
  [[ $target == agentfuse || $WORKLOAD != stream ]] || die "TARGET=$target relays no streams (small, conversation)"
done
mkdir -p "$OUT"
case $WORKLOAD in
  small) BODY="" ;;
  conversation)
    BODY="$OUT/conversation.json"
    java -cp "$BENCH_JAR" io.agentfuse.bench.workload.CodingAgentConversation "$BODY" 60 gpt-4o-mini >/dev/null ;;
  sessions)
    # SESSIONS agents' 150 KB conversations at once, each resent in turn: what the memo of decoded
    # messages and the token counts hold when a gateway serves a team, not one agent.
    BODY=""
    BODIES=""
    for ((session = 0; session < ${SESSIONS:-64}; session++)); do
      java -cp "$BENCH_JAR" io.agentfuse.bench.workload.CodingAgentConversation "$OUT/session-$session.json" 60 \
        gpt-4o-mini "$session" >/dev/null
      BODIES+="$OUT/session-$session.json "
    done
    export BENCH_BODY_FILES="$BODIES" ;;
  stream)
    BODY="$OUT/stream.json"
    echo '{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"hi"}]}' >"$BODY" ;;
  *) die "unknown workload '$WORKLOAD' (small, conversation, sessions, stream)" ;;
esac

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for_port() { for _ in $(seq 300); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.1; done; die "no listener on $1"; }
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
kernel_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $13 }'; }

UPSTREAM_PORT=$(free_port)
java -Xms64m -Xmx256m -XX:+UseSerialGC -cp "$BENCH_JAR" io.agentfuse.bench.gateway.FixedAnswerUpstream "$UPSTREAM_PORT" \
  >"$OUT/upstream.log" 2>&1 &
PIDS+=($!)
wait_for_port "$UPSTREAM_PORT"

# bench_config PORT: the benchmark's gateway configuration (agentfuse-bench.yaml) for PORT, on the upstream.
bench_config() { sed -e "s/@PORT@/$1/" -e "s/@UPSTREAM_PORT@/$UPSTREAM_PORT/" "${BENCH_CONFIG:-$ROOT/agentfuse-bench/gateway/agentfuse-bench.yaml}"; }
# start_target NAME TARGET JAR "FLAGS" PORT [LAUNCHER]: starts it (GC log NAME-gc.log); its PID lands in GATEWAY.
start_target() {
  local launcher=${6:-$AGENTFUSE_JAVA}
  # shellcheck disable=SC2086 # the JVM flags are words
  case $2 in
    agentfuse)
      bench_config "$5" >"$OUT/$1.yaml"
      "$launcher" $4 -Xlog:gc:file="$OUT/$1-gc.log":timemillis -jar "$3" serve --config "$OUT/$1.yaml" --port "$5" \
        >"$OUT/$1.log" 2>&1 & ;;
    vertx-floor | netty-floor | hybrid-floor)
      local floor=VertxFloorProxy
      [[ $2 == netty-floor ]] && floor=NettyFloorProxy
      [[ $2 == hybrid-floor ]] && floor=HybridFloorProxy
      "$launcher" $4 -Xlog:gc:file="$OUT/$1-gc.log":timemillis -cp "$BENCH_JAR" "io.agentfuse.bench.gateway.$floor" \
        "$5" "$UPSTREAM_PORT" >"$OUT/$1.log" 2>&1 & ;;
  esac
  GATEWAY=$!
  PIDS+=("$GATEWAY")
  wait_for_port "$5"
}
THREADS=$((CONNECTIONS < 2 ? CONNECTIONS : 2))
export BENCH_BODY_FILE="$BODY"
# window PID PORT SECONDS: wrk against the gateway PID on PORT; prints "requests/s CPU-us/request".
window() {
  local before after requests
  before=$(cpu_ticks "$1")
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${3}s" -s "$LUA" "http://127.0.0.1:$2/v1/chat/completions" >"$OUT/wrk-window.txt"
  after=$(cpu_ticks "$1")
  requests=$(awk '/^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "requests") print kv[2] } }' "$OUT/wrk-window.txt")
  awk -v r="$requests" -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v d="$3" 'BEGIN { printf "%.0f %.2f\n", r / d, t / hz * 1e6 / r }'
}

# profile_start PID / profile_stop PID FILE: async-profiler in a running JVM (PROFILE_EVENT, cpu by default).
profile_start() {
  PROFILER_LIB=${PROFILER_LIB:-$(async_profiler)}
  # The options in quotes of their own: jcmd would otherwise read "key=value" as its own arguments.
  jcmd "$1" JVMTI.agent_load "$PROFILER_LIB" "\"start,event=${PROFILE_EVENT:-cpu},interval=997us,threads\"" \
    | grep -q "return code: 0" || die "async-profiler did not start in process $1"
}
profile_stop() {
  jcmd "$1" JVMTI.agent_load "$PROFILER_LIB" "\"stop,collapsed,file=$2\"" \
    | grep -q "return code: 0" || die "async-profiler did not write $2"
}

if [[ -n ${COMPARE_JAR:-}${COMPARE_JAVA_OPTS:-}$COMPARE_TARGET${COMPARE_JAVA:-} ]]; then
  COMPARE_TARGET=${COMPARE_TARGET:-$TARGET}
  COMPARE_JAR=${COMPARE_JAR:-$AGENTFUSE_JAR}
  COMPARE_JAVA_OPTS=${COMPARE_JAVA_OPTS:-$AGENTFUSE_JAVA_OPTS}
  COMPARE_JAVA=${COMPARE_JAVA:-$AGENTFUSE_JAVA}
  [[ -f $COMPARE_JAR ]] || die "no jar $COMPARE_JAR"
  ROUNDS=${ROUNDS:-8}
  PORT_A=$(free_port); start_target a "$TARGET" "$AGENTFUSE_JAR" "$AGENTFUSE_JAVA_OPTS" "$PORT_A"; PID_A=$GATEWAY
  PORT_B=$(free_port); start_target b "$COMPARE_TARGET" "$COMPARE_JAR" "$COMPARE_JAVA_OPTS" "$PORT_B" "$COMPARE_JAVA"; PID_B=$GATEWAY
  TRANSPORT_A=$(transport_of "$OUT/a.log"); TRANSPORT_B=$(transport_of "$OUT/b.log")
  # A comparison across transports measures the transports: the floor once ran on epoll beside a
  # gateway on io_uring, because its jar lacked io_uring's library.
  [[ $TRANSPORT_A == "$TRANSPORT_B" ]] || die "A runs on $TRANSPORT_A, B on $TRANSPORT_B: not the same transport"
  window "$PID_A" "$PORT_A" "$WARMUP" >/dev/null
  window "$PID_B" "$PORT_B" "$WARMUP" >/dev/null
  if [[ -n ${PROFILE:-} ]]; then
    profile_start "$PID_A"
    profile_start "$PID_B"
  fi
  echo "A: $TARGET $AGENTFUSE_JAR $AGENTFUSE_JAVA_OPTS ($AGENTFUSE_JAVA), on $TRANSPORT_A"
  echo "B: $COMPARE_TARGET $COMPARE_JAR $COMPARE_JAVA_OPTS ($COMPARE_JAVA), on $TRANSPORT_B"
  for round in $(seq "$ROUNDS"); do
    if ((round % 2)); then a=$(window "$PID_A" "$PORT_A" "$DURATION"); b=$(window "$PID_B" "$PORT_B" "$DURATION")
    else b=$(window "$PID_B" "$PORT_B" "$DURATION"); a=$(window "$PID_A" "$PORT_A" "$DURATION"); fi
    echo "$round $a $b"
  done | awk -v w="$WORKLOAD" -v c="$CONNECTIONS" "$AWK_MEDIAN"'
    { printf "%s c=%d, pair %d: A %.0f/s %.1f us/request, B %.0f/s %.1f us/request, B - A %+.1f us\n", w, c, $1, $2, $3, $4, $5, $5 - $3
      a += $3; b += $5; d[NR] = $5 - $3 }
    END { m = median(d, NR)
          printf "%s c=%d: A %.2f, B %.2f us/request (means of %d windows); median B - A %+.2f us (pairs from %+.1f to %+.1f)\n", w, c, a / NR, b / NR, NR, m, d[1], d[NR] }'
  if [[ -n ${PROFILE:-} ]]; then
    profile_stop "$PID_A" "$PROFILE-a.collapsed"
    profile_stop "$PID_B" "$PROFILE-b.collapsed"
    # What the JIT made of each: a process slow for its whole life may owe it to its compiled code.
    jcmd "$PID_A" Compiler.codelist >"$PROFILE-a.codelist" 2>&1 || true
    jcmd "$PID_B" Compiler.codelist >"$PROFILE-b.codelist" 2>&1 || true
    echo "profiles: $PROFILE-a.collapsed, $PROFILE-b.collapsed (compiled code: $PROFILE-{a,b}.codelist)"
  fi
  exit 0
fi

PORT=$(free_port)
start_target agentfuse "$TARGET" "$AGENTFUSE_JAR" "$AGENTFUSE_JAVA_OPTS" "$PORT"
TRANSPORT=$(transport_of "$OUT/agentfuse.log")
URL="http://127.0.0.1:$PORT/v1/chat/completions"

wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARMUP}s" -s "$LUA" "$URL" >"$OUT/wrk-warmup.txt"
if [[ -n ${JFR:-} ]]; then
  jcmd "$GATEWAY" JFR.start name=cost settings="${JFR_SETTINGS:-profile}" filename="$JFR" >/dev/null
fi
if [[ -n ${PROFILE:-} ]]; then
  profile_start "$GATEWAY"
fi
START_MS=$(date +%s%3N)
ticks=$(cpu_ticks "$GATEWAY")
sys_ticks=$(kernel_ticks "$GATEWAY")
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$LUA" "$URL" >"$OUT/wrk.txt"
ticks=$(( $(cpu_ticks "$GATEWAY") - ticks ))
sys_ticks=$(( $(kernel_ticks "$GATEWAY") - sys_ticks ))
END_MS=$(date +%s%3N)
if [[ -n ${JFR:-} ]]; then
  jcmd "$GATEWAY" JFR.stop name=cost >/dev/null
fi
if [[ -n ${PROFILE:-} ]]; then
  profile_stop "$GATEWAY" "$PROFILE"
fi
RSS_KB=$(awk '/^VmHWM:/ { print $2 }' "/proc/$GATEWAY/status")

REQUESTS=$(awk '/^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "requests") print kv[2] } }' "$OUT/wrk.txt")
NON2XX=$(awk '/^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "non2xx") print kv[2] } }' "$OUT/wrk.txt")
HZ=$(getconf CLK_TCK)
# GC lines: [12345ms] GC(7) Pause Young (Allocation Failure) 40M->9M(61M) 1.234ms. Allocation over
# the run = what the heap grew by between consecutive collections inside it.
ALLOC_RATE=$(awk -v from="$START_MS" -v to="$END_MS" '
  function mb(s) { u = substr(s, length(s)); v = substr(s, 1, length(s) - 1) + 0;
                   return u == "G" ? v * 1024 : u == "K" ? v / 1024 : v }
  /Pause/ { t = substr($1, 2) + 0; match($0, /[0-9.]+[KMG]->[0-9.]+[KMG]/); if (RSTART == 0) next;
            split(substr($0, RSTART, RLENGTH), p, "->");
            if (t >= from && t <= to) { if (have) { sum += mb(p[1]) - after; last = t } else { first = t; have = 1 } }
            after = mb(p[2]) }
  END { if (last > first) printf "%.3f", sum / ((last - first) / 1000); else print "nan" }' "$OUT/agentfuse-gc.log")
awk -v r="$REQUESTS" -v n="$NON2XX" -v t="$ticks" -v hz="$HZ" -v d="$DURATION" -v a="$ALLOC_RATE" -v rss="$RSS_KB" -v sys="$sys_ticks" \
    -v w="$WORKLOAD" -v c="$CONNECTIONS" -v tr="$TRANSPORT" 'BEGIN {
  printf "%s c=%d: %d requests (%d non-2xx) in %d s = %.0f/s; CPU %.1f us/request (%.0f %% in the kernel); alloc %.1f KB/request; peak RSS %.1f MiB; on %s\n",
    w, c, r, n, d, r / d, t / hz * 1e6 / r, (t > 0 ? 100 * sys / t : 0), a * 1024 * d / r, rss / 1024, tr }'

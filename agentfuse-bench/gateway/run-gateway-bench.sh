#!/usr/bin/env bash
# Gateway benchmark: wrk against a fixed-answer OpenAI upstream, directly, through nginx (a plain
# proxy), through a bare Vert.x proxy on the gateway's transport (the framework's floor), through
# agentfuse and through Portkey, in one run of ROUNDS rounds, for three workloads:
# a small chat request, the 150 KB coding-agent conversation and a stream of 20 events; prints
# requests/s, p50, p99, the p50 each gateway adds, its CPU time per request and its peak RSS.
# See gateway/README.md.
#
# Usage, from anywhere:  agentfuse-bench/gateway/run-gateway-bench.sh
# Settings (environment variables):
#   DURATION=15 WARMUP=5        seconds of each measured run, and of the warm-up run before it
#   SLICES=3                    each measured run is taken in this many slices of DURATION/SLICES seconds,
#                               the targets' slices interleaved (nginx, agentfuse, nginx, agentfuse, ...)
#   PRIME=10                    seconds of load at the most connections each server gets once,
#                               before its first warm-up, so that its JIT has compiled the hot path
#   ROUNDS=2                    every target measured this many times, in turn, in one run
#   WORKLOADS="small conversation stream"
#   CONNECTIONS="1 8 32"        wrk connections of the small request; wrk threads = min(connections, 2)
#   CONVERSATION_CONNECTIONS="1 8"   ... of the 150 KB conversation
#   STREAM_CONNECTIONS="8"      ... of the 20-event stream
#   TARGETS="direct nginx vertx-floor agentfuse portkey"   vertx-floor: VertxFloorProxy, the least a
#                               Vert.x proxy costs, on the transport the gateway picks (io_uring where it
#                               loads): the small request's target is 0.9x its requests/s
#   AGENTFUSE_JAVA_OPTS=...     JVM flags of the agentfuse gateway (default below)
#   SKIP_BUILD=1                use the jars already in target/ instead of building
#   PORTKEY_VERSION=1.15.2
#   OUT=agentfuse-bench/target/gateway-bench   runs-WORKLOAD-rROUND.tsv, report.md, wrk output, logs
# Exit status: 0 when every run was free of errors, 1 otherwise (or when something failed).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/agentfuse-bench/gateway"
DURATION=${DURATION:-15}
WARMUP=${WARMUP:-5}
PRIME=${PRIME:-10}
ROUNDS=${ROUNDS:-2}
SLICES=${SLICES:-3}
((SLICES >= 1 && DURATION % SLICES == 0 && DURATION / SLICES >= 1)) \
  || { echo "[gateway-bench] ERROR: DURATION ($DURATION) must be a multiple of SLICES ($SLICES)" >&2; exit 1; }
WORKLOADS=${WORKLOADS:-"small conversation stream"}
CONNECTIONS=${CONNECTIONS:-"1 8 32"}
CONVERSATION_CONNECTIONS=${CONVERSATION_CONNECTIONS:-"1 8"}
STREAM_CONNECTIONS=${STREAM_CONNECTIONS:-"8"}
TARGETS=${TARGETS:-"direct nginx vertx-floor agentfuse portkey"}
PORTKEY_VERSION=${PORTKEY_VERSION:-1.15.2}
# SerialGC and a small heap: the gateway keeps little per request, so a 2-core box gains nothing
# from a concurrent collector's threads and footprint (see RESULTS.md for the measurements).
AGENTFUSE_JAVA_OPTS=${AGENTFUSE_JAVA_OPTS:-"-Xms128m -Xmx128m -XX:+UseSerialGC"}
UPSTREAM_JAVA_OPTS=${UPSTREAM_JAVA_OPTS:-"-Xms64m -Xmx256m -XX:+UseSerialGC"}
OUT=${OUT:-"$ROOT/agentfuse-bench/target/gateway-bench"}
# Absolute: nginx reads its paths from its own prefix, and a relative one broke it ("nginx exited before listening").
OUT=$(realpath -m "$OUT")

CHAT_PATH=/v1/chat/completions
BENCH_JAR="$ROOT/agentfuse-bench/target/benchmarks.jar"
AGENTFUSE_JAR=${AGENTFUSE_JAR:-"$ROOT/agentfuse-cli/target/agentfuse.jar"}
LUA="$HERE/chat-completion.lua"
WORK="$(mktemp -d)"
PIDS=()

log() { printf '[gateway-bench] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# shellcheck source=transport.sh
source "$HERE/transport.sh"

stop_process() {
  local pid=$1 left=() p
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  for p in "${PIDS[@]}"; do [[ $p == "$pid" ]] || left+=("$p"); done
  PIDS=("${left[@]}")
}

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do stop_process "$pid"; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- tools ---------------------------------------------------------------------------------
apt_install() {
  log "installing $1 with apt-get"
  apt-get install -y -q "$1" >"$WORK/apt.log" 2>&1 \
    || { apt-get update -q >>"$WORK/apt.log" 2>&1 && apt-get install -y -q "$1" >>"$WORK/apt.log" 2>&1; } \
    || { cat "$WORK/apt.log" >&2; die "could not install $1"; }
}
command -v wrk >/dev/null || apt_install wrk
command -v curl >/dev/null || apt_install curl
if [[ " $TARGETS " == *" nginx "* ]]; then
  [[ -x /usr/sbin/nginx ]] || command -v nginx >/dev/null || apt_install nginx
  NGINX=$(command -v nginx || echo /usr/sbin/nginx)
fi
for tool in java node npm getconf; do command -v "$tool" >/dev/null || die "$tool is needed"; done

# --- build ---------------------------------------------------------------------------------
if [[ ${SKIP_BUILD:-} != 1 ]]; then
  log "building (./mvnw -q -DskipTests package)"
  (cd "$ROOT" && ./mvnw -q -B -DskipTests package) || die "the build failed"
fi
[[ -f $BENCH_JAR ]] || die "$BENCH_JAR is missing: build first"
if [[ " $TARGETS " == *" agentfuse "* ]]; then
  [[ -f $AGENTFUSE_JAR ]] || die "$AGENTFUSE_JAR is missing: build first"
  java -jar "$AGENTFUSE_JAR" serve --help >/dev/null 2>&1 || die "agentfuse.jar has no 'serve' command"
fi
if [[ " $TARGETS " == *" portkey "* ]]; then
  log "installing @portkey-ai/gateway@$PORTKEY_VERSION into a temporary folder"
  npm install --prefix "$WORK/portkey" --no-audit --no-fund --loglevel=error \
    "@portkey-ai/gateway@$PORTKEY_VERSION" >"$WORK/npm.log" 2>&1 \
    || { cat "$WORK/npm.log" >&2; die "npm install failed"; }
fi

mkdir -p "$OUT"
rm -f "$OUT"/runs*.tsv "$OUT"/wrk-*.txt "$OUT"/*.log "$OUT"/skipped.txt

# --- workloads -----------------------------------------------------------------------------
# small: the lua script's own body. conversation: 60 turns with code and 4 tool schemas, ~150 KB,
# written by the generator the JMH benchmark uses. stream: a small request with "stream": true,
# which the upstream answers with 20 events.
java -cp "$BENCH_JAR" io.agentfuse.bench.workload.CodingAgentConversation "$OUT/conversation.json" 60 gpt-4o-mini \
  >/dev/null || die "could not write the conversation body"
echo '{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"hi"}]}' >"$OUT/stream.json"
workload_body() { case $1 in small) echo "" ;; conversation) echo "$OUT/conversation.json" ;; stream) echo "$OUT/stream.json" ;;
  *) die "unknown workload '$1' (small, conversation, stream)" ;; esac; }
workload_connections() { case $1 in small) echo "$CONNECTIONS" ;; conversation) echo "$CONVERSATION_CONNECTIONS" ;;
  stream) echo "$STREAM_CONNECTIONS" ;; esac; }
for workload in $WORKLOADS; do workload_body "$workload" >/dev/null; done

# --- helpers -------------------------------------------------------------------------------
TAKEN_PORTS=" "
free_port() {
  local port
  # Below the kernel's ephemeral range (32768 and up on Linux): a port there may be the source port
  # of one of wrk's or the proxies' outgoing connections, and binding it fails although nothing listens.
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 12000))
    [[ $TAKEN_PORTS == *" $port "* ]] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      TAKEN_PORTS+="$port "
      echo "$port"
      return
    fi
  done
  die "found no free port"
}

wait_for_port() { # pid port name log
  for _ in $(seq 300); do
    kill -0 "$1" 2>/dev/null || { tail -20 "$4" >&2; die "$3 exited before listening"; }
    (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null && return
    sleep 0.1
  done
  die "$3 did not listen on port $2 within 30 s"
}

# bench_config PORT: the benchmark's gateway configuration (agentfuse-bench.yaml) for PORT, on the upstream.
bench_config() { sed -e "s/@PORT@/$1/" -e "s/@UPSTREAM_PORT@/$UPSTREAM_PORT/" "$ROOT/agentfuse-bench/gateway/agentfuse-bench.yaml"; }
upstream_served() { curl -sf "http://127.0.0.1:$UPSTREAM_PORT/requests" | tr -dc '0-9'; }

# A server and its child processes (nginx's workers), by process id.
process_tree() { echo "$1"; pgrep -P "$1" || true; }
cpu_ticks() { # utime + stime of the process and its children
  local pid total=0
  for pid in $(process_tree "$1"); do
    total=$((total + $(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $12 + $13 }' || echo 0)))
  done
  echo "$total"
}
# Clock ticks the hypervisor gave to others while this machine's CPUs wanted to run, all CPUs together.
steal_ticks() { awk '/^cpu / { print $9 }' /proc/stat; }
peak_rss_kb() { # VmHWM of the process and its children, summed
  local pid total=0
  for pid in $(process_tree "$1"); do
    total=$((total + $(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)))
  done
  echo "$total"
}

# One request through the target, which must answer 200 with a completion and reach the upstream.
check_forwarding() { # name url [curl header args...]
  local name=$1 url=$2 before after status
  shift 2
  before=$(upstream_served)
  status=$(curl -s -o "$WORK/check.json" -w '%{http_code}' --max-time 10 "$@" \
    -H 'Content-Type: application/json' \
    --data '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}]}' "$url")
  after=$(upstream_served)
  [[ $status == 200 ]] || { cat "$WORK/check.json" >&2; die "$name answered $status"; }
  grep -q '"chat.completion"' "$WORK/check.json" || die "$name did not answer a chat.completion"
  [[ $after -eq $((before + 1)) ]] || die "$name did not forward to the upstream (served $before -> $after)"
  log "$name reaches the upstream: OK"
}

# One streamed request through the target, which must relay the upstream's events up to [DONE].
# A target that cannot is not measured on the stream workload (STREAMS=0), and the report says so.
check_stream() { # name url [curl header args...]
  local name=$1 url=$2
  shift 2
  STREAMS=1
  if curl -s -N --max-time 10 "$@" -H 'Content-Type: application/json' --data @"$OUT/stream.json" "$url" \
      >"$WORK/stream.txt" && grep -q '\[DONE\]' "$WORK/stream.txt"; then
    log "$name relays a stream: OK"
  else
    STREAMS=0
    log "$name does not relay the stream ($(head -c 200 "$WORK/stream.txt")): its stream workload is skipped"
    echo "$name: stream workload skipped, it answered: $(head -c 200 "$WORK/stream.txt")" >>"$OUT/skipped.txt"
  fi
}

# The checks every target passes before it is measured.
check_target() { # name url [curl header args...]
  check_forwarding "$@"
  STREAMS=1
  if [[ " $WORKLOADS " == *" stream "* ]]; then check_stream "$@"; fi
}

# Per workload: each target primed in turn, then per connection count each target gets a warm-up
# run and its measured run. This host has phases, seconds to minutes long, in which everything runs
# 20–50 % slower (RESULTS.md, runs 50–54 and 59), and a target measured after another may meet a
# different one; so a measured run is taken in SLICES slices and the targets' slices take turns
# (direct, nginx, agentfuse, portkey, direct, nginx, ...): a phase falls on every target alike. The
# slices of a run are summed (requests, time, CPU, errors) into one line of runs-WORKLOAD-rROUND.tsv
# (columns: BenchRun.COLUMNS), its p50 the median of the slices' p50s and its p99 the highest p99.
measure_round() {
  local workload target c slice
  for workload in $WORKLOADS; do
    BENCH_BODY_FILE=$(workload_body "$workload")
    export BENCH_BODY_FILE
    if ((PRIME > 0)); then
      for target in $TARGETS; do
        if measured "$target" "$workload"; then prime "$target" "$workload"; fi
      done
    fi
    for c in $(workload_connections "$workload"); do
      for slice in $(seq "$SLICES"); do
        for target in $TARGETS; do
          if measured "$target" "$workload"; then
            if ((slice == 1)); then warm_up "$target" "$workload" "$c"; fi
            measure_slice "$target" "$workload" "$c" "$slice"
          fi
        done
      done
      for target in $TARGETS; do
        if measured "$target" "$workload"; then record_run "$target" "$workload" "$c"; fi
      done
    done
  done
}

# Whether TARGET is measured on WORKLOAD: not on the stream when it relays no streams.
measured() { [[ $2 != stream || ${T_STREAMS[$1]} == 1 ]]; }

# wrk_target SECONDS TARGET CONNECTIONS ARGS...: wrk against the target's url with its headers, at CONNECTIONS
# connections on min(CONNECTIONS, 2) threads, given SECONDS to finish.
wrk_target() {
  local seconds=$1 target=$2 c=$3
  shift 3
  BENCH_HEADERS="${T_HEADERS[$target]}" timeout $((seconds + 30)) wrk -t$((c < 2 ? c : 2)) -c"$c" "$@" -d"${seconds}s" \
    -s "$LUA" "${T_URL[$target]}"
}

prime() { # target workload
  local most
  most=$(tr ' ' '\n' <<<"$(workload_connections "$2")" | sort -n | tail -1)
  log "$1, $2: ${PRIME}s priming at $most connections"
  wrk_target "$PRIME" "$1" "$most" >"$OUT/wrk-$1-$2-r$ROUND-prime.txt"
}

warm_up() { # target workload connections
  local c=$3
  log "$1, $2, round $ROUND: ${WARMUP}s warm-up at $c connections, then ${SLICES} slices of $((DURATION / SLICES))s in turn"
  wrk_target "$WARMUP" "$1" "$c" --latency >"$OUT/wrk-$1-$2-r$ROUND-$c-warmup.txt"
}

# One slice of a measured run: a line of requests, duration_us, p50_us, p99_us, non2xx, socket errors,
# CPU ticks, steal ticks and upstream requests served, appended to the run's slices file.
measure_slice() { # target workload connections slice
  local target=$1 c=$3 pid ticks steal served result name
  pid=${T_PID[$target]}
  name="$target-$2-r$ROUND-$c"
  ticks=$(cpu_ticks "$pid")
  steal=$(steal_ticks)
  served=$(upstream_served)
  wrk_target "$((DURATION / SLICES))" "$target" "$c" --latency >"$OUT/wrk-$name-s$4.txt"
  ticks=$(($(cpu_ticks "$pid") - ticks))
  steal=$(($(steal_ticks) - steal))
  served=$(($(upstream_served) - served))
  result=$(grep '^RESULT ' "$OUT/wrk-$name-s$4.txt") || die "wrk printed no RESULT line for $name, slice $4"
  awk -v ticks="$ticks" -v served="$served" -v steal="$steal" '
    { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { printf "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", v["requests"], v["duration_us"], v["p50_us"], v["p99_us"],
          v["non2xx"], v["connect"] + v["read"] + v["write"] + v["timeout"], ticks, steal, served }' \
    <<<"$result" >>"$WORK/slices-$name.tsv"
  grep -E 'Requests/sec|Non-2xx|Socket errors' "$OUT/wrk-$name-s$4.txt" | sed "s/^/    slice $4 /" >&2 || true
}

# The slices of a measured run summed into its line of runs-WORKLOAD-rROUND.tsv.
record_run() { # target workload connections
  local target=$1 c=$3 name
  name="$target-$2-r$ROUND-$c"
  sort -n -k3,3 "$WORK/slices-$name.tsv" | awk -v target="$target" -v c="$c" -v rss="$(peak_rss_kb "${T_PID[$target]}")" '
    { requests += $1; duration += $2; p50[NR] = $3; if ($4 > p99) p99 = $4; non2xx += $5; errors += $6
      ticks += $7; steal += $8; served += $9 }
    END { printf "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", target, c, requests, duration,
          p50[int((NR + 1) / 2)], p99, non2xx, errors, ticks, rss, served, steal }' >>"$OUT/runs-$2-r$ROUND.tsv"
  log "$target, $2, round $ROUND, $c connections: $(awk -F'\t' -v t="$target" -v c="$c" \
    '$1 == t && $2 == c { printf "%.0f requests/s", $3 / ($4 / 1e6) }' "$OUT/runs-$2-r$ROUND.tsv")"
}

# --- machine -------------------------------------------------------------------------------
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc: $(nproc)"
  echo "cpu: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "node: $(node --version)"
  echo "wrk: $(wrk -v 2>&1 | head -1)"
  echo "agentfuse JVM flags: $AGENTFUSE_JAVA_OPTS"
  echo "nginx: $([[ -n ${NGINX:-} ]] && "$NGINX" -v 2>&1 | head -1 || echo not measured)"
  echo "runs: $ROUNDS rounds of targets $TARGETS; per workload ${PRIME}s priming, then warm-up ${WARMUP}s + ${DURATION}s"
  echo "      in $SLICES slices taken in turn;"
  echo "      connections: small $CONNECTIONS, conversation $CONVERSATION_CONNECTIONS, stream $STREAM_CONNECTIONS"
} | tee "$OUT/machine.txt" >&2

# --- upstream ------------------------------------------------------------------------------
UPSTREAM_PORT=$(free_port)
# shellcheck disable=SC2086 # the JVM flags are words
java $UPSTREAM_JAVA_OPTS -cp "$BENCH_JAR" io.agentfuse.bench.gateway.FixedAnswerUpstream "$UPSTREAM_PORT" \
  >"$OUT/upstream.log" 2>&1 &
UPSTREAM_PID=$!
PIDS+=("$UPSTREAM_PID")
wait_for_port "$UPSTREAM_PID" "$UPSTREAM_PORT" upstream "$OUT/upstream.log"
check_target upstream "http://127.0.0.1:$UPSTREAM_PORT$CHAT_PATH"
[[ $STREAMS == 1 || " $WORKLOADS " != *" stream "* ]] || die "the upstream does not stream"

# start_target TARGET: starts it (direct: the upstream, already running), checks that it forwards (and
# streams), and records its process, url, wrk headers and whether it relays streams (T_*). Every
# target of a round runs from its start to the round's end; one not being measured is idle.
declare -A T_PID T_URL T_HEADERS T_STREAMS
start_target() {
  local target=$1 port pid logfile header headers=() header_args=()
  logfile="$OUT/$target.log"
  case $target in
    direct)
      # Not checked again: the upstream was checked above, and it streams.
      T_PID[direct]=$UPSTREAM_PID T_URL[direct]="http://127.0.0.1:$UPSTREAM_PORT$CHAT_PATH" T_HEADERS[direct]=""
      T_STREAMS[direct]=1
      return
      ;;
    nginx)
      port=$(free_port)
      nginx_dir="$WORK/nginx"
      mkdir -p "$nginx_dir/logs"
      # A plain reverse proxy: keep-alive to the upstream, no buffering (streams flow as they come),
      # bodies up to 16 MB kept in memory, no access log.
      cat >"$nginx_dir/nginx.conf" <<EOF
daemon off;
user $(id -un) $(id -gn);
worker_processes auto;
pid $nginx_dir/nginx.pid;
error_log $OUT/nginx.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $nginx_dir/body;
  proxy_temp_path $nginx_dir/proxy;
  fastcgi_temp_path $nginx_dir/fastcgi;
  uwsgi_temp_path $nginx_dir/uwsgi;
  scgi_temp_path $nginx_dir/scgi;
  client_max_body_size 16m;
  client_body_buffer_size 1m;
  upstream llm { server 127.0.0.1:$UPSTREAM_PORT; keepalive 64; }
  server {
    listen 127.0.0.1:$port;
    location / {
      proxy_pass http://llm;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
EOF
      cp "$nginx_dir/nginx.conf" "$OUT/nginx.conf"
      "$NGINX" -p "$nginx_dir" -c "$nginx_dir/nginx.conf" -e "$OUT/nginx.log" >>"$OUT/nginx.log" 2>&1 &
      pid=$!
      ;;
    agentfuse)
      port=$(free_port)
      bench_config "$port" >"$OUT/agentfuse.yaml"
      logfile="$OUT/agentfuse-r$ROUND.log"
      # Each round's process keeps its own log and GC log.
      # shellcheck disable=SC2086 # the JVM flags are words
      java $AGENTFUSE_JAVA_OPTS -Xlog:gc:file="$OUT/agentfuse-r$ROUND-gc.log":timemillis -jar "$AGENTFUSE_JAR" serve \
        --config "$OUT/agentfuse.yaml" --port "$port" >"$logfile" 2>&1 &
      pid=$!
      ;;
    vertx-floor)
      port=$(free_port)
      # shellcheck disable=SC2086 # the JVM flags are words
      java $AGENTFUSE_JAVA_OPTS -cp "$BENCH_JAR" io.agentfuse.bench.gateway.VertxFloorProxy "$port" "$UPSTREAM_PORT" \
        >"$logfile" 2>&1 &
      pid=$!
      ;;
    portkey)
      port=$(free_port)
      # --headless and NODE_ENV=production: no UI and no log streaming, Portkey's leanest setup.
      NODE_ENV=production node --import "file://$HERE/loopback-only.mjs" \
        "$WORK/portkey/node_modules/@portkey-ai/gateway/build/start-server.js" --port="$port" --headless \
        >"$logfile" 2>&1 &
      pid=$!
      headers=("x-portkey-provider: openai" "x-portkey-custom-host: http://127.0.0.1:$UPSTREAM_PORT/v1"
        "Authorization: Bearer dummy")
      ;;
    *) die "unknown target '$target' (direct, nginx, agentfuse, portkey, vertx-floor)" ;;
  esac
  PIDS+=("$pid")
  wait_for_port "$pid" "$port" "$target" "$logfile"
  T_PID[$target]=$pid T_URL[$target]="http://127.0.0.1:$port$CHAT_PATH"
  T_HEADERS[$target]="$(IFS='|'; echo "${headers[*]}")"
  for header in "${headers[@]}"; do header_args+=(-H "$header"); done
  if [[ $target == vertx-floor ]]; then
    check_forwarding "$target" "${T_URL[$target]}"
    STREAMS=0 # it answers with the upstream's whole body: a stream would be measured as one answer
    if ((ROUND == 1)) && [[ " $WORKLOADS " == *" stream "* ]]; then
      echo "vertx-floor: stream workload skipped, it relays no streams" >>"$OUT/skipped.txt"
    fi
  else
    check_target "$target" "${T_URL[$target]}" "${header_args[@]}"
  fi
  T_STREAMS[$target]=$STREAMS
}

# The floor is agentfuse's yardstick only on agentfuse's transport (transport.sh).
check_same_transport() {
  [[ " $TARGETS " == *" agentfuse "* && " $TARGETS " == *" vertx-floor "* ]] || return 0
  local gateway floor
  gateway=$(transport_of "$OUT/agentfuse-r$ROUND.log")
  floor=$(transport_of "$OUT/vertx-floor.log")
  [[ $gateway == "$floor" ]] || die "agentfuse runs on $gateway, the Vert.x floor on $floor: not the same transport"
  echo "round $ROUND transport: agentfuse and vertx-floor on $gateway" | tee -a "$OUT/machine.txt" >&2
}

for ROUND in $(seq "$ROUNDS"); do
  for target in $TARGETS; do start_target "$target"; done
  check_same_transport
  measure_round
  for target in $TARGETS; do
    if [[ $target != direct ]]; then stop_process "${T_PID[$target]}"; fi
  done
done

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/machine.txt" >&2
log "report (also in $OUT/report.md):"
status=0
: >"$OUT/report.md"
for ROUND in $(seq "$ROUNDS"); do
  for workload in $WORKLOADS; do
    printf '\n### Round %s: %s\n\n' "$ROUND" "$workload" | tee -a "$OUT/report.md"
    java -cp "$BENCH_JAR" io.agentfuse.bench.gateway.GatewayBenchReport "$OUT/runs-$workload-r$ROUND.tsv" \
      "$(getconf CLK_TCK)" "$workload" | tee -a "$OUT/report.md" || status=1
  done
done
if [[ -f $OUT/skipped.txt ]]; then
  printf '\nSkipped:\n\n' | tee -a "$OUT/report.md"
  sed 's/^/- /' "$OUT/skipped.txt" | sort -u | tee -a "$OUT/report.md"
fi
exit $status

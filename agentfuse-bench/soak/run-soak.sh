#!/usr/bin/env bash
# Soak: mixed good and hostile traffic against one gateway for SECONDS (default 600), reporting
# every INTERVAL seconds its open file descriptors, RSS, live heap and the p50/p99 of good requests
# (the workloads of agents: GoodTraffic.java), each kind's requests and errors (errors.log says which).
# Not part of the build or CI. See README.md in this directory.
#
# Usage, from anywhere:  agentfuse-bench/soak/run-soak.sh
# Settings (environment variables):
#   SECONDS_TOTAL=600 INTERVAL=10   how long, and how often a row is reported
#   SKIP_BUILD=1                    use agentfuse-cli/target/agentfuse.jar as it is
#   GATEWAY_JAVA_OPTS=...           JVM flags of the gateway (default: -Xmx256m -XX:+UseSerialGC)
#   OUT=agentfuse-bench/target/soak soak.tsv and the gateway's log
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/agentfuse-bench/soak"
SECONDS_TOTAL=${SECONDS_TOTAL:-600}
INTERVAL=${INTERVAL:-10}
GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS:-"-Xmx256m -XX:+UseSerialGC"}
OUT=${OUT:-"$ROOT/agentfuse-bench/target/soak"}
JAR="$ROOT/agentfuse-cli/target/agentfuse.jar"
PIDS=()

cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_for() { for _ in $(seq 100); do curl -fsS "$1" >/dev/null 2>&1 && return 0; sleep 0.2; done; echo "not up: $1" >&2; return 1; }

mkdir -p "$OUT"
if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$ROOT" && ./mvnw -B -q -pl agentfuse-cli -am package -DskipTests)
fi

MOCK_PORT=$(free_port)
MCP_PORT=$(free_port)
GATEWAY_PORT=$(free_port)
java -Xmx256m -jar "$JAR" mock-provider --port "$MOCK_PORT" --mcp-port "$MCP_PORT" >"$OUT/mock.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$MOCK_PORT/_mock/requests"
MOCK_PORT=$MOCK_PORT MCP_PORT=$MCP_PORT GATEWAY_PORT=$GATEWAY_PORT java $GATEWAY_JAVA_OPTS -jar "$JAR" serve \
  --config "$HERE/soak.yaml" >"$OUT/gateway.log" 2>&1 &
GATEWAY_PID=$!
PIDS+=($GATEWAY_PID)
wait_for "http://127.0.0.1:$GATEWAY_PORT/healthz"

echo "[soak] gateway pid $GATEWAY_PID on port $GATEWAY_PORT, ${SECONDS_TOTAL}s, a row every ${INTERVAL}s" >&2
rm -rf "$OUT/classes" "$OUT/errors.log"
javac -d "$OUT/classes" "$HERE/Soak.java" "$HERE/GoodTraffic.java"
# The good clients let an idle connection go after 3 s, before the gateway does (idleTimeout 5s): else
# a request sent just as the gateway closes one fails with "received no bytes", the race of keep-alive.
java -Djdk.httpclient.keepalive.timeout=3 -cp "$OUT/classes" Soak "$GATEWAY_PORT" "$GATEWAY_PID" "$SECONDS_TOTAL" "$INTERVAL" "$OUT/soak.tsv" "$MOCK_PORT" "$MCP_PORT"
kill -0 "$GATEWAY_PID" || { echo "[soak] the gateway died" >&2; exit 1; }
echo "[soak] results in $OUT/soak.tsv" >&2

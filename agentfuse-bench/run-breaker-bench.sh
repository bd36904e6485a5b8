#!/usr/bin/env bash
# Runs the circuit-breaker benchmarks of agentfuse beside resilience4j and Failsafe in one JMH run,
# then prints the results as a markdown table with ratios and the done-when targets.
#
#   agentfuse-bench/run-breaker-bench.sh          # the proper run: 3 forks, ~30 minutes on 2 cores
#   agentfuse-bench/run-breaker-bench.sh quick    # a smoke run: 1 fork, short iterations, ~8 minutes
#
# BENCH_REGEX selects a subset, e.g. BENCH_REGEX=ClosedGuardedCall. By default: every breaker scenario
# and the retry + breaker call (RetryAndBreakerCall).
# Results: agentfuse-bench/target/breaker-results.json (JMH JSON) and breaker-results.md (the table).
set -euo pipefail

cd "$(dirname "$0")/.."

regex="${BENCH_REGEX:-io\.agentfuse\.bench\.(Closed|Open|RetryAndBreaker)}"
if [[ "${1:-}" == "quick" ]]; then
  timing=(-f 1 -wi 2 -w 1s -i 3 -r 1s)
else
  timing=(-f 3 -wi 4 -w 1s -i 5 -r 1s)
fi

jar=agentfuse-bench/target/benchmarks.jar
json=agentfuse-bench/target/breaker-results.json
table=agentfuse-bench/target/breaker-results.md

./mvnw -q -pl agentfuse-bench -am package -DskipTests
java -jar "$jar" "$regex" -prof gc "${timing[@]}" -rf json -rff "$json"
java -cp "$jar" io.agentfuse.bench.ResultsTable "$json" | tee "$table"

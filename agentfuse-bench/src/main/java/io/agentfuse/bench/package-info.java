/**
 * JMH benchmarks of the library beside its peers (resilience4j, Failsafe): a closed breaker's
 * permit and record, a guarded call, an open breaker's rejection (refused, thrown, or turned into a
 * fallback), retries, and the gateway's own per-request work (request parsing, token counting,
 * relaying a stream). {@link io.agentfuse.bench.ResultsTable} prints a JMH
 * run as the markdown table of the benchmarks' RESULTS.md, with the done-when targets of
 * {@link io.agentfuse.bench.Targets} and whether the run met them.
 */
package io.agentfuse.bench;

/**
 * Realistic workloads shared by the micro-benchmarks and the gateway load test:
 * {@link io.agentfuse.bench.workload.CodingAgentConversation}, the deterministic conversation a
 * coding agent resends with one more turn each time (about 150 KB at 60 turns).
 */
package io.agentfuse.bench.workload;

/**
 * The hedging benchmark: a streamed workload with 10 % stalled first tokens through the gateway
 * without and with {@code models.<m>.hedge} ({@link io.agentfuse.bench.hedge.HedgeBench}).
 */
package io.agentfuse.bench.hedge;

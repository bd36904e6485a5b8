/**
 * The gateway load test's Java side: the floors it is measured against (a bare Vert.x proxy
 * {@link io.agentfuse.bench.gateway.VertxFloorProxy}, bare Netty, a hybrid of the two), a fixed-answer
 * upstream, and the report of a run ({@link io.agentfuse.bench.gateway.BenchRun} lines,
 * {@link io.agentfuse.bench.gateway.GatewayBenchReport}, the done-when checks). The shell scripts
 * beside the module drive them; nothing here is used by production code.
 */
package io.agentfuse.bench.gateway;

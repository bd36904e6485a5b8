/**
 * The breaker's counters: streaks, count and time windows. Lock-free and allocation-free on the
 * record path. Not API: they may change without notice.
 */
package io.agentfuse.core.breaker.internal;

/**
 * How compaction reads a conversation's structure, runs a summary and tracks its failures.
 * Not part of the public API.
 */
package io.agentfuse.agent.context.internal;

/**
 * The scriptable mock provider used by tests, the demo and benchmarks, never by production code:
 * {@link io.agentfuse.mock.MockProvider} serves OpenAI Chat Completions and Responses and Anthropic
 * Messages on loopback, answering each request with the next {@link io.agentfuse.mock.MockStep} of its
 * script (a status, a delay, a stream, a dropped connection), in the request's dialect, and journals
 * what it received. The mock MCP server is in {@code mcp}.
 */
package io.agentfuse.mock;

/** Validation shared by the agent configs. Not part of the public API. */
package io.agentfuse.agent.internal;

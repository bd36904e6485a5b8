/**
 * The Spring Boot auto-configuration: {@link io.agentfuse.springai.autoconfigure.AgentfuseAutoConfiguration}
 * reads the YAML file named by {@code agentfuse.config-file} or the {@code agentfuse.*} properties
 * ({@link io.agentfuse.springai.autoconfigure.AgentfuseConfigSource}) and exposes the runtime, the
 * breaker registry and, with Micrometer present, the breaker meters as beans.
 */
package io.agentfuse.springai.autoconfigure;

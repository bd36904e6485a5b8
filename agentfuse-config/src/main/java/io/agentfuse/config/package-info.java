/**
 * The YAML configuration (docs/design.md §6) as immutable, validated records
 * ({@link io.agentfuse.config.AgentfuseConfig} and one record per section), read by
 * {@link io.agentfuse.config.ConfigLoader}, with every default in one place,
 * {@link io.agentfuse.config.ConfigDefaults}; and {@link io.agentfuse.config.AgentfuseRuntime}, which
 * turns a configuration into live breakers, guards and session guards and swaps them on a reload.
 * How the text becomes records (interpolation, binding, the error messages) is below, in
 * {@code internal}.
 */
package io.agentfuse.config;

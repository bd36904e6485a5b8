/**
 * How a YAML file becomes an {@link io.agentfuse.config.AgentfuseConfig}: read into a tree that
 * knows each value's line ({@link io.agentfuse.config.internal.YamlTreeReader}), {@code ${ENV}}
 * interpolated, then bound section by section ({@link io.agentfuse.config.internal.ConfigBinder} and
 * one binder per section) with every problem collected, each naming its key path and line, so that
 * all of them are reported at once. Not an API: only {@code io.agentfuse.config} uses it.
 */
package io.agentfuse.config.internal;

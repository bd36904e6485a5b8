/**
 * Hot reload of the configuration file (docs/design.md §7): {@link io.agentfuse.gateway.reload.ConfigReloader}
 * reads the {@link io.agentfuse.gateway.reload.ConfigFile} again on {@code POST /admin/reload}, on
 * SIGHUP (the command line forwards it) and when the file changes, and puts it in force all or
 * nothing; {@link io.agentfuse.gateway.reload.Reloaded} says what happened to each breaker and which
 * {@code server:} keys wait for a restart.
 */
package io.agentfuse.gateway.reload;

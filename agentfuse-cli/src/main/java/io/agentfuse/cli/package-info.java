/**
 * The {@code agentfuse} command line, packaged as {@code agentfuse.jar}:
 * {@link io.agentfuse.cli.AgentfuseCommand} and its sub-commands {@code serve}
 * ({@link io.agentfuse.cli.ServeCommand}: the gateway in the foreground, reloading on SIGHUP),
 * {@code validate} ({@link io.agentfuse.cli.ValidateCommand}), {@code mock-provider}
 * ({@link io.agentfuse.cli.MockProviderCommand}) and {@code demo} (package {@code demo}); the log
 * format and the signals they share.
 */
package io.agentfuse.cli;

/**
 * The context ladder in the gateway (docs/design.md §5): {@link io.agentfuse.gateway.context.ContextLadder}
 * measures a request against its model's window and compacts, snips or refuses it, with the agent
 * module's {@code Compactor} and a summary asked of the compact model
 * ({@link io.agentfuse.gateway.context.TranscriptSummarizer}); {@link io.agentfuse.gateway.context.ContextLadderStage}
 * is the pipeline's hook onto it.
 */
package io.agentfuse.gateway.context;

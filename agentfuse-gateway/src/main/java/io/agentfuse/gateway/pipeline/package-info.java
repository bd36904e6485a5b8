/**
 * The gateway's model-request pipeline, one small step per class: parse ({@link
 * io.agentfuse.gateway.pipeline.RequestParser}), the context-budget hook ({@link
 * io.agentfuse.gateway.pipeline.ContextStage}), subagent limits, routing to the fallback chain,
 * the guarded upstream calls, and the answer — complete, streamed, or the error the contract
 * prescribes. {@link io.agentfuse.gateway.pipeline.ChatPipeline} assembles them.
 */
package io.agentfuse.gateway.pipeline;

/**
 * agentfuse for LangChain4j (docs/design.md §10): decorators of LangChain4j's chat and streaming
 * models ({@link io.agentfuse.langchain4j.GuardedChatModel},
 * {@link io.agentfuse.langchain4j.GuardedStreamingChatModel}), tool executors
 * ({@link io.agentfuse.langchain4j.GuardedToolExecutor},
 * {@link io.agentfuse.langchain4j.PermissionedToolExecutor}) and chat memory
 * ({@link io.agentfuse.langchain4j.GuardedChatMemory}), each behind the runtime's guards; made from a
 * configuration by {@link io.agentfuse.langchain4j.AgentfuseLangChain4j}. LangChain4j's exceptions are
 * classified in one place, {@link io.agentfuse.langchain4j.LangChain4jOutcomes}.
 */
package io.agentfuse.langchain4j;

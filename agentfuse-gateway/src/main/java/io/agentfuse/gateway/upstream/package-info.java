/**
 * Calls to model providers, complete or streamed, and the one HTTP client stack they and the MCP
 * servers share.
 * <ul>
 *   <li>{@link io.agentfuse.gateway.upstream.UpstreamHttp}: Vert.x's {@code HttpClient}, one per
 *       event loop, with keep-alive pools per address, TLS, HTTP/2 by ALPN and the egress proxy
 *       {@link io.agentfuse.gateway.upstream.EgressProxy} picks; every HTTP/1.1 answer's framing is
 *       checked ({@link io.agentfuse.gateway.upstream.FramingCheck}) before its connection is reused.
 *   <li>{@link io.agentfuse.gateway.upstream.UpstreamClient}: a provider call as the guards of
 *       {@code agentfuse-core} see it — a {@link io.agentfuse.gateway.upstream.CompleteCall} with its
 *       timeout and bounded body, or a {@link io.agentfuse.gateway.upstream.StreamingCall} whose
 *       answer is handed over ({@link io.agentfuse.gateway.upstream.UpstreamStream}) only once it has
 *       begun ({@link io.agentfuse.gateway.upstream.StreamOpening}), within its first-event and idle
 *       limits ({@link io.agentfuse.gateway.upstream.StreamTimeouts}).
 *   <li>Failures in core's terms: {@link io.agentfuse.gateway.upstream.UpstreamFailures} turns what
 *       the transport or the provider did into the exceptions breakers, retries and fallbacks act on,
 *       worded for a caller by {@link io.agentfuse.gateway.upstream.TransportText} and cleared of the
 *       gateway's credentials by {@link io.agentfuse.gateway.upstream.Redaction}.
 * </ul>
 * What a provider's request looks like (path, headers, authentication) is its dialect's
 * ({@code io.agentfuse.gateway.dialect.Dialect}); this package sends it
 * ({@link io.agentfuse.gateway.upstream.ProviderRequests}).
 */
package io.agentfuse.gateway.upstream;

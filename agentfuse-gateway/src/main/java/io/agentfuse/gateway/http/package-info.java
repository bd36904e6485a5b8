/**
 * JSON and HTTP as the gateway's edge speaks them: how a request body is decoded and what a caller
 * reads when something is wrong.
 * <ul>
 *   <li><b>Decoding a request</b>: {@link io.agentfuse.gateway.http.StrictJson} decodes a body in
 *       one pass into values that are unmodifiable all the way down, whatever the body's size
 *       ({@link io.agentfuse.gateway.http.FrozenMap}), and refuses what Jackson accepts but a provider
 *       must never see; a long body goes value by value through
 *       {@link io.agentfuse.gateway.http.MemoizedDecoder}, which takes an agent's resent messages from
 *       the {@link io.agentfuse.gateway.http.ValueMemo} instead of decoding them again, and what a
 *       parser derived from a shared value stays on it ({@link io.agentfuse.gateway.http.DerivedValues}).
 *   <li><b>Checking an answer</b>: each dialect declares the shape of its answers once
 *       ({@link io.agentfuse.gateway.http.JsonShape}); {@link io.agentfuse.gateway.http.ShapeScan}
 *       checks it in one pass over the bytes ({@link io.agentfuse.gateway.http.JsonScan}) and only
 *       ever says yes, so a body it does not accept goes to the tree-based check that decides and
 *       explains. Every byte-level reading here accepts a subset of what Jackson accepts
 *       ({@link io.agentfuse.gateway.http.JsonText}).
 *   <li><b>Encoding</b>: {@link io.agentfuse.gateway.http.JsonPieces} writes a value as Vert.x would,
 *       byte for byte, into pieces that are never joined.
 *   <li><b>Errors and headers</b>: {@link io.agentfuse.gateway.http.GatewayError} is the gateway's
 *       error table and {@link io.agentfuse.gateway.http.GatewayErrors} the one place its errors become
 *       answers in the caller's dialect; {@link io.agentfuse.gateway.http.JsonFaults} words a parser's
 *       complaint; {@link io.agentfuse.gateway.http.HopByHop} says which headers cross a relay.
 * </ul>
 * The hand-built readings are hot-path pieces of {@code PERFORMANCE.md} ({@code value-memo},
 * {@code answer-scans}, {@code json-pieces}, {@code long-strings}), each with its measured gain.
 */
package io.agentfuse.gateway.http;

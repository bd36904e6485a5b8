package io.agentfuse.gateway.tracing;

import io.agentfuse.config.ObservabilityConfig;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.vertx.core.MultiMap;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link Tracing} on the OpenTelemetry SDK, configured by its autoconfiguration: the {@code OTEL_*}
 * variables and {@code otel.*} system properties, over the gateway's defaults (service
 * {@code agentfuse}, OTLP over HTTP with protobuf to {@code observability.otlp.endpoint}, no metrics
 * or logs exported: those are {@code /metrics} and the log). Context travels as W3C trace context.
 * Loaded only when traces are on. Thread-safe.
 */
final class OtelTracing implements Tracing {

    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    private static final AttributeKey<String> MCP_METHOD = AttributeKey.stringKey("mcp.method.name");
    private static final AttributeKey<String> TOOL = AttributeKey.stringKey("gen_ai.tool.name");
    private static final AttributeKey<String> MCP_SERVER = AttributeKey.stringKey("agentfuse.mcp.server");
    /** The one operation the gateway's model endpoints perform, in the GenAI conventions' words. */
    static final String CHAT = "chat";
    private static final long FLUSH_SECONDS = 5;

    private static final TextMapGetter<MultiMap> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(MultiMap carrier) {
            return carrier.names();
        }

        @Override
        public String get(MultiMap carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;

    private OtelTracing(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
        this.tracer = sdk.getTracer("io.agentfuse.gateway");
    }

    /** Returns the interface type, so that a gateway without traces never needs this class loaded, not even to verify {@link Tracing#start}. */
    static Tracing start(ObservabilityConfig config) {
        Map<String, String> defaults = new HashMap<>();
        defaults.put("otel.service.name", "agentfuse");
        defaults.put("otel.traces.exporter", "otlp");
        defaults.put("otel.metrics.exporter", "none");
        defaults.put("otel.logs.exporter", "none");
        defaults.put("otel.exporter.otlp.protocol", "http/protobuf");
        config.otlpEndpoint().ifPresent(endpoint -> defaults.put("otel.exporter.otlp.endpoint", endpoint.toString()));
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> defaults)
                .disableShutdownHook()
                .build()
                .getOpenTelemetrySdk();
        return new OtelTracing(sdk);
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public RequestTrace request(MultiMap callerHeaders) {
        Span span = tracer.spanBuilder(CHAT).setParent(callerContext(callerHeaders)).setSpanKind(SpanKind.SERVER)
                .setAttribute(OPERATION, CHAT).startSpan();
        return new OtelRequestTrace(tracer, span);
    }

    @Override
    public McpCallTrace mcpCall(MultiMap callerHeaders, String server, String method, String tool) {
        String name = method == null ? "mcp" : tool == null ? method : method + " " + tool;
        var builder = tracer.spanBuilder(name).setParent(callerContext(callerHeaders)).setSpanKind(SpanKind.SERVER)
                .setAttribute(MCP_SERVER, server);
        if (method != null) {
            builder.setAttribute(MCP_METHOD, method);
        }
        if (tool != null) {
            builder.setAttribute(TOOL, tool);
        }
        Span span = builder.startSpan();
        return new McpCallTrace() {
            @Override
            public Map<String, String> propagation() {
                return OtelTracing.propagation(span);
            }

            @Override
            public void ended(int status) {
                span.setAttribute(STATUS, (long) status);
                if (status >= 500) {
                    span.setAttribute(ERROR_TYPE, Integer.toString(status));
                    span.setStatus(StatusCode.ERROR);
                }
                span.end();
            }
        };
    }

    /** The caller's trace context, or none. */
    private static Context callerContext(MultiMap headers) {
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, HEADERS);
    }

    /** {@code traceparent} (and {@code tracestate}) naming {@code span} as the parent of what is called next. */
    static Map<String, String> propagation(Span span) {
        Map<String, String> headers = new LinkedHashMap<>(2);
        W3CTraceContextPropagator.getInstance().inject(Context.root().with(span), headers, Map::put);
        return headers;
    }

    @Override
    public void close() {
        sdk.shutdown().join(FLUSH_SECONDS, TimeUnit.SECONDS);
    }
}

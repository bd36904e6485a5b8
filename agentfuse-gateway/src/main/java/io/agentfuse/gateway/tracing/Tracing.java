package io.agentfuse.gateway.tracing;

import io.agentfuse.config.ObservabilityConfig;
import io.vertx.core.MultiMap;

import java.util.Map;
import java.util.Objects;

/**
 * Where the gateway's traces go (docs/design.md §14): nowhere by default ({@link #OFF}), or over OTLP/HTTP
 * through the OpenTelemetry SDK when {@code observability.otlp.endpoint} is configured or the
 * standard variables ask for it ({@code OTEL_EXPORTER_OTLP_ENDPOINT},
 * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}, or {@code OTEL_TRACES_EXPORTER} other than {@code none});
 * {@code OTEL_SDK_DISABLED=true} keeps them off. Every other {@code OTEL_*} variable
 * ({@code OTEL_SERVICE_NAME}, {@code OTEL_RESOURCE_ATTRIBUTES}, {@code OTEL_TRACES_SAMPLER}, headers,
 * timeouts, ...) applies as the SDK documents, and wins over the file.
 *
 * <p>Off costs a shared no-op per hook: the SDK's classes are not even loaded.
 *
 * <pre>{@code
 * Tracing tracing = Tracing.start(config.observability(), System.getenv());
 * RequestTrace trace = tracing.request(request.headers());
 * ...
 * tracing.close();   // exports what is left
 * }</pre>
 *
 * <p>Thread-safe.
 */
public interface Tracing extends AutoCloseable {

    /** No traces. */
    Tracing OFF = new Tracing() {
        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public RequestTrace request(MultiMap callerHeaders) {
            return RequestTrace.NONE;
        }

        @Override
        public McpCallTrace mcpCall(MultiMap callerHeaders, String server, String method, String tool) {
            return McpCallTrace.NONE;
        }

        @Override
        public void close() {
        }
    };

    /** Whether spans are recorded and exported. */
    boolean enabled();

    /** Starts the trace of a model request, continuing the caller's {@code traceparent} if it sent one. */
    RequestTrace request(MultiMap callerHeaders);

    /** Starts the span of an MCP call of {@code method} ({@code tool} for {@code tools/call}, else null) on {@code server}. */
    McpCallTrace mcpCall(MultiMap callerHeaders, String server, String method, String tool);

    /** Exports the spans still buffered and stops; at most a few seconds. */
    @Override
    void close();

    /** Tracing as {@code config} and the {@code environment}'s {@code OTEL_*} variables say; {@link #OFF} unless asked for. */
    static Tracing start(ObservabilityConfig config, Map<String, String> environment) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(environment, "environment");
        if (!asked(config, environment)) {
            return OFF;
        }
        return OtelTracing.start(config);
    }

    /** Whether the configuration or the standard variables ask for traces. */
    static boolean asked(ObservabilityConfig config, Map<String, String> environment) {
        if ("true".equalsIgnoreCase(environment.getOrDefault("OTEL_SDK_DISABLED", "").trim())) {
            return false;
        }
        String exporter = environment.getOrDefault("OTEL_TRACES_EXPORTER", "").trim();
        if (exporter.equalsIgnoreCase("none")) {
            return false;
        }
        return config.otlpEndpoint().isPresent() || !exporter.isEmpty()
                || environment.containsKey("OTEL_EXPORTER_OTLP_ENDPOINT")
                || environment.containsKey("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    }
}

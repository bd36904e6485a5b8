package io.agentfuse.config;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code observability:} section: where the gateway sends its OpenTelemetry traces (docs/design.md §14).
 * Off by default ({@link ConfigDefaults#OBSERVABILITY}): without an endpoint here, traces are sent
 * only when the standard {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or {@code ..._TRACES_ENDPOINT}, or
 * {@code OTEL_TRACES_EXPORTER}) variable asks for them. Read at start. Immutable and thread-safe.
 *
 * <pre>{@code
 * observability:
 *   otlp:
 *     endpoint: "http://otel-collector:4318"   # OTLP over HTTP (protobuf); /v1/traces is appended
 * }</pre>
 *
 * @param otlpEndpoint the base URL of an OTLP/HTTP receiver ({@code observability.otlp.endpoint}), if given
 */
public record ObservabilityConfig(Optional<URI> otlpEndpoint) {

    public ObservabilityConfig {
        Objects.requireNonNull(otlpEndpoint, "otlpEndpoint");
    }
}

package io.agentfuse.gateway.tracing;

import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 for tests: it answers {@code POST /v1/traces} as a
 * collector does and decodes each export (protobuf, {@code ExportTraceServiceRequest} of
 * opentelemetry-proto) into {@link ReceivedSpan}s, reading the wire format itself: the fields a
 * test looks at, every other field skipped by its wire type.
 */
final class OtlpReceiver implements AutoCloseable {

    /** One span as received: ids in lower-case hex, attribute values as String, Long, Double or Boolean. */
    record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name, int kind,
                        Map<String, Object> attributes, int statusCode) {

        Object attribute(String key) {
            return attributes.get(key);
        }
    }

    static final int KIND_SERVER = 2;
    static final int KIND_CLIENT = 3;
    static final int STATUS_ERROR = 2;

    private final Vertx vertx = Vertx.vertx();
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    OtlpReceiver() {
        server = Await.result(vertx.createHttpServer().requestHandler(request -> {
            if (!request.path().equals("/v1/traces")) {
                request.response().setStatusCode(404).end();
                return;
            }
            contentTypes.add(String.valueOf(request.getHeader("content-type")));
            request.body().onSuccess(body -> {
                spans.addAll(decodeRequest(body.getBytes()));
                request.response().putHeader("content-type", "application/x-protobuf").end();
            });
        }).listen(0, "127.0.0.1"));
    }

    /** The base URL to configure as the OTLP endpoint. */
    String endpoint() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    List<String> contentTypes() {
        return List.copyOf(contentTypes);
    }

    @Override
    public void close() {
        Await.result(vertx.close());
    }

    // ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
    private static List<ReceivedSpan> decodeRequest(byte[] bytes) {
        List<ReceivedSpan> out = new ArrayList<>();
        Proto request = new Proto(bytes);
        while (request.more()) {
            int field = request.field();
            if (field == 1) {
                decodeResourceSpans(request.message(), out);
            } else {
                request.skip();
            }
        }
        return out;
    }

    // ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
    // ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
    private static void decodeResourceSpans(Proto resourceSpans, List<ReceivedSpan> out) {
        while (resourceSpans.more()) {
            if (resourceSpans.field() == 2) {
                Proto scopeSpans = resourceSpans.message();
                while (scopeSpans.more()) {
                    if (scopeSpans.field() == 2) {
                        out.add(decodeSpan(scopeSpans.message()));
                    } else {
                        scopeSpans.skip();
                    }
                }
            } else {
                resourceSpans.skip();
            }
        }
    }

    // Span { bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; SpanKind kind = 6;
    //        repeated KeyValue attributes = 9; Status status = 15; }   Status { string message = 2; StatusCode code = 3; }
    private static ReceivedSpan decodeSpan(Proto span) {
        String traceId = "";
        String spanId = "";
        String parent = "";
        String name = "";
        int kind = 0;
        int status = 0;
        Map<String, Object> attributes = new LinkedHashMap<>();
        while (span.more()) {
            switch (span.field()) {
                case 1 -> traceId = HexFormat.of().formatHex(span.bytes());
                case 2 -> spanId = HexFormat.of().formatHex(span.bytes());
                case 4 -> parent = HexFormat.of().formatHex(span.bytes());
                case 5 -> name = span.string();
                case 6 -> kind = (int) span.varint();
                case 9 -> decodeAttribute(span.message(), attributes);
                case 15 -> {
                    Proto statusMessage = span.message();
                    while (statusMessage.more()) {
                        if (statusMessage.field() == 3) {
                            status = (int) statusMessage.varint();
                        } else {
                            statusMessage.skip();
                        }
                    }
                }
                default -> span.skip();
            }
        }
        return new ReceivedSpan(traceId, spanId, parent, name, kind, attributes, status);
    }

    // KeyValue { string key = 1; AnyValue value = 2; }
    // AnyValue { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ... }
    private static void decodeAttribute(Proto keyValue, Map<String, Object> attributes) {
        String key = null;
        Object value = null;
        while (keyValue.more()) {
            if (keyValue.field() == 1) {
                key = keyValue.string();
            } else if (keyValue.lastField == 2) {
                Proto any = keyValue.message();
                while (any.more()) {
                    switch (any.field()) {
                        case 1 -> value = any.string();
                        case 2 -> value = any.varint() != 0;
                        case 3 -> value = any.varint();
                        case 4 -> value = Double.longBitsToDouble(any.fixed64());
                        default -> any.skip();
                    }
                }
            } else {
                keyValue.skip();
            }
        }
        if (key != null) {
            attributes.put(key, value);
        }
    }

    /** A reader of protobuf's wire format over one message's bytes. */
    private static final class Proto {
        private final byte[] bytes;
        private int position;
        private final int end;
        int lastField;
        private int lastWireType;

        Proto(byte[] bytes) {
            this(bytes, 0, bytes.length);
        }

        private Proto(byte[] bytes, int start, int end) {
            this.bytes = bytes;
            this.position = start;
            this.end = end;
        }

        boolean more() {
            return position < end;
        }

        /** Reads the next tag: its field number. */
        int field() {
            long tag = varint();
            lastField = (int) (tag >>> 3);
            lastWireType = (int) (tag & 7);
            return lastField;
        }

        long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                byte b = bytes[position++];
                value |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
            throw new IllegalStateException("a varint longer than 10 bytes");
        }

        long fixed64() {
            long value = ByteBuffer.wrap(bytes, position, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
            position += 8;
            return value;
        }

        byte[] bytes() {
            int length = (int) varint();
            ByteArrayOutputStream out = new ByteArrayOutputStream(length);
            out.write(bytes, position, length);
            position += length;
            return out.toByteArray();
        }

        String string() {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        Proto message() {
            int length = (int) varint();
            Proto inner = new Proto(bytes, position, position + length);
            position += length;
            return inner;
        }

        /** Skips the value of the field just read. */
        void skip() {
            switch (lastWireType) {
                case 0 -> varint();
                case 1 -> position += 8;
                case 2 -> {
                    int length = (int) varint(); // read before the position is: += would add to the old one
                    position += length;
                }
                case 5 -> position += 4;
                default -> throw new IllegalStateException("wire type " + lastWireType + " is not supported");
            }
        }
    }
}

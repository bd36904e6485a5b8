package io.agentfuse.gateway.http;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HopByHopTest {

    private static List<String> endToEnd(List<Map.Entry<String, String>> headers) {
        List<String> passed = new ArrayList<>();
        HopByHop.forEachEndToEnd(headers, (name, value) -> passed.add(name + ": " + value));
        return passed;
    }

    @Test
    void theStandardHopHeadersAndTheRecomputedOnesStay() {
        assertThat(endToEnd(List.of(Map.entry("Content-Type", "application/json"), Map.entry("Keep-Alive", "timeout=5"),
                Map.entry("Transfer-Encoding", "chunked"), Map.entry("Content-Length", "12"), Map.entry("x-request-id", "r1"))))
                .containsExactly("Content-Type: application/json", "x-request-id: r1");
    }

    @Test
    void theHeadersTheConnectionHeaderNamesAreThisHopsOwnAndStayToo() {
        // RFC 9110 7.6.1: a proxy removes every header its Connection header lists, whatever the name
        assertThat(endToEnd(List.of(Map.entry("Connection", "close, X-Secret-Hop"), Map.entry("x-secret-hop", "internal"),
                Map.entry("Connection", " X-Other "), Map.entry("X-Other", "1"), Map.entry("retry-after", "3"))))
                .containsExactly("retry-after: 3");
    }

    @Test
    void withoutAConnectionHeaderEveryEndToEndHeaderPassesInOrderRepeatedOnesRepeated() {
        assertThat(endToEnd(List.of(Map.entry("set-cookie", "a=1"), Map.entry("set-cookie", "b=2"), Map.entry("x-a", "1"))))
                .containsExactly("set-cookie: a=1", "set-cookie: b=2", "x-a: 1");
    }
}

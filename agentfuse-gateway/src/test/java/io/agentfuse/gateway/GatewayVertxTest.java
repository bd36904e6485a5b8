package io.agentfuse.gateway;

import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code server.transport}: which transport each choice runs on, that each serves the gateway's
 * traffic, and what happens where one cannot load. (Every other gateway test runs on AUTO's choice,
 * the transport the command line runs on.)
 */
class GatewayVertxTest {

    private static final boolean LINUX_X86_64 = System.getProperty("os.name").startsWith("Linux")
            && System.getProperty("os.arch").matches("amd64|x86_64");

    @Test
    void autoRunsOnIoUringWhereItLoadsElseOnEpollAndSaysWhy() {
        Vertx vertx = GatewayVertx.create();
        try {
            String described = GatewayVertx.describe(vertx);
            if (!LINUX_X86_64) {
                assertThat(described).startsWith("nio (io_uring unavailable: ");
            } else if (Transport.IO_URING.available()) {
                assertThat(described).isEqualTo("io_uring");
                assertThat(vertx.isNativeTransportEnabled()).isTrue();
            } else {
                assertThat(described).startsWith("epoll (io_uring unavailable: ");
                assertThat(vertx.isNativeTransportEnabled()).as("epoll ships for Linux x86-64").isTrue();
            }
        } finally {
            vertx.close().await();
        }
    }

    @ParameterizedTest
    @EnumSource(value = ServerConfig.Transport.class, names = {"IO_URING", "EPOLL", "NIO"})
    void aTransportNamedOutrightServesCompleteAndStreamedAnswersOrRefusesToStart(ServerConfig.Transport choice) {
        if (!loads(choice)) {
            assertThatThrownBy(() -> GatewayVertx.create(choice)).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("server.transport is " + name(choice) + ", which cannot load here (")
                    .hasMessageEndingWith("); use auto to run on the best transport that loads");
            return;
        }
        Vertx vertx = GatewayVertx.create(choice);
        assertThat(GatewayVertx.describe(vertx)).startsWith(name(choice));
        GatewayHarness harness = GatewayHarness.start(vertx, GatewayHarness.CONFIG, GatewayOptions.builder().port(0).build());
        try {
            harness.mock.script(MockStep.builder().text("Hello").build());
            Reply complete = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
            harness.mock.script(MockStep.builder().chunks("Hel", "lo").build());
            StreamReply streamed = harness.client.stream("/v1/chat/completions", openAiRequest("gpt-4o-mini", true), Map.of());

            assertThat(complete.status()).isEqualTo(200);
            assertThat(complete.json().getJsonArray("choices").getJsonObject(0).getJsonObject("message")
                    .getString("content")).isEqualTo("Hello");
            assertThat(streamed.status()).isEqualTo(200);
            assertThat(streamed.cutOff()).isFalse();
            assertThat(streamed.data()).contains("Hel").contains("lo");
        } finally {
            harness.close();
        }
    }

    @Test
    void whereNoNativeTransportLoadsAutoRunsOnNioAndANamedOneRefusesToStart() throws Exception {
        // Netty's own switch turns both native transports off for a whole JVM, so this runs in a child.
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dio.netty.transport.noNative=true",
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                TransportProbe.class.getName()).redirectErrorStream(true).start();
        child.getOutputStream().close();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the probe ends").isTrue();
        List<String> lines = output(child);

        assertThat(child.exitValue()).as(String.join("\n", lines)).isZero();
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("auto: nio (io_uring unavailable: ").contains("; epoll unavailable: ")
                .contains("explicit disabled"));
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("io_uring: server.transport is io_uring, which cannot load here (")
                .endsWith("); use auto to run on the best transport that loads"));
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("nio: nio (io_uring unavailable: "));
    }

    private static List<String> output(Process child) throws IOException {
        return new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }

    private static boolean loads(ServerConfig.Transport choice) {
        return switch (choice) {
            case IO_URING -> Transport.IO_URING != null && Transport.IO_URING.available();
            case EPOLL -> Transport.EPOLL != null && Transport.EPOLL.available();
            case NIO -> true;
            case AUTO -> throw new IllegalArgumentException("auto");
        };
    }

    private static String name(ServerConfig.Transport choice) {
        return choice.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The child of {@link #whereNoNativeTransportLoadsAutoRunsOnNioAndANamedOneRefusesToStart()}: one line per choice. */
    public static final class TransportProbe {

        public static void main(String[] args) {
            for (ServerConfig.Transport choice : ServerConfig.Transport.values()) {
                String result;
                try {
                    Vertx vertx = GatewayVertx.create(choice);
                    result = GatewayVertx.describe(vertx);
                    vertx.close().await();
                } catch (IllegalStateException e) {
                    result = e.getMessage();
                }
                System.out.println(name(choice) + ": " + result);
            }
        }
    }
}

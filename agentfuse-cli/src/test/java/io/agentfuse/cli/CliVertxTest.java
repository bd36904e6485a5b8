package io.agentfuse.cli;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CliVertxTest {

    private static final boolean LINUX_X86_64 = System.getProperty("os.name").startsWith("Linux")
            && System.getProperty("os.arch").matches("amd64|x86_64");

    @Test
    void theCommandsRunOnTheNativeTransportWhereItShipsAndSayWhyNotElsewhere() {
        Vertx vertx = CliVertx.create();
        try {
            if (LINUX_X86_64) {
                assertThat(vertx.isNativeTransportEnabled()).as("epoll on Linux x86-64: %s",
                        vertx.unavailableNativeTransportCause()).isTrue();
                assertThat(CliVertx.transport(vertx)).isEqualTo("native");
            } else {
                assertThat(CliVertx.transport(vertx)).startsWith("nio");
            }
        } finally {
            vertx.close().await();
        }
    }
}

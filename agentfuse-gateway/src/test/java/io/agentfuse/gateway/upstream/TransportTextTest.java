package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.MalformedAnswerException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;

import static org.assertj.core.api.Assertions.assertThat;

class TransportTextTest {

    @Test
    void aRefusedConnectionIsSaidInPlainWordsWithoutTheTransportsText() {
        String text = TransportText.of(new ConnectException("io_uring connect(..) failed with error(-111): Connection refused"));

        assertThat(text).isEqualTo("the connection to the provider was refused").doesNotContain("io_uring");
    }

    @Test
    void aResetConnectionIsSaidInPlainWords() {
        assertThat(TransportText.of(new IOException("io_uring read(..) failed with error(-104)")))
                .isEqualTo("the connection to the provider was reset by the provider");
        assertThat(TransportText.of(new IOException("readAddress(..) failed: Connection reset by peer")))
                .isEqualTo("the connection to the provider was reset by the provider");
    }

    @Test
    void aBrokenStreamNamesItsProviderInPlainWords() {
        Throwable broken = UpstreamFailures.of(new ProviderEndpoint("anthropic", io.agentfuse.gateway.provider.Dialects.ANTHROPIC,
                "http://127.0.0.1:1", "k"), new IOException("io_uring read(..) failed with error(-104)"));

        assertThat(TransportText.of(broken)).isEqualTo("connection to provider anthropic was reset by the provider");
    }

    @Test
    void aFailureTheGatewayWordedKeepsItsMessage() {
        assertThat(TransportText.of(new MalformedAnswerException("the answer is not JSON")))
                .isEqualTo("the answer is not JSON");
        assertThat(TransportText.of(new IllegalStateException())).isEqualTo("an unexpected failure");
    }
}

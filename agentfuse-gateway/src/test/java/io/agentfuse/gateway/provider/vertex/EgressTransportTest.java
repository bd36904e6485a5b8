package io.agentfuse.gateway.provider.vertex;

import com.google.api.client.http.ByteArrayContent;
import com.google.api.client.http.GenericUrl;
import io.agentfuse.gateway.dialect.AuthRequests;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A token request waits for its answer, which an event loop delivers: on an event loop it would wait
 * for itself. It fails there at once, before anything is sent, rather than hang the loop.
 */
class EgressTransportTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void stop() {
        Await.result(vertx.close());
    }

    @Test
    void aTokenRequestOnAnEventLoopFailsAtOnceAndSendsNothing() {
        AtomicInteger sent = new AtomicInteger();
        AuthRequests requests = request -> {
            sent.incrementAndGet();
            return new CompletableFuture<>(); // an answer that never comes
        };
        EgressTransport transport = new EgressTransport(new UpstreamAuth.Means(Runnable::run, requests));
        Promise<Throwable> failure = Promise.promise();

        vertx.runOnContext(onTheLoop -> {
            try {
                transport.createRequestFactory().buildPostRequest(new GenericUrl("https://oauth2.googleapis.com/token"),
                        ByteArrayContent.fromString("application/x-www-form-urlencoded", "grant_type=x")).execute();
                failure.complete(null);
            } catch (Throwable e) {
                failure.complete(e);
            }
        });

        assertThat(Await.result(failure.future())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("event loop");
        assertThat(sent).hasValue(0);
    }
}

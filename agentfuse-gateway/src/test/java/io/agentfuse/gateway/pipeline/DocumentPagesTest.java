package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.provider.PdfPages;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.TestPdf;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class DocumentPagesTest {

    /** One worker thread, so that a test can hold it and see that nothing is counted on the event loop meanwhile. */
    private final Vertx vertx = Vertx.vertx(new VertxOptions().setWorkerPoolSize(1));

    @AfterEach
    void close() {
        vertx.close().await();
    }

    private static ModelRequest request(JsonArray content) {
        ChatRequest chat = Dialects.OPENAI.parseRequest(new JsonObject().put("model", "claude")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", content))));
        var config = ConfigLoader.parse(GatewayHarness.CONFIG, "test.yaml", Map.of("MOCK_PORT", "9"));
        return new ModelRequest(chat, config.models().values().iterator().next(), null, null);
    }

    private static JsonObject file(String dataUrl) {
        return new JsonObject().put("type", "file").put("file", new JsonObject().put("filename", "a.pdf").put("file_data", dataUrl));
    }

    @Test
    void findsTheUncountedPdfsOfTurnsAndOfToolResults() {
        String inTurn = TestPdf.dataUrl(TestPdf.uncompressed(2));
        String inResult = TestPdf.dataUrl(TestPdf.uncompressed(3));
        ContentPart.Document turnPdf = new ContentPart.Document(inTurn, null);
        ContentPart.Document resultPdf = new ContentPart.Document(inResult, null);
        List<ChatMessage> messages = List.of(
                new ChatMessage(ChatMessage.Role.USER, List.of(turnPdf,
                        new ContentPart.Document("https://example.com/a.pdf", null), new ContentPart.Image("data:image/png;base64,iVBOR"))),
                new ChatMessage(ChatMessage.Role.USER, List.of(new ContentPart.ToolResult("call_1", "read", false,
                        List.of(resultPdf)))));

        assertThat(DocumentPages.uncounted(messages)).containsExactly(turnPdf.source(), resultPdf.source());
    }

    @Test
    void aRequestWithoutAPdfPassesAtOnce() {
        ModelRequest request = request(new JsonArray().add(new JsonObject().put("type", "text").put("text", "hi")));
        Context context = vertx.getOrCreateContext();

        Future<ModelRequest> counted = DocumentPages.counted(request, context);

        assertThat(counted.isComplete()).isTrue();
        assertThat(counted.result()).isSameAs(request);
    }

    @Test
    void aRequestsPdfsAreCountedOnAWorkerAndRemembered() throws Exception {
        ModelRequest request = request(new JsonArray().add(file(TestPdf.dataUrl(TestPdf.withObjectStream(5)))));
        MediaSource pdf = ((ContentPart.Document) request.chat().messages().get(0).content().get(0)).source();
        CompletableFuture<Boolean> leftTheLoop = new CompletableFuture<>();
        CompletableFuture<Boolean> backOnTheLoop = new CompletableFuture<>();
        CompletableFuture<ModelRequest> done = new CompletableFuture<>();
        Context context = vertx.getOrCreateContext();
        CountDownLatch workerHeld = new CountDownLatch(1);
        CountDownLatch releaseWorker = new CountDownLatch(1);
        context.executeBlocking(() -> {
            workerHeld.countDown();
            return releaseWorker.await(10, TimeUnit.SECONDS);
        }, false);
        assertThat(workerHeld.await(10, TimeUnit.SECONDS)).isTrue();

        context.runOnContext(v -> {
            Future<ModelRequest> counting = DocumentPages.counted(request, context);
            // The only worker is held: a count made here, on the event loop, would be done by now.
            leftTheLoop.complete(!counting.isComplete() && PdfPages.uncounted(pdf));
            releaseWorker.countDown();
            counting.onComplete(counted -> {
                backOnTheLoop.complete(Context.isOnEventLoopThread());
                done.complete(counted.result());
            });
        });

        assertThat(done.get(10, TimeUnit.SECONDS)).isSameAs(request);
        assertThat(leftTheLoop.get()).as("counted on a worker, not while the event loop waits").isTrue();
        assertThat(backOnTheLoop.get()).as("the request comes back to its event loop").isTrue();
        assertThat(PdfPages.uncounted(pdf)).isFalse();
        assertThat(PdfPages.of(pdf)).isEqualTo(5);
    }
}

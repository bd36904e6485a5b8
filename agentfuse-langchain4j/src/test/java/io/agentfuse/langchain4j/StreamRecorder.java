package io.agentfuse.langchain4j;

import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** What a caller's handler saw of one stream: the pieces of text, then its end (a response or an error). */
final class StreamRecorder implements StreamingChatResponseHandler {

    final List<String> pieces = new CopyOnWriteArrayList<>();
    final CompletableFuture<ChatResponse> end = new CompletableFuture<>();
    final CompletableFuture<String> firstPiece = new CompletableFuture<>();

    @Override
    public void onPartialResponse(String partial) {
        pieces.add(partial);
        firstPiece.complete(partial);
    }

    @Override
    public void onCompleteResponse(ChatResponse response) {
        end.complete(response);
    }

    @Override
    public void onError(Throwable error) {
        end.completeExceptionally(error);
    }

    /** Waits for the first piece of text (bounded). */
    String awaitFirstPiece() throws Exception {
        return firstPiece.get(30, TimeUnit.SECONDS);
    }

    /** The text streamed so far. */
    String text() {
        return String.join("", pieces);
    }

    /** The complete response; fails if the stream ended in an error (bounded, so a bug cannot hang the build). */
    ChatResponse response() throws Exception {
        return end.get(30, TimeUnit.SECONDS);
    }

    /** The error the stream ended with. */
    Throwable error() throws Exception {
        try {
            end.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the stream ended without an error: " + text());
    }
}

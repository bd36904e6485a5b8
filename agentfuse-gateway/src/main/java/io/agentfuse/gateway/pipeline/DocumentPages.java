package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.provider.PdfPages;
import io.vertx.core.Context;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;

/**
 * The pipeline's count of document pages, between the context stage and routing: the pages of every
 * inline PDF of a request are counted on a worker thread ({@link PdfPages}, which decodes and reads
 * the whole document) and remembered, so that planning the chain on the event loop finds them counted
 * when it checks a Claude step's limits. A request without such a document — nearly every one — passes
 * at once, with no hop off its event loop. Stateless.
 *
 * <pre>{@code
 * DocumentPages.counted(request, Vertx.currentContext()).onSuccess(this::route);
 * }</pre>
 */
final class DocumentPages {

    private DocumentPages() {
    }

    /** {@code request} once its PDFs are counted, on {@code context}'s workers; at once when none is to count. */
    static Future<ModelRequest> counted(ModelRequest request, Context context) {
        List<MediaSource> uncounted = uncounted(request.chat().messages());
        if (uncounted.isEmpty()) {
            return Future.succeededFuture(request);
        }
        return context.executeBlocking(() -> {
            PdfPages.countAll(uncounted);
            return request;
        }, false);
    }

    /** The sources of the inline PDFs of {@code messages} not counted yet, tool results' included. */
    static List<MediaSource> uncounted(List<ChatMessage> messages) {
        List<MediaSource> sources = new ArrayList<>(0);
        for (ChatMessage message : messages) {
            for (ContentPart part : message.content()) {
                collect(part, sources);
            }
        }
        return sources;
    }

    private static void collect(ContentPart part, List<MediaSource> sources) {
        if (part instanceof ContentPart.Document document && PdfPages.uncounted(document.source())) {
            sources.add(document.source());
        } else if (part instanceof ContentPart.ToolResult result) {
            for (ContentPart attachment : result.attachments()) { // no lambda: every tool result of every request passes here
                collect(attachment, sources);
            }
        }
    }
}

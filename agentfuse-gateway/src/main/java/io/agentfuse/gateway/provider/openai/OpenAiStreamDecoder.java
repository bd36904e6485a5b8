package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.ScanPrefix;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decodes OpenAI {@code chat.completion.chunk} events. The {@link StreamEvent.Finish} is held
 * back until {@code data: [DONE]}, because the usage chunk (when asked for) comes after the
 * chunk with the finish reason. Only choice 0 is read. Not thread-safe; one per stream.
 */
public final class OpenAiStreamDecoder implements StreamDecoder {

    private boolean started;
    private boolean finished;
    private FinishReason finishReason;
    private Usage usage = Usage.ZERO;
    /** Whether the last event was a usage chunk: no choices, only the usage. */
    private boolean lastWasUsageChunk;
    private final Set<Integer> toolCalls = new HashSet<>();
    /** What the stream's chunks begin with, for {@link OpenAiChunkScan}. */
    private final ScanPrefix leading = new ScanPrefix();

    @Override
    public List<StreamEvent> decode(SseEvent event) {
        lastWasUsageChunk = false;
        if (finished) {
            return List.of();
        }
        if (event.isDone()) {
            finished = true;
            List<StreamEvent> out = new ArrayList<>(2);
            start(out, null, null);
            out.add(new StreamEvent.Finish(finishReason, null, usage));
            return out;
        }
        JsonObject chunk;
        try {
            chunk = new JsonObject(event.data());
        } catch (DecodeException | ClassCastException e) {
            return malformed("a stream event that is not a JSON object: " + AnswerShape.excerpt(event.data()));
        }
        try {
            return decodeChunk(chunk);
        } catch (MalformedAnswerException | ClassCastException | NullPointerException | IllegalArgumentException e) {
            // MalformedAnswerException: not of the shape OpenAiShapes.CHUNK; IllegalArgumentException:
            // a value our types refuse, such as a negative token count.
            return malformed("a stream event of the wrong shape: " + AnswerShape.excerpt(event.data()));
        }
    }

    /**
     * {@link #decode} without the text and tool-call events: a chunk plainly well formed, without
     * an error or tool calls ({@link OpenAiChunkScan}, most chunks of a stream), is only scanned
     * for its finish reason and usage; any other goes to {@link #decode}.
     */
    @Override
    public List<StreamEvent> observe(SseEvent event) {
        if (finished || event.isDone()) {
            return decode(event);
        }
        OpenAiChunkScan.Chunk chunk = OpenAiChunkScan.read(event.dataBytes(), leading);
        if (chunk == null) {
            return decode(event);
        }
        started = true;
        if (chunk.usage() != null) {
            usage = chunk.usage();
        }
        lastWasUsageChunk = chunk.usage() != null && chunk.noChoices();
        if (chunk.finishReason() != null) {
            finishReason = FinishReason.fromOpenAi(chunk.finishReason());
        }
        return List.of();
    }

    /** A plainly well-formed chunk ({@link OpenAiChunkScan}) says it without decoding: text begins the answer. */
    @Override
    public Opening opening(SseEvent event) {
        if (finished || event.isDone()) {
            return Opening.UNKNOWN;
        }
        OpenAiChunkScan.Chunk chunk = OpenAiChunkScan.read(event.dataBytes(), leading);
        return chunk == null ? Opening.UNKNOWN : chunk.text() ? Opening.BEGUN : Opening.PREAMBLE;
    }

    private List<StreamEvent> decodeChunk(JsonObject chunk) {
        if (chunk.getValue("error") instanceof JsonObject error) {
            return fail(error.getString("type", "server_error"), error.getString("message", "upstream stream error"));
        }
        AnswerShape.check(chunk, OpenAiShapes.CHUNK); // the field list its scan reads too (OpenAiChunkScan)
        List<StreamEvent> out = new ArrayList<>(2);
        start(out, chunk.getString("id"), chunk.getString("model"));
        if (chunk.getValue("usage") instanceof JsonObject reported) {
            usage = OpenAiResponseCodec.usage(reported);
        }
        lastWasUsageChunk = chunk.getValue("choices") instanceof JsonArray none && none.isEmpty()
                && chunk.getValue("usage") instanceof JsonObject;
        JsonArray choices = chunk.getValue("choices") instanceof JsonArray array ? array : new JsonArray();
        for (int i = 0; i < choices.size(); i++) {
            JsonObject choice = choices.getJsonObject(i);
            // An index absent or null is 0, as the shape allows (getInteger would unbox a null).
            if (!(choice.getValue("index") instanceof Number index) || index.intValue() == 0) {
                readChoice(choice, out);
            }
        }
        return out;
    }

    /**
     * Clients that did not ask for usage may not expect a chunk with empty choices: the usage
     * chunk the gateway asked for on its own (to count tokens) is not relayed to them.
     */
    @Override
    public boolean relaysLastEvent(boolean clientWantsUsage) {
        return clientWantsUsage || !lastWasUsageChunk;
    }

    @Override
    public List<StreamEvent> end() {
        if (finished) {
            return List.of();
        }
        if (finishReason != null) {
            // Some OpenAI-compatible servers omit [DONE]; a finish reason already made the answer complete.
            return decode(SseEvent.DONE);
        }
        finished = true;
        return List.of(StreamEvent.Error.cut("the upstream stream ended before the answer was complete"));
    }

    @Override
    public boolean finished() {
        return finished;
    }

    @Override
    public Usage usage() {
        return usage;
    }

    private void readChoice(JsonObject choice, List<StreamEvent> out) {
        JsonObject delta = choice.getValue("delta") instanceof JsonObject d ? d : new JsonObject();
        for (String field : new String[] {"reasoning_content", "reasoning"}) {
            if (delta.getValue(field) instanceof String thought && !thought.isEmpty()) {
                out.add(StreamEvent.Reasoning.SHOWN);
                break;
            }
        }
        for (String field : new String[] {"content", "refusal"}) {
            if (delta.getValue(field) instanceof String text && !text.isEmpty()) {
                out.add(new StreamEvent.TextDelta(text));
            }
        }
        JsonArray calls = delta.getValue("tool_calls") instanceof JsonArray array ? array : new JsonArray();
        for (int i = 0; i < calls.size(); i++) {
            JsonObject call = calls.getJsonObject(i);
            int index = call.getInteger("index", i);
            JsonObject function = call.getValue("function") instanceof JsonObject given ? given : new JsonObject();
            if (toolCalls.add(index)) {
                // An id given as null is read as absent, as a complete answer reads it.
                out.add(new StreamEvent.ToolCallStart(index, call.getValue("id") instanceof String id ? id : "call_" + index,
                        function.getValue("name") instanceof String name ? name : ""));
            }
            if (function.getValue("arguments") instanceof String arguments && !arguments.isEmpty()) {
                out.add(new StreamEvent.ToolCallDelta(index, arguments));
            }
        }
        if (choice.getString("finish_reason") != null) {
            finishReason = FinishReason.fromOpenAi(choice.getString("finish_reason"));
        }
    }

    private void start(List<StreamEvent> out, String id, String model) {
        if (!started) {
            started = true;
            out.add(new StreamEvent.Start(id, model, Usage.ZERO));
        }
    }

    private List<StreamEvent> malformed(String message) {
        finished = true;
        return List.of(StreamEvent.Error.malformed("upstream sent " + message));
    }

    private List<StreamEvent> fail(String type, String message) {
        finished = true;
        return List.of(new StreamEvent.Error(type, message));
    }
}

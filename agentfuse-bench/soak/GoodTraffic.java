import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The soak's good traffic: what agents send, each request of a kind picked at random, all through
 * one client key, each in one of 200 000 sessions (more than the budget ledger keeps windows for:
 * it forgets the oldest).
 * A kind is good when its answer is the one it should be; anything else counts as its error, and
 * the first errors of a run are written to {@code errors.log} beside the table.
 *
 * <p>Kinds ({@code GOOD_KINDS}, default all): 0 a small request; 1 a stream of 20 events read to
 * its {@code [DONE]}; 2 an Anthropic-dialect stream to a model an OpenAI-dialect provider serves;
 * 3 a 150 KB coding-agent conversation; 4 a stream its caller leaves after the first event; 5 a
 * model whose provider fails in scripted ways (500s, 429s, cut streams), with a fallback, as a call
 * or a stream: it must always answer; 6 an MCP {@code tools/call}; 7 a session whose budget is
 * spent: 200 until it is, then 429 {@code budget_exceeded}.
 */
final class GoodTraffic {

    static final int KINDS = 8;
    static final String KEY = "sk-soak-good-client";
    private static final String SMALL = "{\"model\":\"gpt-4o-mini\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String STREAM = "{\"model\":\"gpt-4o-mini\",\"stream\":true,\"max_tokens\":100,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String ANTHROPIC_STREAM = "{\"model\":\"claude-soak\",\"stream\":true,\"max_tokens\":100,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String TOOL_CALL = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"query\",\"arguments\":{\"sql\":\"select 1\"}}}";

    private final int port;
    private final Path errorLog;
    private final String kinds = System.getenv().getOrDefault("GOOD_KINDS", "01234567");
    private final String conversation = conversation();
    private final AtomicLongArray done = new AtomicLongArray(KINDS);
    private final AtomicLongArray errors = new AtomicLongArray(KINDS);
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /**
     * Kind 4's clients, one per thread. Closing a response's line stream early closes the connection
     * it came on even when the whole body had come and the connection was back in the pool, taken by
     * another thread's request (JDK 17: "connection closed locally", seen by that request as "header
     * parser received no bytes"); a client used by one thread at a time has no other request then.
     */
    private final ThreadLocal<HttpClient> leavingClient = ThreadLocal.withInitial(
            () -> HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());

    GoodTraffic(int port, Path errorLog) {
        this.port = port;
        this.errorLog = errorLog;
    }

    /** Sends requests of random kinds until {@code running} says stop, timing the good ones into {@code latencies}. */
    void run(Random random, BooleanSupplier running, List<Long> latencies) {
        while (running.getAsBoolean()) {
            int kind = kinds.charAt(random.nextInt(kinds.length())) - '0';
            String session = "soak-" + random.nextInt(200_000);
            long begin = System.nanoTime();
            String problem;
            try {
                problem = send(kind, session, random);
            } catch (Exception e) {
                problem = e.toString();
            }
            if (!running.getAsBoolean()) {
                return; // cut by the end of the run, not by the gateway
            }
            done.incrementAndGet(kind);
            if (problem == null) {
                latencies.add((System.nanoTime() - begin) / 1_000);
            } else {
                errors.incrementAndGet(kind);
                log(kind, problem);
            }
        }
    }

    /** The requests and errors of each kind since the last call, as {@code kind:done/errors} for the kinds that ran. */
    String takeCounts() {
        StringBuilder counts = new StringBuilder();
        for (int kind = 0; kind < KINDS; kind++) {
            long requests = done.getAndSet(kind, 0);
            long failed = errors.getAndSet(kind, 0);
            if (requests > 0) {
                counts.append(counts.isEmpty() ? "" : " ").append(kind).append(':').append(requests).append('/').append(failed);
            }
        }
        return counts.toString();
    }

    /** The total of errors of every kind not yet taken. */
    long errorsSoFar() {
        long total = 0;
        for (int kind = 0; kind < KINDS; kind++) {
            total += errors.get(kind);
        }
        return total;
    }

    /** Sends one request of {@code kind}; {@code null} when its answer is right, else what was wrong. */
    private String send(int kind, String session, Random random) throws Exception {
        return switch (kind) {
            case 0 -> expect(post("/v1/chat/completions", SMALL, session), 200, "\"choices\"");
            case 1 -> streamToEnd("/v1/chat/completions", STREAM, session, "data: [DONE]");
            case 2 -> streamToEnd("/v1/messages", ANTHROPIC_STREAM, session, "event: message_stop");
            case 3 -> expect(post("/v1/chat/completions", conversation, session), 200, "\"choices\"");
            case 4 -> leaveAfterFirstEvent(session);
            case 5 -> random.nextBoolean()
                    ? expect(post("/v1/chat/completions", SMALL.replace("gpt-4o-mini", "flaky"), session), 200, "\"choices\"")
                    : streamToEnd("/v1/chat/completions", STREAM.replace("gpt-4o-mini", "flaky"), session, "data: [DONE]");
            case 6 -> expect(client.send(request("/mcp/db", TOOL_CALL, session)
                            .header("accept", "application/json, text/event-stream").header("mcp-protocol-version", "2026-07-28")
                            .header("mcp-method", "tools/call").header("mcp-name", "query").build(),
                    HttpResponse.BodyHandlers.ofString()), 200, "\"isError\":false");
            default -> spentSession();
        };
    }

    private String spentSession() throws Exception {
        HttpResponse<String> answer = post("/v1/chat/completions", SMALL, "soak-spent");
        if (answer.statusCode() == 429 && answer.body().contains("budget_exceeded")) {
            return null;
        }
        return expect(answer, 200, "\"choices\"");
    }

    private String leaveAfterFirstEvent(String session) throws Exception {
        HttpResponse<Stream<String>> answer = leavingClient.get().send(request("/v1/chat/completions", STREAM, session).build(),
                HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> lines = answer.body()) {
            if (answer.statusCode() != 200) {
                return "HTTP " + answer.statusCode();
            }
            return lines.anyMatch(line -> line.startsWith("data:")) ? null : "no event";
        }
    }

    private String streamToEnd(String path, String body, String session, String last) throws Exception {
        HttpResponse<String> answer = client.send(request(path, body, session).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            return "HTTP " + answer.statusCode() + ": " + excerpt(answer.body());
        }
        return answer.body().contains(last) && !answer.body().contains("\"error\"") ? null : "stream: " + excerpt(answer.body());
    }

    private HttpResponse<String> post(String path, String body, String session) throws Exception {
        return client.send(request(path, body, session).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path, String body, String session) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(20))
                .header("content-type", "application/json").header("authorization", "Bearer " + KEY)
                .header("anthropic-version", "2023-06-01").header("x-agentfuse-session", session)
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static String expect(HttpResponse<String> answer, int status, String mark) {
        return answer.statusCode() == status && answer.body().contains(mark) ? null
                : "HTTP " + answer.statusCode() + ": " + excerpt(answer.body());
    }

    private static String excerpt(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "…";
    }

    private synchronized void log(int kind, String problem) {
        try {
            if (!Files.exists(errorLog) || Files.size(errorLog) < 1_000_000) {
                Files.writeString(errorLog, "kind " + kind + ": " + problem.replace('\n', ' ') + "\n",
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            }
        } catch (java.io.IOException ignored) {
            // the count still says it
        }
    }

    /** A coding agent's 60 turns, about 150 KB: file contents read by tools, edits, test output. */
    private static String conversation() {
        StringBuilder body = new StringBuilder("{\"model\":\"gpt-4o-mini\",\"max_tokens\":100,\"messages\":[")
                .append("{\"role\":\"system\",\"content\":\"You are a coding agent.\"}");
        String file = "    public int add(int a, int b) {\\n        return a + b;\\n    }\\n".repeat(40);
        for (int turn = 0; turn < 60; turn++) {
            body.append(",{\"role\":\"").append(turn % 2 == 0 ? "user" : "assistant").append("\",\"content\":\"Turn ")
                    .append(turn).append(": ").append(file).append("\"}");
        }
        return body.append("]}").toString();
    }
}

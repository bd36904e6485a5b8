import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Mixed good and hostile traffic against a running gateway, reporting every interval the
 * gateway's open file descriptors, its RSS, its heap in use after a full collection, and the
 * count, errors, p50 and p99 of good requests ({@link GoodTraffic}: what agents send), with each
 * kind's requests and errors.
 *
 * <p>Run by run-soak.sh: {@code Soak PORT GATEWAY_PID SECONDS INTERVAL OUT_TSV MOCK_PORT MCP_PORT}.
 * The mocks record every request they answer, so their journals are cleared every interval, and
 * the faults of the failing model's provider scripted anew.
 * Hostile kinds: half a head, a trickled head, a promised body never sent, idle keep-alive
 * connections, Content-Length with Transfer-Encoding, a foreign Host, a cross-origin text/plain
 * POST, a non-finite number, too many messages, streams whose callers never read (kinds 0 to 9,
 * in that order; the environment variable {@code HOSTILE_KINDS}, e.g. {@code 59}, restricts them,
 * and {@code HOSTILE_THREADS} (default 4) says how many threads send them).
 */
public final class Soak {

    private static final String BODY = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String STREAM = "{\"model\":\"gpt-4o-mini\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

    private static int port;
    private static volatile boolean running = true;
    private static final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    private static final AtomicLong hostileSent = new AtomicLong();

    public static void main(String[] args) throws Exception {
        port = Integer.parseInt(args[0]);
        long pid = Long.parseLong(args[1]);
        long seconds = Long.parseLong(args[2]);
        long interval = Long.parseLong(args[3]);
        Path out = Path.of(args[4]);
        URI mock = URI.create("http://127.0.0.1:" + args[5]);
        URI mcp = URI.create("http://127.0.0.1:" + args[6]);
        HttpClient control = HttpClient.newHttpClient();
        GoodTraffic good = new GoodTraffic(port, out.resolveSibling("errors.log"));
        ExecutorService pool = Executors.newCachedThreadPool();
        resetMocks(control, mock, mcp);
        for (int i = 0; i < 4; i++) {
            Random random = new Random(100 + i);
            pool.submit(() -> good.run(random, () -> running, latencies));
        }
        int hostileThreads = Integer.parseInt(System.getenv().getOrDefault("HOSTILE_THREADS", "4"));
        for (int i = 0; i < hostileThreads; i++) {
            int seed = i;
            pool.submit(() -> hostile(new Random(seed)));
        }
        List<String> rows = new ArrayList<>();
        rows.add("seconds\tfds\trss_kib\theap_live_kib\tgood\tgood_errors\tp50_ms\tp99_ms\thostile_sent\tkind:requests/errors");
        System.out.println(rows.get(0));
        long start = System.nanoTime();
        for (long t = interval; t <= seconds; t += interval) {
            Thread.sleep(interval * 1000);
            resetMocks(control, mock, mcp);
            List<Long> window;
            synchronized (latencies) {
                window = new ArrayList<>(latencies);
                latencies.clear();
            }
            Collections.sort(window);
            long errors = good.errorsSoFar();
            String row = t + "\t" + fds(pid) + "\t" + rss(pid) + "\t" + liveHeap(pid) + "\t" + window.size() + "\t" + errors
                    + "\t" + percentile(window, 0.50) + "\t" + percentile(window, 0.99) + "\t" + hostileSent.getAndSet(0)
                    + "\t" + good.takeCounts();
            rows.add(row);
            System.out.println(row);
        }
        running = false;
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        Files.write(out, rows);
        System.out.printf("soak: %.0f s done%n", (System.nanoTime() - start) / 1e9);
        System.exit(0);
    }

    /**
     * Clears both mocks' journals (they record every request), answers streams in 20 events, and
     * scripts the next faults of {@code flaky-upstream}: 500s, a 429, a cut stream, an in-band 529.
     */
    private static void resetMocks(HttpClient control, URI mock, URI mcp) throws Exception {
        control(control, mcp.resolve("/_mcp/reset"), "{}");
        control(control, mock.resolve("/_mock/reset"), "{}");
        StringBuilder chunks = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            chunks.append(i == 0 ? "" : ",").append("\"word").append(i).append(' ').append('"');
        }
        control(control, mock.resolve("/_mock/default"), "{\"chunks\":[" + chunks + "],\"times\":1}");
        control(control, mock.resolve("/_mock/script"), "{\"model\":\"flaky-upstream\",\"steps\":["
                + "{\"status\":500,\"times\":3},{\"status\":429,\"retryAfter\":\"1\"},"
                + "{\"drop\":\"midStream\",\"dropAfterChunks\":2,\"times\":2},"
                + "{\"streamError\":529,\"streamErrorAfterChunks\":3,\"times\":2},{\"delayMs\":0,\"times\":20}]}");
    }

    private static void control(HttpClient control, URI uri, String body) throws Exception {
        HttpResponse<String> answer = control.send(HttpRequest.newBuilder(uri).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException(uri + " answered " + answer.statusCode() + ": " + answer.body());
        }
    }

    private static void hostile(Random random) {
        String only = System.getenv().getOrDefault("HOSTILE_KINDS", "0123456789");
        while (running) {
            try {
                int kind = only.charAt(random.nextInt(only.length())) - '0';
                switch (kind) {
                    case 0 -> raw("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty", 3000, false);
                    case 1 -> trickle("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + "p".repeat(200) + "\r\n\r\n");
                    case 2 -> raw("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 100\r\n\r\n{", 3000, true);
                    case 3 -> raw("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 6000, true);
                    case 4 -> raw("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin/breakers HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 3000, true);
                    case 5 -> raw(post("rebound.example", "application/json", BODY, ""), 3000, true);
                    case 6 -> raw(post("127.0.0.1", "text/plain", BODY, "Origin: https://evil.example\r\n"), 3000, true);
                    case 7 -> raw(post("127.0.0.1", "application/json", BODY.replace("\"messages\"", "\"seed\":1e999,\"messages\""), ""), 3000, true);
                    case 8 -> raw(post("127.0.0.1", "application/json", manyMessages(20_000), ""), 5000, true);
                    default -> raw(post("127.0.0.1", "application/json", STREAM, ""), 4000, false);
                }
                hostileSent.incrementAndGet();
            } catch (Exception ignored) {
                // the gateway closing on a hostile peer is the point
            }
        }
    }

    private static String post(String host, String type, String body, String extra) {
        return "POST /v1/chat/completions HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: " + type + "\r\n" + extra
                + "Authorization: Bearer " + GoodTraffic.KEY + "\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    private static String manyMessages(int count) {
        StringBuilder body = new StringBuilder("{\"model\":\"gpt-4o-mini\",\"messages\":[");
        for (int i = 0; i < count; i++) {
            body.append(i == 0 ? "" : ",").append("{\"role\":\"user\",\"content\":\"a\"}");
        }
        return body.append("]}").toString();
    }

    /** Sends {@code text}, then reads (or, when {@code read} is false, does not read) until closed or {@code millis}. */
    private static void raw(String text, int millis, boolean read) throws Exception {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(millis);
            OutputStream out = socket.getOutputStream();
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] sink = new byte[8192];
            long deadline = System.currentTimeMillis() + millis;
            if (!read) {
                Thread.sleep(millis); // a caller that never reads
                return;
            }
            while (System.currentTimeMillis() < deadline && in.read(sink) >= 0) {
                // discard
            }
        }
    }

    private static void trickle(String head) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < head.length() && running; i++) {
                out.write(head.charAt(i));
                out.flush();
                Thread.sleep(100);
            }
        }
    }

    private static String fds(long pid) {
        String[] list = new java.io.File("/proc/" + pid + "/fd").list();
        return list == null ? "-" : Integer.toString(list.length);
    }

    /**
     * The gateway's heap in use right after a full collection: what it holds, not what it has yet to
     * collect. With the serial collector (run-soak.sh's default) that is its old generation, where a
     * full collection leaves everything live; the young one has filled again by the time it is read.
     */
    private static String liveHeap(long pid) throws Exception {
        jcmd(pid, "GC.run");
        java.util.regex.Matcher tenured = java.util.regex.Pattern.compile("tenured generation .*used (\\d+)K")
                .matcher(jcmd(pid, "GC.heap_info"));
        return tenured.find() ? tenured.group(1) : "-";
    }

    private static String jcmd(long pid, String command) throws Exception {
        Process jcmd = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
        String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        jcmd.waitFor();
        return output;
    }

    private static String rss(long pid) throws Exception {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                .map(l -> l.replaceAll("[^0-9]", "")).findFirst().orElse("-");
    }

    private static String percentile(List<Long> sorted, double q) {
        if (sorted.isEmpty()) {
            return "-";
        }
        long micros = sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
        return String.format("%.2f", micros / 1000.0);
    }
}

package io.agentfuse.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP/1.1 request on a connection of its own, written and read byte by byte as they come, so
 * that a test sees exactly how the server ended it: {@link #ended()} completes with everything
 * received when the server closed the connection in order, and fails with what was received when the
 * connection was reset or timed out instead. The request says {@code connection: close}: the
 * response ends with the connection.
 */
final class RawExchange {

    private static final Duration READ_BOUND = Duration.ofSeconds(60);

    private final StringBuffer received = new StringBuffer();
    private final CompletableFuture<String> ended = new CompletableFuture<>();

    private RawExchange() {
    }

    /** Sends {@code method path} with {@code json} (null: no body) to 127.0.0.1:{@code port}, and reads on a thread of its own. */
    static RawExchange send(int port, String method, String path, String json) throws IOException {
        RawExchange exchange = new RawExchange();
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout((int) READ_BOUND.toMillis());
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        String head = method + " " + path + " HTTP/1.1\r\nhost: 127.0.0.1:" + port + "\r\nconnection: close\r\n"
                + (json == null ? "" : "content-type: application/json\r\ncontent-length: " + body.length + "\r\n") + "\r\n";
        OutputStream out = socket.getOutputStream();
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        Thread reader = new Thread(() -> exchange.read(socket), "raw-exchange " + path);
        reader.setDaemon(true);
        reader.start();
        return exchange;
    }

    private void read(Socket socket) {
        try (socket; InputStream in = socket.getInputStream()) {
            byte[] chunk = new byte[8192];
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                received.append(new String(chunk, 0, n, StandardCharsets.UTF_8));
            }
            ended.complete(received.toString());
        } catch (IOException e) {
            ended.completeExceptionally(new IOException(e + " after receiving:\n" + received, e));
        }
    }

    /** What has arrived so far. */
    String received() {
        return received.toString();
    }

    /** Waits until what has arrived contains {@code text}; fails after {@code bound}. */
    void awaitReceived(String text, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!received.toString().contains(text)) {
            if (System.nanoTime() > deadline || ended.isDone()) {
                throw new AssertionError("never received \"" + text + "\"; got:\n" + received);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /** Completes with everything received once the server closed the connection in order. */
    CompletableFuture<String> ended() {
        return ended;
    }
}

package io.agentfuse.gateway.upstream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/** A provider on a plain socket: answers every request in its {@link Style}. */
final class RawProvider implements AutoCloseable {

    /** The answer to every request: a chat completion of one short message. */
    static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}";

    private static final String STALE = ANSWER.replace("\"hi\"", "\"stale\"");

    /** How a {@link RawProvider} answers, and whether it closes the connection after each answer. */
    enum Style {
        KEEP(false, ""),
        CLOSE(true, ""),
        /** HTTP/1.0 with neither a length nor chunks: the body ends when the connection does. */
        UNTIL_CLOSE(true, ""),
        /** A {@code 100 Continue} nobody asked for before the answer. */
        CONTINUE_FIRST(false, "HTTP/1.1 100 Continue\r\n\r\n"),
        /** A second, stale answer nobody asked for, written with the first. */
        STALE_SECOND(false, ""),
        /** Chunked, and the second chunk's size is not hexadecimal: the framing breaks inside the body. */
        BROKEN_CHUNKS(false, "");

        final boolean closes;
        private final String before;

        Style(boolean closes, String before) {
            this.closes = closes;
            this.before = before;
        }

        byte[] answer(String json) {
            if (this == BROKEN_CHUNKS) {
                int half = json.length() / 2;
                return ("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
                        + Integer.toHexString(half) + "\r\n" + json.substring(0, half) + "\r\nzz\r\n"
                        + json.substring(half) + "\r\n0\r\n\r\n").getBytes(StandardCharsets.UTF_8);
            }
            String head = this == UNTIL_CLOSE ? "HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n"
                    : "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                    + json.getBytes(StandardCharsets.UTF_8).length + (this == CLOSE ? "\r\nconnection: close" : "") + "\r\n\r\n";
            String stale = this == STALE_SECOND ? "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                    + STALE.length() + "\r\n\r\n" + STALE : "";
            return (before + head + json + stale).getBytes(StandardCharsets.UTF_8);
        }
    }

    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger requests = new AtomicInteger();
    /** Connections that ended: the gateway's close read, or its reset. */
    final AtomicInteger ended = new AtomicInteger();
    /** The last request's head (without its blank line) and body. */
    volatile String lastHead;
    volatile String lastBody;
    private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final Style style;

    RawProvider(Style style) throws IOException {
        this.style = style;
        Thread acceptor = new Thread(this::accept, "raw-provider");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket connection = server.accept();
                connections.incrementAndGet();
                Thread serving = new Thread(() -> serve(connection), "raw-provider-connection");
                serving.setDaemon(true);
                serving.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            InputStream in = connection.getInputStream();
            OutputStream out = connection.getOutputStream();
            while (readRequest(in)) {
                requests.incrementAndGet();
                out.write(style.answer(ANSWER));
                out.flush();
                if (style.closes) {
                    return;
                }
            }
            ended.incrementAndGet();
        } catch (SocketException reset) {
            ended.incrementAndGet(); // closed at once, with what was still to send dropped
        } catch (IOException gone) {
            // the client closed the connection
        }
    }

    /** Reads one request's head and body; false at the end of the connection. */
    private boolean readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            if (head.size() >= 4 && head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                break;
            }
        }
        if (b < 0) {
            return false;
        }
        int length = 0;
        for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        lastHead = head.toString(StandardCharsets.ISO_8859_1).replaceAll("\r\n\r\n$", "");
        lastBody = new String(body, StandardCharsets.UTF_8);
        return body.length == length;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}

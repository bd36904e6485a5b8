package io.agentfuse.gateway.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * A plain TCP connection to 127.0.0.1 for tests that must send what no HTTP client would: half a
 * head, a trickle, two framings, a body that never comes. Every read is bounded by a timeout.
 */
public final class RawSocket implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** A connection to {@code port}. */
    public static RawSocket open(int port) {
        return open(port, 0);
    }

    /** A connection to {@code port} whose receive buffer is {@code receiveBuffer} bytes (0: the default). */
    public static RawSocket open(int port, int receiveBuffer) {
        try {
            Socket socket = new Socket();
            if (receiveBuffer > 0) {
                socket.setReceiveBufferSize(receiveBuffer);
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            return new RawSocket(socket);
        } catch (IOException e) {
            throw new IllegalStateException("cannot connect to 127.0.0.1:" + port, e);
        }
    }

    /** A complete request with a JSON body. */
    public static String post(String path, String host, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: "
                + bytes.length + "\r\n\r\n" + body;
    }

    /** A complete request with a JSON body sent chunked, in chunks of {@code chunkBytes} bytes. */
    public static String postChunked(String path, String host, String body, int chunkBytes) {
        StringBuilder request = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: " + host
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        for (int start = 0; start < bytes.length; start += chunkBytes) {
            int end = Math.min(bytes.length, start + chunkBytes);
            request.append(Integer.toHexString(end - start)).append("\r\n")
                    .append(new String(bytes, start, end - start, StandardCharsets.UTF_8)).append("\r\n");
        }
        return request.append("0\r\n\r\n").toString();
    }

    /** Sends {@code text} (UTF-8); false if the gateway has closed the connection already. */
    public boolean send(String text) {
        return send(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends {@code bytes}; false if the gateway has closed the connection already. */
    public boolean send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException closed) {
            return false;
        }
    }

    /** The next HTTP/1.1 response, read within {@code bound}. */
    public Response read(Duration bound) {
        return afterHead(head(bound), bound);
    }

    /** The response whose head {@link #head} has read: its body, read within {@code bound}. */
    public Response afterHead(String head, Duration bound) {
        try {
            socket.setSoTimeout((int) bound.toMillis());
            int status = Integer.parseInt(head.substring(9, 12));
            String lower = head.toLowerCase(Locale.ROOT);
            byte[] body;
            int length = headerInt(lower, "content-length");
            if (length >= 0) {
                body = in.readNBytes(length);
            } else if (lower.contains("transfer-encoding: chunked")) {
                body = readChunked();
            } else {
                body = new byte[0];
            }
            return new Response(status, head, new String(body, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("no complete response within " + bound, e);
        }
    }

    /** The head of the next response (status line and headers), read within {@code bound}; the body is left unread. */
    public String head(Duration bound) {
        try {
            socket.setSoTimeout((int) bound.toMillis());
            return readHead();
        } catch (IOException e) {
            throw new IllegalStateException("no response head within " + bound, e);
        }
    }

    /**
     * Reads and drops at most {@code max} bytes of what the gateway sent, waiting for the first of them
     * within {@code bound}: how many, or -1 once the connection is closed or reset.
     */
    public int readSome(int max, Duration bound) {
        try {
            socket.setSoTimeout((int) bound.toMillis());
            return in.read(new byte[max]);
        } catch (SocketTimeoutException nothing) {
            throw new IllegalStateException("no byte within " + bound, nothing);
        } catch (IOException reset) {
            return -1;
        }
    }

    /**
     * Whether the gateway closes the connection within {@code bound}: whatever it still sends is
     * read and discarded until the end of the stream or a reset.
     */
    public boolean closedWithin(Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        byte[] sink = new byte[64 * 1024];
        try {
            while (true) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return false;
                }
                socket.setSoTimeout((int) left);
                if (in.read(sink) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (SocketException reset) {
            return true;
        } catch (IOException e) {
            return true;
        }
    }

    /** Everything the gateway still sends until it closes the connection, which must happen within {@code bound}. */
    public String rest(Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            while (true) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new IllegalStateException("the connection is still open after " + bound + "; read: " + rest);
                }
                socket.setSoTimeout((int) left);
                int read = in.read(buffer);
                if (read < 0) {
                    return rest.toString(StandardCharsets.ISO_8859_1);
                }
                rest.write(buffer, 0, read);
            }
        } catch (SocketTimeoutException stillOpen) {
            throw new IllegalStateException("the connection is still open after " + bound + "; read: " + rest);
        } catch (IOException reset) {
            return rest.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a test socket: nothing to do
        }
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        while (last4 != 0x0D0A0D0A) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after " + head.size() + " bytes of head: " + head);
            }
            head.write(b);
            last4 = (last4 << 8) | b;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine();
            int size = Integer.parseInt(sizeLine.trim().split(";")[0], 16);
            if (size == 0) {
                readLine();
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine();
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    private static int headerInt(String head, String name) {
        int at = head.indexOf("\r\n" + name + ":");
        if (at < 0) {
            return -1;
        }
        int end = head.indexOf("\r\n", at + 2);
        return Integer.parseInt(head.substring(at + name.length() + 3, end).trim());
    }

    /** A response: status, head as sent, body as text. */
    public record Response(int status, String head, String body) {

        /** The value of header {@code name} (lower case), or null. */
        public String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }
}

package io.agentfuse.gateway.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A careless HTTP forward proxy in a process of its own, on 127.0.0.1: one that repeats a request's
 * {@code Proxy-Authorization} where its caller may read it, as debugging proxies and some appliances
 * do. {@link Mode#REFUSE} answers every request ({@code CONNECT} included) {@code 407} and
 * {@link Mode#BAD_GATEWAY} {@code 502}, each quoting the header and the login it decodes to in its
 * body and an {@code x-echo-proxy-authorization} header; {@link Mode#FORWARD} forwards a request for
 * an absolute URI to its host with every header it came with, {@code Proxy-Authorization} too, so that
 * the upstream sees it. It logs each request's line and {@code Proxy-Authorization} ({@link #requests}).
 *
 * <p>Runs this class's {@link #main} in a JVM of its own, on the JDK alone.
 *
 * <pre>{@code
 * try (EchoingProxy proxy = EchoingProxy.start(EchoingProxy.Mode.REFUSE)) { ... proxy.url("user", "password") ... }
 * }</pre>
 */
public final class EchoingProxy implements AutoCloseable {

    /** What it does with each request. */
    public enum Mode { REFUSE, BAD_GATEWAY, FORWARD }

    private final Process process;
    private final int port;
    private final Path log;

    private EchoingProxy(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** A proxy of {@code mode} on a free port of 127.0.0.1; fails when it cannot start. */
    public static EchoingProxy start(Mode mode) {
        try {
            Path run = Files.createTempDirectory("echoing-proxy");
            Path log = run.resolve("requests.txt");
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String classes = Path.of(EchoingProxy.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            Process process = new ProcessBuilder(java, "-cp", classes, EchoingProxy.class.getName(),
                    Integer.toString(port), mode.name(), log.toString())
                    .redirectErrorStream(true).redirectOutput(run.resolve("out.txt").toFile()).start();
            EchoingProxy proxy = new EchoingProxy(process, port, log);
            proxy.awaitListening(run.resolve("out.txt"));
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the echoing proxy", e);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code http://user:password@127.0.0.1:<port>}, as {@code HTTPS_PROXY} names it (user and password URL-encoded by the caller). */
    public String url(String user, String password) {
        return "http://" + user + ":" + password + "@127.0.0.1:" + port;
    }

    /** The port it listens on, on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** Each request so far: its request line, a tab, its {@code Proxy-Authorization} (empty without one). */
    public List<String> requests() {
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitListening(Path output) throws IOException {
        for (int attempt = 0; attempt < 300; attempt++) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the echoing proxy exited at start: " + Files.readString(output));
            }
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(50); // waiting for another process to listen: there is no event to wait on
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the echoing proxy", e);
                }
            }
        }
        close();
        throw new IllegalStateException("the echoing proxy did not listen on " + port + " within 15 s: " + Files.readString(output));
    }

    /** The proxy process: {@code port mode log}. */
    public static void main(String[] args) throws IOException {
        Mode mode = Mode.valueOf(args[1]);
        Path log = Path.of(args[2]);
        try (ServerSocket server = new ServerSocket(Integer.parseInt(args[0]), 64, InetAddress.getLoopbackAddress())) {
            while (true) {
                Socket client = server.accept();
                Thread serving = new Thread(() -> serve(client, mode, log));
                serving.setDaemon(true);
                serving.start();
            }
        }
    }

    private static void serve(Socket client, Mode mode, Path log) {
        try (client; InputStream in = client.getInputStream(); OutputStream out = client.getOutputStream()) {
            List<String> head = head(in);
            if (head.isEmpty()) {
                return;
            }
            String login = header(head, "proxy-authorization");
            synchronized (EchoingProxy.class) {
                Files.writeString(log, head.get(0) + "\t" + login + "\n", StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            }
            byte[] body = in.readNBytes(contentLength(head));
            if (mode == Mode.FORWARD && !head.get(0).startsWith("CONNECT ")) {
                forward(head, body, out);
            } else {
                echo(mode == Mode.REFUSE ? "407 Proxy Authentication Required" : "502 Bad Gateway", login, out);
            }
        } catch (IOException ignored) {
            // the client left: nothing to answer
        }
    }

    private static void echo(String status, String login, OutputStream out) throws IOException {
        String decoded = login.regionMatches(true, 0, "Basic ", 0, 6)
                ? new String(Base64.getDecoder().decode(login.substring(6).trim()), StandardCharsets.UTF_8) : "";
        byte[] body = ("<html><body><h1>" + status + "</h1><p>Your request carried Proxy-Authorization: " + login
                + " (login " + decoded + "), which this proxy does not accept.</p></body></html>").getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + "\r\nProxy-Authenticate: Basic realm=\"corp\"\r\nContent-Type: text/html\r\n"
                + "x-echo-proxy-authorization: " + login + "\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.write(body);
        out.flush();
    }

    /** Sends the request to its host as it came (less the absolute URI), and its answer back to the end. */
    private static void forward(List<String> head, byte[] body, OutputStream out) throws IOException {
        String[] line = head.get(0).split(" ");
        URI target = URI.create(line[1]);
        try (Socket upstream = new Socket(target.getHost(), target.getPort() < 0 ? 80 : target.getPort())) {
            StringBuilder request = new StringBuilder(line[0] + " " + target.getRawPath()
                    + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery()) + " " + line[2] + "\r\n");
            for (String header : head.subList(1, head.size())) {
                String name = header.substring(0, header.indexOf(':')).trim().toLowerCase(Locale.ROOT);
                if (!name.equals("connection") && !name.equals("proxy-connection") && !name.equals("keep-alive")) {
                    request.append(header).append("\r\n");
                }
            }
            request.append("Connection: close\r\n\r\n");
            OutputStream toUpstream = upstream.getOutputStream();
            toUpstream.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            toUpstream.write(body);
            toUpstream.flush();
            upstream.getInputStream().transferTo(out);
            out.flush();
        }
    }

    private static List<String> head(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1).stripTrailing();
                if (text.isEmpty()) {
                    return lines;
                }
                lines.add(text);
                line.reset();
            } else {
                line.write(b);
            }
        }
        return lines;
    }

    private static String header(List<String> head, String name) {
        for (String line : head.subList(1, head.size())) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return "";
    }

    private static int contentLength(List<String> head) {
        String length = header(head, "content-length");
        return length.isEmpty() ? 0 : Integer.parseInt(length);
    }
}

package io.agentfuse.gateway.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real HTTP forward proxy in a process of its own, for the egress tests: Debian's tinyproxy,
 * listening on 127.0.0.1, logging every request it proxies ({@code CONNECT host:port} for a
 * tunnel) and adding {@code Via: ... tinyproxy ...} to the requests it forwards.
 *
 * <p>The binary is found, never skipped: {@code tinyproxy} on the {@code PATH}, else Debian's
 * {@code tinyproxy-bin} package fetched with {@code apt-get download} and unpacked with
 * {@code dpkg-deb -x} into {@code target/tinyproxy/} (as root, {@code apt-get update} first when the
 * package lists know no such package). Anything else fails with what went wrong and how to install
 * it by hand.
 *
 * <p>{@link #startWithLogin} starts one that asks every request for a login ({@code BasicAuth}): without
 * it, or with another, it answers {@code 407 Proxy Authentication Required}, to a {@code CONNECT} as to a
 * proxied request, as a corporate proxy does.
 *
 * <pre>{@code
 * try (Tinyproxy proxy = Tinyproxy.start()) { ... proxy.port() ... proxy.requests() ... }
 * }</pre>
 */
public final class Tinyproxy implements AutoCloseable {

    private static final String BY_HAND = "; install tinyproxy by hand (as root: apt-get update && apt-get install -y"
            + " tinyproxy) and run the tests again";

    private final Process process;
    private final int port;
    private final Path log;

    private Tinyproxy(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** A proxy on a free port of 127.0.0.1, accepting clients from there only; fails when it cannot start. */
    public static Tinyproxy start() {
        return start("");
    }

    /** As {@link #start()}, letting through only requests that log in as {@code user} with {@code password}. */
    public static Tinyproxy startWithLogin(String user, String password) {
        return start("BasicAuth " + user + " " + password + "\n");
    }

    private static Tinyproxy start(String extraConfig) {
        Path binary = binary();
        try {
            Path home = Files.createDirectories(Path.of("target", "tinyproxy").toAbsolutePath());
            Path run = Files.createTempDirectory(home, "run");
            int port = freePort();
            Path log = run.resolve("tinyproxy.log");
            Path config = run.resolve("tinyproxy.conf");
            // No ConnectPort line: CONNECT is allowed to any port (the test's TLS servers listen on free ports).
            Files.writeString(config, "Port " + port + "\nListen 127.0.0.1\nTimeout 30\nMaxClients 64\n"
                    + "LogFile \"" + log + "\"\nLogLevel Info\nAllow 127.0.0.1\n" + extraConfig);
            Process process = new ProcessBuilder(binary.toString(), "-d", "-c", config.toString())
                    .redirectErrorStream(true).redirectOutput(run.resolve("out.txt").toFile()).start();
            Tinyproxy proxy = new Tinyproxy(process, port, log);
            proxy.awaitListening(run.resolve("out.txt"));
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start tinyproxy" + BY_HAND, e);
        }
    }

    /** The port it listens on, on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>}, as {@code server.egressProxy} names it. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** {@code http://user:password@127.0.0.1:<port>}, as {@code server.egressProxy} names a proxy with a login (both URL-safe). */
    public String url(String user, String password) {
        return "http://" + user + ":" + password + "@127.0.0.1:" + port;
    }

    /** The requests it proxied so far, as its log names them: {@code GET http://...}, {@code CONNECT host:port}. */
    public List<String> requests() {
        List<String> requests = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                int at = line.indexOf("): ");
                if (line.contains("Request (file descriptor") && at > 0) {
                    requests.add(line.substring(at + 3).trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
        return requests;
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
        for (int attempt = 0; attempt < 200; attempt++) {
            if (!process.isAlive()) {
                throw new IllegalStateException("tinyproxy exited at start: " + Files.readString(output) + BY_HAND);
            }
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException notYet) {
                sleep();
            }
        }
        close();
        throw new IllegalStateException("tinyproxy did not listen on " + port + " within 20 s: " + Files.readString(output));
    }

    private static void sleep() {
        try {
            Thread.sleep(100); // waiting for another process to listen: there is no event to wait on
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for tinyproxy", e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The binary: on the PATH, else unpacked from Debian's package into {@code target/tinyproxy/}. */
    static synchronized Path binary() {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(folder.isEmpty() ? "." : folder, "tinyproxy");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return fetched(Path.of("target", "tinyproxy").toAbsolutePath());
    }

    /** Debian's {@code tinyproxy-bin}, downloaded and unpacked under {@code home} unless it is there already. */
    static Path fetched(Path home) {
        Path unpacked = home.resolve("root");
        Path binary = unpacked.resolve("usr/bin/tinyproxy");
        if (Files.isExecutable(binary)) {
            return binary;
        }
        Path debs = home.resolve("debs");
        try {
            ExternalCommands.deleteTree(debs);
            ExternalCommands.deleteTree(unpacked);
            Files.createDirectories(debs);
            Files.createDirectories(unpacked);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + debs, e);
        }
        try {
            ExternalCommands.run(List.of("apt-get", "download", "tinyproxy-bin"), Map.of(), debs, BY_HAND);
        } catch (IllegalStateException unknown) {
            if (!ExternalCommands.isRoot()) {
                throw unknown;
            }
            ExternalCommands.run(List.of("apt-get", "update", "-q"), Map.of(), debs, BY_HAND);
            ExternalCommands.run(List.of("apt-get", "download", "tinyproxy-bin"), Map.of(), debs, BY_HAND);
        }
        try (Stream<Path> files = Files.list(debs)) {
            for (Path deb : files.filter(file -> file.toString().endsWith(".deb")).sorted().toList()) {
                ExternalCommands.run(List.of("dpkg-deb", "-x", deb.toString(), unpacked.toString()), Map.of(), home, BY_HAND);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + debs, e);
        }
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("the package tinyproxy-bin held no usr/bin/tinyproxy" + BY_HAND);
        }
        return binary;
    }
}

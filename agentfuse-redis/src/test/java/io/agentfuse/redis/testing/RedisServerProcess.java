package io.agentfuse.redis.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} on a free loopback port, for tests: no persistence
 * ({@code --save '' --appendonly no}), stopped by {@link #close()}, and {@link #kill()} /
 * {@link #restart()} to take it away and bring it back on the same port.
 *
 * <p>The binary is {@code redis-server} from {@code PATH} if there is one; otherwise Debian's
 * packages ({@code redis-tools}, whose {@code redis-check-rdb} is the server when called
 * {@code redis-server}, and its libraries {@code liblzf1}, {@code libjemalloc2}) are fetched with
 * {@code apt-get download} (after an {@code apt-get update} if the package lists lack them) and unpacked with {@code dpkg-deb -x} into {@code target/redis/}, once.
 * If neither works the test fails with the reason: a missing Redis must never look like a pass.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(15);
    private static final Path HOME = Path.of("target", "redis").toAbsolutePath();

    private final Binary binary;
    private final int port;
    private final String password;
    private Process process;

    private RedisServerProcess(Binary binary, int port, String password) {
        this.binary = binary;
        this.port = port;
        this.password = password;
    }

    /** Starts a server on a free port and waits until it answers {@code PING}. */
    public static RedisServerProcess start() {
        RedisServerProcess server = new RedisServerProcess(Binary.find(), freePort(), null);
        server.launch();
        return server;
    }

    /** Starts a server that lets in only clients that give {@code password} ({@code --requirepass}). */
    public static RedisServerProcess startRequiringPassword(String password) {
        RedisServerProcess server = new RedisServerProcess(Binary.find(), freePort(), password);
        server.launch();
        return server;
    }

    /** The server's port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** Its URI, e.g. {@code redis://127.0.0.1:40123}. */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Kills the server at once (SIGKILL), as a crash would, and waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server on port " + port + " did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Freezes the server (SIGSTOP): connections stay open and nothing is answered, as with a Redis
     * that hangs; {@link #resume()} lets it go on with what it was sent meanwhile.
     */
    public void pause() {
        signal("-STOP");
    }

    /** Lets a {@link #pause() paused} server go on (SIGCONT). */
    public void resume() {
        signal("-CONT");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill " + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the server again on the same port, empty, and waits until it answers. */
    public void restart() {
        launch();
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            kill();
        }
    }

    private void launch() {
        List<String> command = new ArrayList<>(List.of(binary.server().toString(), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", HOME.toString()));
        if (password != null) {
            command.addAll(List.of("--requirepass", password));
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(HOME.resolve("redis-" + port + ".log").toFile()));
        if (binary.libraries() != null) {
            builder.environment().put("LD_LIBRARY_PATH", binary.libraries().toString());
        }
        try {
            Files.createDirectories(HOME);
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command, e);
        }
        long deadline = System.nanoTime() + READY.toNanos();
        while (!answersPing()) {
            if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                process.destroyForcibly();
                throw new IllegalStateException("redis-server did not come up on port " + port + "; see "
                        + HOME.resolve("redis-" + port + ".log"));
            }
            LockSupport.parkNanos(10_000_000L);
        }
    }

    private boolean answersPing() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            if (password != null) {
                out.write(("AUTH " + password + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                if (!new String(in.readNBytes(5), StandardCharsets.US_ASCII).equals("+OK\r\n")) {
                    return false;
                }
            }
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] answer = new byte[5];
            int read = in.readNBytes(answer, 0, 5);
            return read == 5 && new String(answer, StandardCharsets.US_ASCII).equals("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    /** Where the server binary is, and the libraries it needs if they were unpacked beside it. */
    private record Binary(Path server, Path libraries) {

        static synchronized Binary find() {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path candidate = Path.of(dir, "redis-server");
                if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                    return new Binary(candidate, null);
                }
            }
            Path root = HOME.resolve("root");
            Path server = HOME.resolve("bin").resolve("redis-server");
            if (!Files.isExecutable(server)) {
                unpack(root, server);
            }
            return new Binary(server, root.resolve("usr").resolve("lib").resolve(libraryDirectory(root)));
        }

        private static void unpack(Path root, Path server) {
            try {
                Path debs = Files.createDirectories(HOME.resolve("debs"));
                String[] download = {"apt-get", "download", "redis-tools", "liblzf1", "libjemalloc2"};
                try {
                    run(debs, download);
                } catch (IllegalStateException noPackageLists) {
                    run(debs, "apt-get", "update"); // a fresh machine may not know the packages yet
                    run(debs, download);
                }
                try (Stream<Path> files = Files.list(debs)) {
                    for (Path deb : files.filter(file -> file.toString().endsWith(".deb")).toList()) {
                        run(debs, "dpkg-deb", "-x", deb.toString(), root.toString());
                    }
                }
                Path checker = root.resolve("usr/bin/redis-check-rdb");
                if (!Files.isExecutable(checker)) {
                    throw new IllegalStateException("the redis-tools package has no usr/bin/redis-check-rdb");
                }
                Files.createDirectories(server.getParent());
                Files.deleteIfExists(server);
                // redis-check-rdb is redis-server itself; it picks its role from the name it is called by.
                Files.createSymbolicLink(server, checker);
            } catch (IOException e) {
                throw new IllegalStateException("cannot unpack redis-server into " + HOME, e);
            }
        }

        private static String libraryDirectory(Path root) {
            try (Stream<Path> dirs = Files.list(root.resolve("usr").resolve("lib"))) {
                return dirs.filter(dir -> dir.resolve("liblzf.so.1").toFile().exists())
                        .map(dir -> dir.getFileName().toString()).findFirst().orElse("");
            } catch (IOException e) {
                return "";
            }
        }

        private static void run(Path dir, String... command) {
            List<String> line = new ArrayList<>(List.of(command));
            try {
                Process process = new ProcessBuilder(line).directory(dir.toFile()).redirectErrorStream(true).start();
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                    throw new IllegalStateException("no redis-server on PATH, and " + String.join(" ", line)
                            + " failed (install redis-server to run these tests):\n" + output);
                }
            } catch (IOException e) {
                throw new IllegalStateException("no redis-server on PATH, and " + String.join(" ", line)
                        + " cannot run (install redis-server to run these tests): " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}

